//===- TemporariesTest.cpp - counters see the compiled code's temporaries -===//
//
// `y = matmul(a, b) + transpose(matmul(b, a))` on f32[8, 8] allocates two
// 256 B temporaries in the compiled code (the second product and its
// transpose; `tcc explain` lists them; the first product is computed in the
// output, and the sum runs over it in place). `inplace` computes its output
// in the borrowed a, which the products read: both are temporaries. The
// counters count them as managed allocations live for the call, and each call's
// footprint as run and without in-place computation.
//
//===----------------------------------------------------------------------===//

#include "MemoryTestUtil.h"

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kSource = R"(tg 1
func fresh(a : f32[N, N], b : f32[N, N]) -> (y : f32[N, N]) {
  y = matmul(a, b) + transpose(matmul(b, a))
}
func reused(a : f32[N, N], b : f32[N, N]) -> (y : f32[N, N] borrow) {
  y = matmul(a, b) + transpose(matmul(b, a))
}
func inplace(a : f32[N, N] borrow, b : f32[N, N]) -> (y : f32[N, N] borrow) {
  y = matmul(a, b) + matmul(b, a)
}
)";

constexpr uint64_t kMatrix = 8 * 8 * 4;

} // namespace

TEST_CASE("Temporaries of compiled code count in allocated, live and peak "
          "bytes",
          "[counters]") {
  REQUIRE(bufferizedOps(kSource, "fresh").allocs == 2);
  auto rt = loadGraph(kSource);
  Function &f = fn(*rt, "fresh");
  std::vector<Array> y = callOk(f, {iota({8, 8}), iota({8, 8}, 0.5f)});
  for (const CounterSnapshot &s :
       {f.counters().snapshot(), rt->counters().snapshot()}) {
    // The output (user space) and the two temporaries.
    CHECK(s.allocations == 3);
    CHECK(s.bytesAllocated == 3 * kMatrix);
    CHECK(s.temporaries == 2);
    CHECK(s.bytesTemporaries == 2 * kMatrix);
    // Freed when the call returns; both were live at once.
    CHECK(s.liveManagedBytes == 0);
    CHECK(s.peakManagedBytes == 2 * kMatrix);
    CHECK(s.peakCallBytes == 3 * kMatrix);
    CHECK(s.peakCallBytesWithoutInPlace == 3 * kMatrix);
  }
  // Per call: a second call adds the same again, the peaks stay.
  callOk(f, {iota({8, 8}), iota({8, 8})});
  CounterSnapshot s = f.counters().snapshot();
  CHECK(s.allocations == 6);
  CHECK(s.bytesTemporaries == 4 * kMatrix);
  CHECK(s.peakManagedBytes == 2 * kMatrix);
  CHECK(s.peakCallBytes == 3 * kMatrix);
  // Sized from the call's own inputs: N = 16 makes them 4 times larger.
  callOk(f, {iota({16, 16}), iota({16, 16})});
  s = f.counters().snapshot();
  CHECK(s.bytesTemporaries == 4 * kMatrix + 8 * kMatrix);
  CHECK(s.peakManagedBytes == 8 * kMatrix);
  CHECK(s.peakCallBytes == 12 * kMatrix);
  // reset() restarts the call peaks too.
  f.counters().reset();
  s = f.counters().snapshot();
  CHECK(s.temporaries == 0);
  CHECK(s.peakManagedBytes == 0);
  CHECK(s.peakCallBytes == 0);
  CHECK(s.peakCallBytesWithoutInPlace == 0);
}

TEST_CASE("The call peak without in-place adds what borrowing avoided",
          "[counters]") {
  auto rt = loadGraph(kSource);
  SECTION("a borrowed output buffer reused from call to call") {
    Function &f = fn(*rt, "reused");
    callOk(f, {iota({8, 8}), iota({8, 8})});
    CounterSnapshot s = f.counters().snapshot();
    // First call: the reusable buffer (managed, kept) and the temporaries.
    CHECK(s.peakManagedBytes == 3 * kMatrix);
    CHECK(s.liveManagedBytes == kMatrix);
    CHECK(s.peakCallBytes == 3 * kMatrix);
    CHECK(s.peakCallBytesWithoutInPlace == 3 * kMatrix);
    f.counters().reset();
    // Later calls allocate only the temporaries; without the reuse they
    // would need a fresh output too.
    callOk(f, {iota({8, 8}), iota({8, 8})});
    s = f.counters().snapshot();
    CHECK(s.bytesAllocated == 2 * kMatrix);
    CHECK(s.peakManagedBytes == 3 * kMatrix);
    CHECK(s.peakCallBytes == 2 * kMatrix);
    CHECK(s.peakCallBytesWithoutInPlace == 3 * kMatrix);
  }
  SECTION("an output computed in a borrowed input") {
    Function &f = fn(*rt, "inplace");
    Array a = iota({8, 8});
    std::vector<Array> y = callOk(f, {a, iota({8, 8})});
    CHECK(addressOf(y[0]) == addressOf(a));
    CounterSnapshot s = f.counters().snapshot();
    CHECK(s.allocations == 2);
    CHECK(s.bytesAllocated == 2 * kMatrix);
    CHECK(s.peakManagedBytes == 2 * kMatrix);
    CHECK(s.peakCallBytes == 2 * kMatrix);
    CHECK(s.peakCallBytesWithoutInPlace == 3 * kMatrix);
  }
}

TEST_CASE("A call that fails counts no temporaries", "[counters]") {
  auto rt = loadGraph(kSource);
  Function &f = fn(*rt, "fresh");
  CHECK_FALSE(f.call({iota({8, 8}), iota({4, 4})}).ok());
  CounterSnapshot s = f.counters().snapshot();
  CHECK(s.allocations == 0);
  CHECK(s.temporaries == 0);
  CHECK(s.peakManagedBytes == 0);
  CHECK(s.peakCallBytes == 0);
}
