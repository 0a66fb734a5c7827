// The host caching allocator (runtime/host/HostMemory.h): reuse, the bound,
// trim, counters, alignment, and the huge-page advice of large blocks.
#include "runtime/host/HostMemory.h"
#include "test/runtime/TestUtil.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace tcc;

namespace {

/// Whether the kernel may give transparent huge pages to a mapping that
/// asks for them (`[always]` or `[madvise]`).
bool hugePagesOnRequest() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  return mode.find("[always]") != std::string::npos ||
         mode.find("[madvise]") != std::string::npos;
}

/// The "THPeligible:" value of the mapping that holds `p` in
/// /proc/self/smaps, or -1 when the kernel does not say.
int thpEligible(const void *p) {
  std::ifstream in("/proc/self/smaps");
  auto address = reinterpret_cast<uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    unsigned long lo, hi;
    char dash;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= address && address < hi;
      continue;
    }
    if (inside && line.rfind("THPeligible:", 0) == 0)
      return std::atoi(line.c_str() + 12);
  }
  return -1;
}

/// Restores an environment variable at scope exit.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old, had_ = true;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::string old_;
  bool had_ = false;
};

} // namespace

TEST_CASE("A dropped host array's memory serves the next array of its class",
          "[hostalloc]") {
  AllocatorStats before = hostAllocatorStats();
  const void *first;
  {
    Array a = Array::empty(DType::F32, {1000}).value(); // 4000 -> 4096 class
    first = a.data();
  }
  Array b = Array::empty(DType::F32, {1024}).value(); // same class
  CHECK(b.data() == first);
  AllocatorStats after = hostAllocatorStats();
  CHECK(after.requests - before.requests == 2);
  CHECK(after.reuses - before.reuses >= 1);
  // A live array is never handed out twice: a second one is elsewhere.
  Array c = Array::empty(DType::F32, {1024}).value();
  CHECK(c.data() != b.data());
}

TEST_CASE("Host blocks are 64-byte aligned, large ones 2 MiB aligned",
          "[hostalloc]") {
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(1000), int64_t(300000),
                    int64_t(1) << 20, (int64_t(3) << 20) + 5}) {
    Array a = Array::empty(DType::I1, {n}).value(); // one byte each
    auto address = reinterpret_cast<uintptr_t>(a.data());
    INFO(n);
    CHECK(address % 64 == 0);
    if (CachingAllocator::sizeClass(size_t(n)) >= kHugePageBytes)
      CHECK(address % kHugePageBytes == 0);
  }
}

TEST_CASE("The bound: blocks freed beyond the cache limit go back at once",
          "[hostalloc]") {
  HostRawMemory memory;
  CachingAllocator allocator(memory, /*cacheLimit=*/8192);
  void *a = allocator.allocate(4096).value();
  void *b = allocator.allocate(4096).value();
  void *c = allocator.allocate(4096).value();
  void *big = allocator.allocate(10000).value(); // 16 KiB class > limit
  REQUIRE(allocator.deallocate(a).ok());
  REQUIRE(allocator.deallocate(b).ok());
  REQUIRE(allocator.deallocate(c).ok());   // the cache is full
  REQUIRE(allocator.deallocate(big).ok()); // larger than the limit
  AllocatorStats s = allocator.stats();
  CHECK(s.bytesCached == 8192);
  CHECK(s.overLimit == 2);
  CHECK(s.backendFrees == 2);
  CHECK(s.cacheLimit == 8192);
  // Lowering the bound gives back what is over it.
  allocator.setCacheLimit(4096);
  CHECK(allocator.stats().bytesCached == 4096);
  allocator.setCacheLimit(0);
  CHECK(allocator.stats().bytesCached == 0);
  void *d = allocator.allocate(100).value();
  REQUIRE(allocator.deallocate(d).ok()); // limit 0: nothing is kept
  CHECK(allocator.stats().bytesCached == 0);
}

TEST_CASE("trimHostCache gives every cached host block back", "[hostalloc]") {
  { Array a = Array::empty(DType::F32, {5000}).value(); }
  CHECK(hostAllocatorStats().bytesCached > 0);
  CHECK(trimHostCache() > 0);
  CHECK(hostAllocatorStats().bytesCached == 0);
  CHECK(trimHostCache() == 0);
}

TEST_CASE("Large host blocks are advised MADV_HUGEPAGE", "[hostalloc]") {
  HostRawMemory memory;
  uint64_t before = memory.hugePageAdvised();
  void *small = memory.rawAllocate(4096).value();
  CHECK(memory.hugePageAdvised() == before); // small blocks: plain heap
  void *p = memory.rawAllocate(size_t(4) << 20).value();
  CHECK(reinterpret_cast<uintptr_t>(p) % kHugePageBytes == 0);
  static_cast<char *>(p)[0] = 1; // the mapping is usable
  static_cast<char *>(p)[(size_t(4) << 20) - 1] = 2;
  if (hugePagesOnRequest()) {
    CHECK(memory.hugePageAdvised() == before + 1);
    int eligible = thpEligible(p);
    if (eligible >= 0)
      CHECK(eligible == 1);
  } else {
    WARN("transparent huge pages are off here: only the alignment is checked");
  }
  memory.rawFree(p, size_t(4) << 20);
  memory.rawFree(small, 4096);
}

TEST_CASE("TCC_HOST_CACHE_LIMIT: bytes or K/M/G, and a malformed value is "
          "an error",
          "[hostalloc]") {
  CHECK(parseByteSize("0") == size_t(0));
  CHECK(parseByteSize("4096") == size_t(4096));
  CHECK(parseByteSize("12k") == size_t(12) << 10);
  CHECK(parseByteSize("64M") == size_t(64) << 20);
  CHECK(parseByteSize("2G") == size_t(2) << 30);
  CHECK(!parseByteSize(""));
  CHECK(!parseByteSize("M"));
  CHECK(!parseByteSize("-1"));
  CHECK(!parseByteSize("5MB"));
  CHECK(!parseByteSize("1T"));
  CHECK(!parseByteSize("99999999999999999999"));
  CHECK(!parseByteSize("17179869184G")); // 2^64 bytes
  {
    ScopedEnv env("TCC_HOST_CACHE_LIMIT", "64M");
    CHECK(hostCacheLimitFromEnvironment() == size_t(64) << 20);
    CHECK(checkHostCacheLimitVariable().ok());
  }
  {
    ScopedEnv env("TCC_HOST_CACHE_LIMIT", "lots");
    Status s = checkHostCacheLimitVariable();
    CHECK(s.code() == ErrorCode::InvalidArgument);
    CHECK(s.message() ==
          "TCC_HOST_CACHE_LIMIT='lots' is not a size: write bytes, or a "
          "number with a K, M or G suffix");
    // The allocator itself falls back to the default bound.
    CHECK(hostCacheLimitFromEnvironment() > 0);
    // Loading a program reports it before anything is created.
    Runtime runtime;
    auto program = std::make_shared<Program>();
    Status load = runtime.load(program);
    CHECK(load.code() == ErrorCode::InvalidArgument);
    CHECK(load.message().find("TCC_HOST_CACHE_LIMIT='lots'") !=
          std::string::npos);
  }
}
