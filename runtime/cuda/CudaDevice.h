//===- CudaDevice.h - a CUDA GPU as a runtime Device ----------------------===//
//
// One CudaDevice per GPU ordinal, created on first use and never destroyed
// (like hostDevice()): its primary context, one stream on which all of its
// work runs (copies, kernels of compiled code), a caching allocator, and the
// modules loaded from compiled code. The Device operations (allocate, copy)
// are synchronous: when they return, the bytes are where they were asked to
// be. Compiled code reaches the same device through the `mgpu*` functions of
// libtcc_cuda.so (see MgpuApi.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_CUDA_CUDADEVICE_H
#define TCC_RUNTIME_CUDA_CUDADEVICE_H

#include "runtime/core/CachingAllocator.h"
#include "runtime/core/Device.h"
#include "runtime/cuda/CudaDriver.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tcc {
namespace cuda {

/// A CUDA GPU. Thread-safe.
class CudaDevice final : public Device {
public:
  /// The device of `ordinal` (0: the first GPU), set up on the first call:
  /// driver, device, primary context, stream. Later calls return the same
  /// device, or the same error: Unsupported "no CUDA driver/device found:
  /// <reason>" without a driver or a GPU.
  static Result<CudaDevice *> get(int ordinal = 0);

  DeviceKind kind() const override { return DeviceKind::Cuda; }
  /// "cuda:0".
  std::string name() const override;

  /// From the caching allocator (device memory, 256-byte aligned).
  Result<void *> allocate(size_t bytes) override;
  /// Back to the caching allocator's free list.
  void deallocate(void *ptr, size_t bytes) noexcept override;
  Status copyFromHost(void *dst, const void *src, size_t bytes) override;
  Status copyToHost(void *dst, const void *src, size_t bytes) override;
  Status copyWithin(void *dst, const void *src, size_t bytes) override;

  /// Sets `count` 32-bit words at `dst` to `value`, synchronously.
  Status fill32(void *dst, uint32_t value, size_t count);
  /// Waits until all work queued on the device's stream is done.
  Status synchronize();

  /// The module of a compiled blob (PTX text, cubin or fatbin), loaded on
  /// the first request for that blob and cached: compiled code asks for it
  /// at every launch. `size` 0 means NUL-terminated PTX text. A cache hit
  /// compares the bytes, so a different blob at a reused address (code
  /// unloaded and other code loaded) is loaded anew.
  Result<CUmodule> loadModule(const void *blob, size_t size);
  /// A kernel of a loaded module.
  Result<CUfunction> kernel(CUmodule module, const char *name);
  /// Queues a kernel on the device's stream.
  Status launch(CUfunction f, const unsigned grid[3], const unsigned block[3],
                unsigned sharedMemBytes, void **params, void **extra);

  /// The stream all of this device's work runs on.
  CUstream stream() const { return stream_; }
  const CudaDriver &driver() const { return driver_; }
  /// "NVIDIA H100 80GB HBM3, sm_90, CUDA 12.4".
  std::string description() const;
  /// 90 for sm_90.
  int computeCapability() const { return computeCapability_; }
  /// Free and total device memory in bytes (cuMemGetInfo).
  Status memoryInfo(size_t &freeBytes, size_t &totalBytes);

  /// The caching allocator's counters.
  AllocatorStats allocatorStats() const { return allocator_->stats(); }
  /// Gives the allocator's cached blocks back to the driver (after the
  /// stream is idle); returns the bytes released.
  size_t trim();
  /// Number of modules in the cache.
  size_t moduleCount() const;

  /// Makes this device's context current on the calling thread for the
  /// guard's lifetime, restoring the previous one afterwards.
  class ContextGuard {
  public:
    explicit ContextGuard(const CudaDevice &device);
    ~ContextGuard();
    ContextGuard(const ContextGuard &) = delete;
    ContextGuard &operator=(const ContextGuard &) = delete;

  private:
    const CudaDriver &driver_;
    CUcontext previous_ = nullptr;
    bool restore_ = false;
  };

private:
  class DeviceMemory;
  CudaDevice(const CudaDriver &driver, int ordinal);
  Status initialize();

  const CudaDriver &driver_;
  const int ordinal_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  std::string deviceName_;
  int computeCapability_ = 0;
  std::unique_ptr<DeviceMemory> memory_;
  std::unique_ptr<CachingAllocator> allocator_;

  struct CachedModule {
    const void *blob;
    std::string bytes; ///< a copy, to tell a reused address apart
    CUmodule module;
  };
  mutable std::mutex modulesMutex_;
  std::vector<CachedModule> modules_;
};

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_CUDA_CUDADEVICE_H
