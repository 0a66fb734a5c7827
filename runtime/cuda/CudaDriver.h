//===- CudaDriver.h - the CUDA Driver API, loaded at run time -------------===//
//
// The runtime never links libcuda: the driver is opened with
// dlopen("libcuda.so.1") the first time a CUDA device is asked for, and every
// entry point the runtime uses is looked up once into one table. A machine
// without a driver or a GPU then builds, loads and runs host code as before,
// and a request for a CUDA device gets one clear error. The types below are
// our own minimal declarations (ABI-compatible with cuda.h), so building needs
// no CUDA headers.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_CUDA_CUDADRIVER_H
#define TCC_RUNTIME_CUDA_CUDADRIVER_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tcc {
namespace cuda {

// Driver API types, as cuda.h declares them.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr unsigned CU_EVENT_DEFAULT = 0;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

/// The entry points the runtime uses, one pointer each. Names in comments
/// are the exported symbols looked up (cuda.h maps several to `_v2`).
struct CudaDriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device); // _v2
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxGetCurrent)(CUcontext *context);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamDestroy)(CUstream stream); // _v2
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuLaunchKernel)(CUfunction f, unsigned gridX, unsigned gridY,
                             unsigned gridZ, unsigned blockX, unsigned blockY,
                             unsigned blockZ, unsigned sharedMemBytes,
                             CUstream stream, void **params, void **extra);
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes); // _v2
  CUresult (*cuMemFree)(CUdeviceptr ptr);                 // _v2
  CUresult (*cuMemGetInfo)(size_t *free, size_t *total);  // _v2
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src,
                           size_t bytes);                             // _v2
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes); // _v2
  CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src,
                           size_t bytes); // _v2
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes,
                                CUstream stream); // _v2
  CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes,
                                CUstream stream); // _v2
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                CUstream stream); // _v2
  /// Unified addressing: copies between any two pointers.
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream stream);
  CUresult (*cuMemsetD32)(CUdeviceptr dst, unsigned value, size_t count); // _v2
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                               CUstream stream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value,
                               size_t count, CUstream stream);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event); // _v2
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start,
                                 CUevent end); // _v2, else v1
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  /// Optional (null when the driver lacks it): managed memory.
  CUresult (*cuMemAllocManaged)(CUdeviceptr *ptr, size_t bytes, unsigned flags);
};

/// The loaded driver: its table and where it came from.
class CudaDriver {
public:
  /// The process-wide driver, loaded (dlopen, dlsym of every entry point,
  /// cuInit) on the first call only; later calls return the same driver or
  /// the same error without trying again. The library is `libcuda.so.1`, or
  /// the path in $TCC_CUDA_DRIVER. Error (Unsupported): "no CUDA
  /// driver/device found: <reason>".
  static Result<const CudaDriver *> get();

  /// Loads a driver from `library` without caching (for tests and tools).
  /// The returned driver lives until the process ends.
  static Result<const CudaDriver *> load(const std::string &library);
  /// How many times load() ran in this process (get() loads at most once).
  static int loadAttempts();

  const CudaDriverApi &api() const { return api_; }
  const std::string &library() const { return library_; }
  /// The driver's CUDA version (12040 for 12.4).
  int version() const { return version_; }

  /// Ok for CUDA_SUCCESS; otherwise an error "WHAT failed: CUDA_ERROR_X
  /// (description)" (OutOfMemory for CUDA_ERROR_OUT_OF_MEMORY, else
  /// Internal).
  Status check(CUresult result, const char *what) const;
  /// "CUDA_ERROR_INVALID_VALUE", or "CUDA error N" when the driver does not
  /// know the code.
  std::string errorName(CUresult result) const;

private:
  CudaDriver() = default;
  CudaDriverApi api_{};
  std::string library_;
  int version_ = 0;
};

/// The message prefix of every "no driver or device" error.
constexpr const char *kNoCudaDevice = "no CUDA driver/device found";

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_CUDA_CUDADRIVER_H
