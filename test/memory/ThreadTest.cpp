//===- ThreadTest.cpp - concurrent calls on shared variables --------------===//

#include "MemoryTestUtil.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>

using namespace tcc;
using namespace tcc::test;

TEST_CASE("Four threads training and reading the same shared variables: no "
          "corruption, no deadlock",
          "[threads]") {
  // Integer-valued floats keep every sum exact, so the final value must
  // equal the sequential sum whatever the interleaving; `b == 2 * a` holds
  // after every call, so a read that sees it broken saw half an update.
  auto rt = loadGraph(R"(tg 1
shared a : f32[256] = zeros
shared b : f32[256] = zeros
shared count : f32[] = zeros
func step(inc : f32[256] borrow) -> () {
  updates {
    a = a + inc
    b = b + 2 * inc
    count = count + 1
  }
}
func step_reversed(inc : f32[256]) -> (old : f32[] borrow) {
  old = count
  updates {
    count = count + 1
    b = b + 2 * inc
    a = a + inc
  }
}
func read() -> (va : f32[256], vb : f32[256]) {
  va = a
  vb = b
}
)");
  Function &step = fn(*rt, "step");
  Function &stepReversed = fn(*rt, "step_reversed");
  Function &read = fn(*rt, "read");
  constexpr int kCalls = 2000;
  std::atomic<int> torn{0}, failures{0};
  auto trainer = [&](Function &f, float by) {
    Array inc = *Array::full(DType::F32, {256}, by);
    for (int i = 0; i < kCalls; ++i) {
      if (&f == &step) // donated each call: refill
        inc = *Array::full(DType::F32, {256}, by);
      failures += !f.call({inc}).ok();
    }
  };
  auto reader = [&] {
    for (int i = 0; i < kCalls; ++i) {
      Result<std::vector<Array>> r = read.call();
      if (!r.ok()) {
        ++failures;
        continue;
      }
      std::vector<double> va = values((*r)[0]), vb = values((*r)[1]);
      for (size_t k = 0; k < va.size(); ++k)
        torn += vb[k] != 2 * va[k];
    }
  };
  auto start = std::chrono::steady_clock::now();
  std::vector<std::future<void>> threads;
  threads.push_back(
      std::async(std::launch::async, trainer, std::ref(step), 1.0f));
  threads.push_back(
      std::async(std::launch::async, trainer, std::ref(stepReversed), 3.0f));
  threads.push_back(std::async(std::launch::async, reader));
  threads.push_back(std::async(std::launch::async, reader));
  for (auto &t : threads)
    if (t.wait_until(start + std::chrono::seconds(60)) !=
        std::future_status::ready) {
      // The threads cannot be joined: report and leave at once.
      std::fprintf(stderr, "deadlock: threads still running after 60 s\n");
      std::_Exit(1);
    }
  CHECK(failures == 0);
  CHECK(torn == 0);
  std::vector<double> a = values(storage(var(*rt, "a")));
  std::vector<double> b = values(storage(var(*rt, "b")));
  double expected = kCalls * (1.0 + 3.0);
  for (size_t k = 0; k < a.size(); ++k) {
    REQUIRE(a[k] == expected);
    REQUIRE(b[k] == 2 * expected);
  }
  CHECK(values(storage(var(*rt, "count")))[0] == 2 * kCalls);
  CHECK(rt->counters().snapshot().calls == 4 * kCalls);
  REQUIRE_OK(rt->shared().checkNoAliasing());
}
