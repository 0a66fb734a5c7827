//===- CudaDriver.cpp - dlopen of libcuda and its entry points ------------===//

#include "runtime/cuda/CudaDriver.h"

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <memory>
#include <mutex>

namespace tcc {
namespace cuda {
namespace {

/// One entry of the table: where it goes and the symbols to try, in order.
struct Symbol {
  void **slot;
  const char *names[2];
  bool required;
};

Status noDevice(const std::string &why) {
  return Status::error(ErrorCode::Unsupported,
                       std::string(kNoCudaDevice) + ": " + why);
}

std::atomic<int> attempts{0};

template <class F> void **slotOf(F &field) {
  return reinterpret_cast<void **>(&field);
}

} // namespace

int CudaDriver::loadAttempts() { return attempts.load(); }

Result<const CudaDriver *> CudaDriver::load(const std::string &library) {
  ++attempts;
  // The handle is never closed: code compiled against the driver may run
  // until the process ends.
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return noDevice("cannot load " + library + " (" +
                    (why ? why : "unknown error") + ")");
  }
  std::unique_ptr<CudaDriver> driver(new CudaDriver());
  driver->library_ = library;
  CudaDriverApi &a = driver->api_;
  const Symbol symbols[] = {
      {slotOf(a.cuInit), {"cuInit"}, true},
      {slotOf(a.cuDriverGetVersion), {"cuDriverGetVersion"}, true},
      {slotOf(a.cuDeviceGetCount), {"cuDeviceGetCount"}, true},
      {slotOf(a.cuDeviceGet), {"cuDeviceGet"}, true},
      {slotOf(a.cuDeviceGetName), {"cuDeviceGetName"}, true},
      {slotOf(a.cuDeviceGetAttribute), {"cuDeviceGetAttribute"}, true},
      {slotOf(a.cuDevicePrimaryCtxRetain), {"cuDevicePrimaryCtxRetain"}, true},
      {slotOf(a.cuDevicePrimaryCtxRelease),
       {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
       true},
      {slotOf(a.cuCtxSetCurrent), {"cuCtxSetCurrent"}, true},
      {slotOf(a.cuCtxGetCurrent), {"cuCtxGetCurrent"}, true},
      {slotOf(a.cuStreamCreate), {"cuStreamCreate"}, true},
      {slotOf(a.cuStreamSynchronize), {"cuStreamSynchronize"}, true},
      {slotOf(a.cuStreamDestroy),
       {"cuStreamDestroy_v2", "cuStreamDestroy"},
       true},
      {slotOf(a.cuStreamWaitEvent), {"cuStreamWaitEvent"}, true},
      {slotOf(a.cuModuleLoadData), {"cuModuleLoadData"}, true},
      {slotOf(a.cuModuleUnload), {"cuModuleUnload"}, true},
      {slotOf(a.cuModuleGetFunction), {"cuModuleGetFunction"}, true},
      {slotOf(a.cuLaunchKernel), {"cuLaunchKernel"}, true},
      {slotOf(a.cuMemAlloc), {"cuMemAlloc_v2"}, true},
      {slotOf(a.cuMemFree), {"cuMemFree_v2"}, true},
      {slotOf(a.cuMemGetInfo), {"cuMemGetInfo_v2"}, true},
      {slotOf(a.cuMemcpyHtoD), {"cuMemcpyHtoD_v2"}, true},
      {slotOf(a.cuMemcpyDtoH), {"cuMemcpyDtoH_v2"}, true},
      {slotOf(a.cuMemcpyDtoD), {"cuMemcpyDtoD_v2"}, true},
      {slotOf(a.cuMemcpyHtoDAsync), {"cuMemcpyHtoDAsync_v2"}, true},
      {slotOf(a.cuMemcpyDtoHAsync), {"cuMemcpyDtoHAsync_v2"}, true},
      {slotOf(a.cuMemcpyDtoDAsync), {"cuMemcpyDtoDAsync_v2"}, true},
      {slotOf(a.cuMemcpyAsync), {"cuMemcpyAsync"}, true},
      {slotOf(a.cuMemsetD32), {"cuMemsetD32_v2"}, true},
      {slotOf(a.cuMemsetD32Async), {"cuMemsetD32Async"}, true},
      {slotOf(a.cuMemsetD16Async), {"cuMemsetD16Async"}, true},
      {slotOf(a.cuEventCreate), {"cuEventCreate"}, true},
      {slotOf(a.cuEventDestroy), {"cuEventDestroy_v2", "cuEventDestroy"}, true},
      {slotOf(a.cuEventRecord), {"cuEventRecord"}, true},
      {slotOf(a.cuEventSynchronize), {"cuEventSynchronize"}, true},
      // _v2 appeared in CUDA 12.8; older drivers only have v1.
      {slotOf(a.cuEventElapsedTime),
       {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
       true},
      {slotOf(a.cuGetErrorName), {"cuGetErrorName"}, true},
      {slotOf(a.cuGetErrorString), {"cuGetErrorString"}, true},
      {slotOf(a.cuMemAllocManaged), {"cuMemAllocManaged"}, false},
  };
  for (const Symbol &s : symbols) {
    for (const char *name : s.names)
      if (name && !*s.slot)
        *s.slot = dlsym(handle, name);
    if (!*s.slot && s.required)
      return noDevice(library + " lacks " + s.names[0] +
                      " (a driver older than CUDA 11?)");
  }
  CUresult init = a.cuInit(0);
  if (init != CUDA_SUCCESS)
    return noDevice("cuInit failed: " + driver->errorName(init));
  a.cuDriverGetVersion(&driver->version_);
  // Process lifetime, like the handle.
  return static_cast<const CudaDriver *>(driver.release());
}

Result<const CudaDriver *> CudaDriver::get() {
  // Loaded once: a missing driver is one dlopen per process, and every
  // caller gets the same error.
  static Result<const CudaDriver *> driver = [] {
    const char *path = std::getenv("TCC_CUDA_DRIVER");
    return load(path && *path ? path : "libcuda.so.1");
  }();
  return driver;
}

std::string CudaDriver::errorName(CUresult result) const {
  const char *name = nullptr;
  if (api_.cuGetErrorName)
    api_.cuGetErrorName(result, &name);
  return name ? name : "CUDA error " + std::to_string(result);
}

Status CudaDriver::check(CUresult result, const char *what) const {
  if (result == CUDA_SUCCESS)
    return Status::success();
  std::string message = std::string(what) + " failed: " + errorName(result);
  const char *text = nullptr;
  if (api_.cuGetErrorString)
    api_.cuGetErrorString(result, &text);
  if (text)
    message += std::string(" (") + text + ")";
  return Status::error(result == CUDA_ERROR_OUT_OF_MEMORY
                           ? ErrorCode::OutOfMemory
                           : ErrorCode::Internal,
                       message);
}

} // namespace cuda
} // namespace tcc
