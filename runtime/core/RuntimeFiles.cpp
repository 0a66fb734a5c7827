//===- RuntimeFiles.cpp - the files that live beside the runtime ----------===//

#include "runtime/core/RuntimeFiles.h"

#include <cstdlib>
#include <dlfcn.h>

namespace tcc {

std::string runtimeLibraryDir() {
  static const std::string dir = [] {
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(&runtimeLibraryDir), &info) ||
        !info.dli_fname)
      return std::string();
    std::string file = info.dli_fname;
    size_t slash = file.rfind('/');
    return slash == std::string::npos ? std::string(".")
                                      : file.substr(0, slash);
  }();
  return dir;
}

std::string runtimeLibraryFile(const std::string &name) {
  std::string dir = runtimeLibraryDir();
  return dir.empty() ? name : dir + "/" + name;
}

std::string runtimeLibraryPath() {
  return runtimeLibraryFile("libtcc_runtime.so");
}

std::string cudaLibraryPath() {
  if (const char *path = std::getenv("TCC_CUDA_LIBRARY"); path && *path)
    return path;
  return runtimeLibraryFile("libtcc_cuda.so");
}

} // namespace tcc
