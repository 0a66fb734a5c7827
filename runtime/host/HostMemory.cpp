//===- HostMemory.cpp - the host's caching allocator ---------------------===//

#include "runtime/host/HostMemory.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

namespace tcc {
namespace {

constexpr size_t kAlignment = 64;
std::atomic<uint64_t> hugePageAdvice{0};

/// "host allocation of N bytes failed".
Status allocationFailed(size_t bytes) {
  return Status::error(ErrorCode::OutOfMemory, "host allocation of " +
                                                   std::to_string(bytes) +
                                                   " bytes failed");
}

} // namespace

Result<void *> HostRawMemory::rawAllocate(size_t bytes) {
  if (bytes < kHugePageBytes) {
    size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    void *p = std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment);
    if (!p)
      return allocationFailed(bytes);
    return p;
  }
  // Map one huge page more than asked and cut the unaligned ends off: the
  // kernel backs a range with huge pages only where it is 2 MiB aligned.
  size_t rounded =
      (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (rounded < bytes || rounded > SIZE_MAX - kHugePageBytes)
    return allocationFailed(bytes);
  size_t span = rounded + kHugePageBytes;
  void *raw = mmap(nullptr, span, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    return allocationFailed(bytes);
  auto begin = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (begin + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  if (aligned > begin)
    munmap(raw, aligned - begin);
  uintptr_t tail = aligned + rounded, end = begin + span;
  if (end > tail)
    munmap(reinterpret_cast<void *>(tail), end - tail);
  void *p = reinterpret_cast<void *>(aligned);
  // Advice only: a kernel without transparent huge pages refuses it, and
  // the mapping works with small pages.
  if (madvise(p, rounded, MADV_HUGEPAGE) == 0)
    hugePageAdvice.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void HostRawMemory::rawFree(void *ptr, size_t bytes) noexcept {
  if (bytes < kHugePageBytes) {
    std::free(ptr);
    return;
  }
  size_t rounded =
      (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  munmap(ptr, rounded);
}

uint64_t HostRawMemory::hugePageAdvised() const {
  return hugePageAdvice.load(std::memory_order_relaxed);
}

std::optional<size_t> parseByteSize(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  size_t i = 0, value = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (__builtin_mul_overflow(value, size_t(10), &value) ||
        __builtin_add_overflow(value, size_t(text[i] - '0'), &value))
      return std::nullopt;
  }
  if (i == 0)
    return std::nullopt;
  if (i == text.size())
    return value;
  if (i + 1 != text.size())
    return std::nullopt;
  int shift = 0;
  switch (text[i]) {
  case 'K':
  case 'k':
    shift = 10;
    break;
  case 'M':
  case 'm':
    shift = 20;
    break;
  case 'G':
  case 'g':
    shift = 30;
    break;
  default:
    return std::nullopt;
  }
  if (value > (SIZE_MAX >> shift))
    return std::nullopt;
  return value << shift;
}

size_t hostCacheLimitFromEnvironment() {
  if (const char *text = std::getenv("TCC_HOST_CACHE_LIMIT"))
    if (std::optional<size_t> limit = parseByteSize(text))
      return *limit;
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  size_t quarter = pages > 0 && pageSize > 0
                       ? size_t(pages) / 4 * size_t(pageSize)
                       : size_t(1) << 30;
  return std::min(quarter, size_t(4) << 30);
}

Status checkHostCacheLimitVariable() {
  const char *text = std::getenv("TCC_HOST_CACHE_LIMIT");
  if (!text || parseByteSize(text))
    return Status::success();
  return Status::error(ErrorCode::InvalidArgument,
                       "TCC_HOST_CACHE_LIMIT='" + std::string(text) +
                           "' is not a size: write bytes, or a number with "
                           "a K, M or G suffix");
}

CachingAllocator &hostAllocator() {
  // Never destroyed: arrays may be released after static destructors ran.
  static HostRawMemory *memory = new HostRawMemory();
  static CachingAllocator *allocator =
      new CachingAllocator(*memory, hostCacheLimitFromEnvironment());
  return *allocator;
}

AllocatorStats hostAllocatorStats() { return hostAllocator().stats(); }

size_t trimHostCache() { return hostAllocator().trim(); }

uint64_t hostHugePageAdvised() {
  return hugePageAdvice.load(std::memory_order_relaxed);
}

} // namespace tcc
