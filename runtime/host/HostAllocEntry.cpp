//===- HostAllocEntry.cpp - the host allocator for compiled code ----------===//
//
// Compiled host code allocates its temporaries through
// `_mlir_memref_to_llvm_alloc`, which the kernels library provides
// (runtime/kernels/MemrefAlloc.cpp). The kernels library finds these two
// entry points in the process by name, so that the temporaries of a call
// come from the same caching allocator as every host array: a repeat call
// reuses the blocks its previous call freed instead of faulting in fresh
// pages. Plain C ABI, exported from libtcc_runtime.so.
//
//===----------------------------------------------------------------------===//

#include "runtime/host/HostMemory.h"
#include "runtime/host/TemporaryMeter.h"

#include <cstdlib>

extern "C" {

/// A block of `bytes` from the host caching allocator (64-byte aligned,
/// 2 MiB aligned from 2 MiB on), or null when none can be had.
__attribute__((visibility("default"))) void *tcc_host_alloc(size_t bytes) {
  tcc::Result<void *> block = tcc::hostAllocator().allocate(bytes);
  if (!block.ok())
    return nullptr;
  // A call's meter counts what its code asked for, as the counters count
  // every other allocation.
  if (tcc::TemporaryMeter *meter = tcc::currentTemporaryMeter())
    meter->allocated(bytes);
  return block.value();
}

/// Returns a block of tcc_host_alloc to the cache. A pointer the allocator
/// did not hand out came from the C library (an alignment above 64 bytes):
/// it goes back there.
__attribute__((visibility("default"))) void tcc_host_free(void *ptr) {
  if (!ptr)
    return;
  size_t size = 0;
  if (!tcc::hostAllocator().deallocate(ptr, &size).ok())
    std::free(ptr);
  else if (tcc::TemporaryMeter *meter = tcc::currentTemporaryMeter())
    meter->freed(size);
}

} // extern "C"
