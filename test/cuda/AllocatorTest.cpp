// The caching allocator's logic, over host memory (no GPU needed).
#include "runtime/core/CachingAllocator.h"
#include "test/runtime/TestUtil.h"

#include <cstdlib>
#include <set>

using namespace tcc;
using namespace tcc::cuda;

namespace {

/// Host memory with a budget, counting what it is asked for.
class HostBackend : public RawAllocator {
public:
  explicit HostBackend(size_t budget = SIZE_MAX) : budget_(budget) {}
  Result<void *> rawAllocate(size_t bytes) override {
    ++allocations;
    if (bytes > budget_ - used_)
      return Status::error(ErrorCode::OutOfMemory, "test budget exhausted");
    used_ += bytes;
    return std::malloc(bytes);
  }
  void rawFree(void *ptr, size_t bytes) noexcept override {
    ++frees;
    used_ -= bytes;
    std::free(ptr);
  }
  size_t used() const { return used_; }
  int allocations = 0, frees = 0;

private:
  size_t budget_, used_ = 0;
};

} // namespace

TEST_CASE("Size classes: powers of two up to 1 MiB, then 2 MiB multiples",
          "[allocator]") {
  CHECK(CachingAllocator::sizeClass(0) == 512);
  CHECK(CachingAllocator::sizeClass(1) == 512);
  CHECK(CachingAllocator::sizeClass(512) == 512);
  CHECK(CachingAllocator::sizeClass(513) == 1024);
  CHECK(CachingAllocator::sizeClass(4000) == 4096);
  CHECK(CachingAllocator::sizeClass(size_t(1) << 20) == size_t(1) << 20);
  CHECK(CachingAllocator::sizeClass((size_t(1) << 20) + 1) == size_t(2) << 20);
  CHECK(CachingAllocator::sizeClass((size_t(5) << 20) + 7) == size_t(6) << 20);
  CHECK(CachingAllocator::sizeClass(SIZE_MAX) == 0); // cannot be served
}

TEST_CASE("A freed block is reused for a request of the same class",
          "[allocator]") {
  HostBackend backend;
  CachingAllocator allocator(backend);
  void *a = allocator.allocate(1000).value();
  REQUIRE_OK(allocator.deallocate(a));
  void *b = allocator.allocate(1024).value(); // same class (1024)
  CHECK(b == a);
  void *c = allocator.allocate(3000).value(); // another class: new block
  CHECK(c != a);
  AllocatorStats s = allocator.stats();
  CHECK(s.requests == 3);
  CHECK(s.allocations == 2);
  CHECK(s.reuses == 1);
  CHECK(s.bytesInUse == 1024 + 4096);
  CHECK(s.bytesCached == 0);
  CHECK(backend.allocations == 2);
  REQUIRE_OK(allocator.deallocate(b));
  REQUIRE_OK(allocator.deallocate(c));
}

TEST_CASE("Live blocks are distinct, and zero-byte requests get one too",
          "[allocator]") {
  HostBackend backend;
  CachingAllocator allocator(backend);
  std::set<void *> seen;
  for (int i = 0; i < 8; ++i)
    CHECK(seen.insert(allocator.allocate(i % 2 ? 0 : 100).value()).second);
  CHECK(allocator.stats().allocations == 8);
  for (void *p : seen)
    CHECK(allocator.blockSize(p) == 512);
  for (void *p : seen)
    REQUIRE_OK(allocator.deallocate(p));
}

TEST_CASE("Freeing an unknown or already freed pointer is an error and "
          "changes nothing",
          "[allocator]") {
  HostBackend backend;
  CachingAllocator allocator(backend);
  void *a = allocator.allocate(64).value();
  REQUIRE_OK(allocator.deallocate(a));
  Status twice = allocator.deallocate(a);
  CHECK(twice.code() == ErrorCode::InvalidArgument);
  int local = 0;
  CHECK(!allocator.deallocate(&local).ok());
  AllocatorStats s = allocator.stats();
  CHECK(s.frees == 1);
  CHECK(s.bytesCached == 512);
  // The block is in the free list once: two requests get two blocks.
  void *x = allocator.allocate(64).value();
  void *y = allocator.allocate(64).value();
  CHECK(x != y);
  REQUIRE_OK(allocator.deallocate(x));
  REQUIRE_OK(allocator.deallocate(y));
}

TEST_CASE("trim gives the cached blocks back; live blocks stay",
          "[allocator]") {
  HostBackend backend;
  CachingAllocator allocator(backend);
  void *a = allocator.allocate(3 << 20).value(); // 4 MiB class
  void *b = allocator.allocate(100).value();
  REQUIRE_OK(allocator.deallocate(a));
  CHECK(backend.used() == (size_t(4) << 20) + 512);
  CHECK(allocator.trim() == size_t(4) << 20);
  CHECK(backend.used() == 512);
  CHECK(backend.frees == 1);
  AllocatorStats s = allocator.stats();
  CHECK(s.bytesCached == 0);
  CHECK(s.bytesInUse == 512);
  CHECK(s.backendFrees == 1);
  CHECK(allocator.blockSize(b) == 512);
  REQUIRE_OK(allocator.deallocate(b));
}

TEST_CASE("Out of memory: cached blocks are given back and the request "
          "retried once",
          "[allocator]") {
  HostBackend backend(size_t(6) << 20); // room for one 4 MiB block
  CachingAllocator allocator(backend);
  void *a = allocator.allocate(3 << 20).value(); // 4 MiB class, cached next
  REQUIRE_OK(allocator.deallocate(a));
  // A 6 MiB request does not fit beside the cached 4 MiB block.
  Result<void *> big = allocator.allocate(5 << 20);
  REQUIRE_OK(big);
  AllocatorStats s = allocator.stats();
  CHECK(s.retries == 1);
  CHECK(s.backendFrees == 1);
  CHECK(s.bytesCached == 0);
  // Nothing is left to trim: the error comes back, nothing changes.
  Result<void *> tooBig = allocator.allocate(1 << 20);
  CHECK(tooBig.status().code() == ErrorCode::OutOfMemory);
  CHECK(allocator.stats().bytesInUse == size_t(6) << 20);
  REQUIRE_OK(allocator.deallocate(big.value()));
}

TEST_CASE("The destructor gives cached blocks back", "[allocator]") {
  HostBackend backend;
  {
    CachingAllocator allocator(backend);
    void *a = allocator.allocate(10).value();
    void *b = allocator.allocate(5000).value();
    REQUIRE_OK(allocator.deallocate(a));
    REQUIRE_OK(allocator.deallocate(b));
  }
  CHECK(backend.used() == 0);
  CHECK(backend.frees == 2);
}

TEST_CASE("peakBytes follows in-use plus cached bytes", "[allocator]") {
  HostBackend backend;
  CachingAllocator allocator(backend);
  void *a = allocator.allocate(512).value();
  void *b = allocator.allocate(1024).value();
  REQUIRE_OK(allocator.deallocate(a));
  REQUIRE_OK(allocator.deallocate(b));
  void *c = allocator.allocate(512).value(); // reuse: no new peak
  CHECK(allocator.stats().peakBytes == 1536);
  REQUIRE_OK(allocator.deallocate(c));
}
