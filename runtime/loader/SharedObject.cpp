//===- SharedObject.cpp - load an ahead-of-time compiled artifact ---------===//

#include "runtime/loader/SharedObject.h"
#include "runtime/exec/CudaSupport.h"
#include "runtime/loader/ManifestText.h"

#include <dlfcn.h>

namespace tcc {
namespace {

/// dlopen, or the dynamic loader's reason in `why`.
void *open(const std::string &name, std::string &why) {
  void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    why = reason ? reason : "unknown error";
  }
  return handle;
}

} // namespace

Result<std::shared_ptr<Program>> loadSharedObject(const std::string &path) {
  // dlopen searches the library path for a bare name: "./x.so" is meant.
  std::string name = path.find('/') == std::string::npos ? "./" + path : path;
  std::string why;
  void *handle = open(name, why);
  // An artifact compiled for CUDA needs libtcc_cuda.so (NEEDED, by name),
  // which the runtime opens on first use: open it, then the artifact again.
  if (!handle && why.find("libtcc_cuda.so") != std::string::npos) {
    if (Status cuda = loadCudaSupport(); !cuda.ok())
      return Status::error(cuda.code(),
                           "cannot load '" + path +
                               "', compiled for CUDA: " + cuda.message());
    handle = open(name, why);
  }
  if (!handle) {
    // Artifacts of older tcc versions need libtcc_kernels.so, by a path in
    // the build tree that made them.
    if (why.find("libtcc_kernels.so") != std::string::npos)
      why += " (an artifact of an older tcc: compile it again)";
    return Status::error(ErrorCode::IoError,
                         "cannot load '" + path + "': " + why);
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
