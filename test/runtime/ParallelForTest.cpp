//===- ParallelForTest.cpp - the kernels' thread pool ---------------------===//
//
// tcc_parallel_for must run every iteration of [0, n) exactly once, whatever
// n, however many threads, when host threads call it at once, and when a
// loop body calls it again (the inner call then runs on its own thread).
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

extern "C" {
int tcc_parallel_threads();
void tcc_parallel_for(void (*body)(void *, int64_t, int64_t), void *context,
                      int64_t n);
}

namespace {

/// Catch2's assertions are not thread-safe: the bodies only count.
struct Counts {
  std::vector<std::atomic<int>> hits;
  std::atomic<int> emptyChunks{0};
  explicit Counts(int64_t n) : hits(n) {}
};

void countRange(void *context, int64_t lo, int64_t hi) {
  auto *counts = static_cast<Counts *>(context);
  if (lo >= hi)
    counts->emptyChunks.fetch_add(1);
  for (int64_t i = lo; i < hi; ++i)
    counts->hits[i].fetch_add(1, std::memory_order_relaxed);
}

bool eachOnce(const Counts &counts) {
  for (const std::atomic<int> &h : counts.hits)
    if (h.load() != 1)
      return false;
  return counts.emptyChunks.load() == 0;
}

void nested(void *context, int64_t lo, int64_t hi) {
  auto *counts = static_cast<Counts *>(context);
  for (int64_t i = lo; i < hi; ++i) {
    Counts inner(5);
    tcc_parallel_for(countRange, &inner, 5);
    if (eachOnce(inner))
      counts->hits[i].fetch_add(1, std::memory_order_relaxed);
  }
}

} // namespace

TEST_CASE("tcc_parallel_for runs each iteration once", "[parallel]") {
  REQUIRE(tcc_parallel_threads() >= 1);
  for (int64_t n : {0, 1, 2, 3, 7, 64, 1000, 100003}) {
    INFO("n = " << n);
    Counts counts(n);
    tcc_parallel_for(countRange, &counts, n);
    CHECK(eachOnce(counts));
  }
}

TEST_CASE("tcc_parallel_for from several host threads and nested",
          "[parallel]") {
  std::vector<std::thread> callers;
  std::atomic<int> good{0};
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int round = 0; round < 200; ++round) {
        Counts counts(997);
        tcc_parallel_for(countRange, &counts, 997);
        if (eachOnce(counts))
          good.fetch_add(1);
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  CHECK(good.load() == 4 * 200);

  Counts outer(40);
  tcc_parallel_for(nested, &outer, 40);
  CHECK(eachOnce(outer));
}

// Run by ctest with TCC_NUM_THREADS=3 (test/runtime/CMakeLists.txt).
TEST_CASE("TCC_NUM_THREADS sets the thread count", "[.parallel-env]") {
  const char *env = std::getenv("TCC_NUM_THREADS");
  REQUIRE(env);
  CHECK(tcc_parallel_threads() == std::atoi(env));
  Counts counts(12345);
  tcc_parallel_for(countRange, &counts, 12345);
  CHECK(eachOnce(counts));
}
