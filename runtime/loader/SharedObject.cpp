//===- SharedObject.cpp - load an ahead-of-time compiled artifact ---------===//

#include "runtime/loader/SharedObject.h"
#include "runtime/loader/ManifestText.h"

#include <dlfcn.h>

namespace tcc {

Result<std::shared_ptr<Program>> loadSharedObject(const std::string &path) {
  // dlopen searches the library path for a bare name: "./x.so" is meant.
  std::string name = path.find('/') == std::string::npos ? "./" + path : path;
  void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Status::error(ErrorCode::IoError, "cannot load '" + path + "': " +
                                                 (why ? why : "unknown error"));
  }
  std::shared_ptr<void> code(handle, [](void *h) { dlclose(h); });
  auto *text = static_cast<const char *>(dlsym(handle, "tcc_manifest"));
  if (!text)
    return Status::error(ErrorCode::InvalidArgument,
                         "'" + path +
                             "' is not a tcc artifact (no tcc_manifest)");
  Result<Manifest> manifest = parseManifest(text);
  if (!manifest.ok())
    return Status::error(manifest.status().code(),
                         "'" + path + "': " + manifest.status().message());
  if (Status cpu = checkCpuFeatures(manifest.value()); !cpu.ok())
    return Status::error(cpu.code(), "'" + path + "': " + cpu.message());
  auto program = std::make_shared<Program>();
  program->manifest = std::move(manifest).value();
  for (const FunctionSpec &f : program->manifest.functions) {
    std::string symbol = "tcc_entry_" + f.name;
    void *entry = dlsym(handle, symbol.c_str());
    if (!entry)
      return Status::error(ErrorCode::InvalidArgument,
                           "'" + path + "' has no entry point " + symbol);
    program->entries[f.name] = reinterpret_cast<EntryPoint>(entry);
  }
  program->code = std::move(code);
  return program;
}

} // namespace tcc
