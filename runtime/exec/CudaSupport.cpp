//===- CudaSupport.cpp - the CUDA device, opened on first use -------------===//

#include "runtime/exec/CudaSupport.h"
#include "runtime/core/RuntimeFiles.h"

#include <dlfcn.h>

namespace tcc {
namespace {

/// The entry points of libtcc_cuda.so, found once.
struct CudaLibrary {
  Status status;
#define TCC_CUDA_ENTRY(name, params) void(*name) params = nullptr;
#include "runtime/cuda/RuntimeEntryPoints.def"
};

const CudaLibrary &cudaLibrary() {
  static const CudaLibrary library = [] {
    CudaLibrary lib;
    std::string path = cudaLibraryPath();
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
      const char *why = dlerror();
      lib.status =
          Status::error(ErrorCode::Unsupported,
                        "the CUDA support library cannot be loaded (" +
                            std::string(why ? why : path) +
                            "); it belongs beside libtcc_runtime.so, or set "
                            "TCC_CUDA_LIBRARY");
      return lib;
    }
#define TCC_CUDA_ENTRY(name, params)                                           \
  lib.name = reinterpret_cast<decltype(lib.name)>(dlsym(handle, #name));       \
  if (!lib.name && lib.status.ok())                                            \
    lib.status = Status::error(                                                \
        ErrorCode::Unsupported,                                                \
        "'" + path +                                                           \
            "' has no " #name " (a libtcc_cuda.so of another tcc version)");
#include "runtime/cuda/RuntimeEntryPoints.def"
    return lib;
  }();
  return library;
}

} // namespace

Status loadCudaSupport() { return cudaLibrary().status; }

Result<Device *> cudaDevice() {
  const CudaLibrary &lib = cudaLibrary();
  if (!lib.status.ok())
    return lib.status;
  Result<Device *> device(
      Status::error(ErrorCode::Internal, "no answer from libtcc_cuda.so"));
  lib.tcc_cuda_get_device(0, &device);
  return device;
}

Status synchronizeCuda(Device &device) {
  Status status;
  cudaLibrary().tcc_cuda_synchronize(&device, &status);
  return status;
}

void clearCudaCodeError() {
  cudaLibrary().tcc_cuda_clear_compiled_code_error();
}

Status takeCudaCodeError() {
  Status status;
  cudaLibrary().tcc_cuda_take_compiled_code_error(&status);
  return status;
}

} // namespace tcc
