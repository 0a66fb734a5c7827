//===- HostMemory.h - the host's caching allocator -----------------------===//
//
// Every host Buffer (fresh outputs of calls, the runtime's copies, arrays a
// user creates) takes its memory from one process-wide CachingAllocator, so
// that memory a dropped array held is reused without page faults by the
// next array of its size class. Blocks of 2 MiB and more are mapped 2 MiB
// aligned and advised MADV_HUGEPAGE (as numpy does), so that the kernel may
// back them with transparent huge pages: 512 times fewer faults on first
// touch and fewer TLB misses after.
//
// The bound on cached bytes is TCC_HOST_CACHE_LIMIT (bytes, or with a K, M
// or G suffix; 0 turns caching off); by default a quarter of the machine's
// memory, at most 4 GiB.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_HOST_HOSTMEMORY_H
#define TCC_RUNTIME_HOST_HOSTMEMORY_H

#include "runtime/core/CachingAllocator.h"

#include <cstddef>
#include <optional>
#include <string>

namespace tcc {

/// Blocks of at least this size are mapped huge-page aligned and advised.
constexpr size_t kHugePageBytes = size_t(2) << 20;

/// The host's raw memory: 64-byte aligned heap blocks below kHugePageBytes,
/// 2 MiB aligned anonymous mappings with MADV_HUGEPAGE from there on.
class HostRawMemory final : public RawAllocator {
public:
  Result<void *> rawAllocate(size_t bytes) override;
  void rawFree(void *ptr, size_t bytes) noexcept override;
  /// Mappings for which madvise(MADV_HUGEPAGE) succeeded.
  uint64_t hugePageAdvised() const;
};

/// The process-wide host allocator (never destroyed).
CachingAllocator &hostAllocator();
/// Its counters.
AllocatorStats hostAllocatorStats();
/// Gives every cached host block back to the system; returns the bytes.
size_t trimHostCache();
/// Host mappings advised MADV_HUGEPAGE so far.
uint64_t hostHugePageAdvised();

/// The value of a TCC_HOST_CACHE_LIMIT-style size: digits with an optional
/// K, M or G suffix (powers of 1024); nullopt when malformed or too large.
std::optional<size_t> parseByteSize(const std::string &text);
/// The bound the host cache starts with: TCC_HOST_CACHE_LIMIT when it is
/// well-formed, otherwise the default (see above).
size_t hostCacheLimitFromEnvironment();
/// InvalidArgument (RT-090) when TCC_HOST_CACHE_LIMIT is set but malformed.
Status checkHostCacheLimitVariable();

} // namespace tcc

#endif // TCC_RUNTIME_HOST_HOSTMEMORY_H
