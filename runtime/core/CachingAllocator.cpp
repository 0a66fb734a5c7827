//===- CachingAllocator.cpp - size-class free lists over a raw allocator -===//

#include "runtime/core/CachingAllocator.h"

#include <algorithm>

namespace tcc {
namespace {

constexpr size_t kMinClass = 512;
constexpr size_t kSmallLimit = size_t(1) << 20;   // 1 MiB
constexpr size_t kLargeGranule = size_t(2) << 20; // 2 MiB

} // namespace

CachingAllocator::~CachingAllocator() {
  std::lock_guard<std::mutex> lock(mutex_);
  trimLocked(0);
}

size_t CachingAllocator::sizeClass(size_t bytes) {
  if (bytes <= kMinClass)
    return kMinClass;
  if (bytes <= kSmallLimit) {
    size_t c = kMinClass;
    while (c < bytes)
      c <<= 1;
    return c;
  }
  if (bytes > SIZE_MAX - kLargeGranule)
    return 0; // cannot be rounded: refused by allocate()
  return (bytes + kLargeGranule - 1) / kLargeGranule * kLargeGranule;
}

Result<void *> CachingAllocator::allocate(size_t bytes) {
  size_t c = sizeClass(bytes);
  if (c == 0)
    return Status::error(ErrorCode::OutOfMemory, "allocation of " +
                                                     std::to_string(bytes) +
                                                     " bytes is too large");
  std::lock_guard<std::mutex> lock(mutex_);
  void *ptr = nullptr;
  auto it = free_.find(c);
  if (it != free_.end() && !it->second.empty()) {
    ptr = it->second.back();
    it->second.pop_back();
    stats_.bytesCached -= c;
    ++stats_.reuses;
  } else {
    Result<void *> fresh = backend_.rawAllocate(c);
    if (!fresh.ok() && fresh.status().code() == ErrorCode::OutOfMemory &&
        stats_.bytesCached > 0) {
      // Cached blocks of other classes may be what the backend lacks.
      trimLocked(0);
      ++stats_.retries;
      fresh = backend_.rawAllocate(c);
    }
    if (!fresh.ok())
      return fresh.status();
    ptr = fresh.value();
    ++stats_.allocations;
  }
  live_[ptr] = {c, bytes};
  ++stats_.requests;
  stats_.bytesInUse += c;
  stats_.peakBytes =
      std::max(stats_.peakBytes, stats_.bytesInUse + stats_.bytesCached);
  return ptr;
}

Status CachingAllocator::deallocate(void *ptr, size_t *requested) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(ptr);
  if (it == live_.end())
    return Status::error(ErrorCode::InvalidArgument,
                         "free of a pointer that is not a live allocation");
  size_t c = it->second.size;
  if (requested)
    *requested = it->second.requested;
  live_.erase(it);
  stats_.bytesInUse -= c;
  ++stats_.frees;
  if (c > stats_.cacheLimit || stats_.bytesCached > stats_.cacheLimit - c) {
    backend_.rawFree(ptr, c);
    ++stats_.backendFrees;
    ++stats_.overLimit;
    return Status::success();
  }
  free_[c].push_back(ptr);
  stats_.bytesCached += c;
  return Status::success();
}

size_t CachingAllocator::trim() {
  std::lock_guard<std::mutex> lock(mutex_);
  return trimLocked(0);
}

void CachingAllocator::setCacheLimit(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.cacheLimit = bytes;
  trimLocked(bytes);
}

size_t CachingAllocator::trimLocked(size_t keep) {
  // Largest classes first: they hold the most memory per block.
  size_t released = 0;
  for (auto it = free_.rbegin();
       it != free_.rend() && stats_.bytesCached - released > keep; ++it) {
    std::vector<void *> &blocks = it->second;
    while (!blocks.empty() && stats_.bytesCached - released > keep) {
      backend_.rawFree(blocks.back(), it->first);
      blocks.pop_back();
      released += it->first;
      ++stats_.backendFrees;
    }
  }
  stats_.bytesCached -= released;
  return released;
}

size_t CachingAllocator::blockSize(const void *ptr) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(ptr);
  return it == live_.end() ? 0 : it->second.size;
}

AllocatorStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

} // namespace tcc
