//===- CachingAllocator.h - size-class free lists over a raw allocator ---===//
//
// Asking the backend for memory is slow on both devices: cuMemAlloc/cuMemFree
// synchronize the GPU and cost tens of microseconds, and fresh host memory
// costs a page fault per 4 KiB page on its first touch (16,385 faults, about
// 48 ms, for a 64 MiB output). Freed blocks are therefore kept in
// per-size-class free lists and handed out again; only a miss reaches the
// backend. The backend is an interface, so the logic is the same for the host
// (runtime/host/HostMemory.h) and the CUDA device (runtime/cuda/CudaDevice.h),
// and is tested with plain host memory.
//
// Size classes: requests up to 1 MiB round up to a power of two (at least
// 512 bytes); larger ones round up to a multiple of 2 MiB (one huge page). A
// block is reused only for a request of the same class, so waste is below
// 2x for small blocks and below 2 MiB for large ones.
//
// The bound: at most `cacheLimit` bytes wait in the free lists. A block
// freed beyond it goes back to the backend at once (a block larger than the
// limit is never kept), so the cache never holds more than the limit.
//
// Every block handed out must stay valid while work queued before its free
// may still use it: the CUDA device runs all work on one stream, so a block
// freed and reused in stream order is never in use twice at once; the host
// runs nothing asynchronously.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_CORE_CACHINGALLOCATOR_H
#define TCC_RUNTIME_CORE_CACHINGALLOCATOR_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tcc {

/// Where blocks come from and go back to (device or host memory).
class RawAllocator {
public:
  virtual ~RawAllocator() = default;
  /// A block of exactly `bytes` (> 0) bytes; OutOfMemory when none is left.
  virtual Result<void *> rawAllocate(size_t bytes) = 0;
  /// Frees a block from rawAllocate.
  virtual void rawFree(void *ptr, size_t bytes) noexcept = 0;
};

/// What a caching allocator has done since it was created: its counters.
struct AllocatorStats {
  uint64_t requests = 0;     ///< allocate() calls that succeeded
  uint64_t allocations = 0;  ///< blocks taken from the backend
  uint64_t reuses = 0;       ///< requests served from a free list
  uint64_t frees = 0;        ///< blocks returned by deallocate()
  uint64_t backendFrees = 0; ///< blocks given back to the backend
  uint64_t overLimit = 0;    ///< of those: freed beyond the cache limit
  uint64_t retries = 0;      ///< backend failures retried after a trim
  size_t bytesInUse = 0;     ///< class bytes handed out and not freed
  size_t bytesCached = 0;    ///< class bytes in the free lists
  size_t peakBytes = 0;      ///< peak of bytesInUse + bytesCached
  size_t cacheLimit = 0;     ///< the bound on bytesCached
};

/// A thread-safe caching allocator over a RawAllocator.
class CachingAllocator {
public:
  /// Keeps at most `cacheLimit` bytes of freed blocks.
  explicit CachingAllocator(RawAllocator &backend, size_t cacheLimit = SIZE_MAX)
      : backend_(backend) {
    stats_.cacheLimit = cacheLimit;
  }
  /// Gives every cached block back; blocks still in use are leaked to the
  /// backend's owner (the device outlives the allocator).
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator &) = delete;
  CachingAllocator &operator=(const CachingAllocator &) = delete;

  /// The class size a request of `bytes` is served with (0: too large).
  static size_t sizeClass(size_t bytes);

  /// A block of at least `bytes` bytes (a zero-byte request gets a
  /// smallest-class block, so the pointer is unique). Served from the free
  /// list of its class when possible; otherwise from the backend, and when
  /// the backend is out of memory, after giving every cached block back.
  Result<void *> allocate(size_t bytes);
  /// Returns a block to its free list, or to the backend when the cache is
  /// full. InvalidArgument for a pointer that did not come from allocate()
  /// or was freed already (nothing changes).
  /// With `requested`, also says how many bytes the block was asked for.
  Status deallocate(void *ptr, size_t *requested = nullptr);
  /// Gives every cached (free) block back to the backend; returns the bytes
  /// released.
  size_t trim();
  /// Changes the bound on cached bytes; cached blocks beyond the new bound
  /// are given back at once.
  void setCacheLimit(size_t bytes);

  /// The class size of a live block, or 0 when `ptr` is not one.
  size_t blockSize(const void *ptr) const;
  AllocatorStats stats() const;

private:
  size_t trimLocked(size_t keep);

  RawAllocator &backend_;
  mutable std::mutex mutex_;
  std::map<size_t, std::vector<void *>> free_; ///< by class size
  /// A live block's class size, and the bytes that were asked for.
  struct LiveBlock {
    size_t size;
    size_t requested;
  };
  std::unordered_map<const void *, LiveBlock> live_;
  AllocatorStats stats_;
};

namespace cuda {
// The CUDA device's names for the same allocator.
using ::tcc::AllocatorStats;
using ::tcc::CachingAllocator;
using ::tcc::RawAllocator;
} // namespace cuda

} // namespace tcc

#endif // TCC_RUNTIME_CORE_CACHINGALLOCATOR_H
