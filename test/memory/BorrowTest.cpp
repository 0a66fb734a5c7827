//===- BorrowTest.cpp - In(x, borrow) and Out(y, borrow) ------------------===//

#include "MemoryTestUtil.h"

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kTwice = R"(tg 1
func twice(x : f32[N, M] borrow) -> (y : f32[N, M] borrow) {
  y = 2 * x
}
func twice_in(x : f32[N, M] borrow) -> (y : f32[N, M]) {
  y = 2 * x
}
func twice_out(x : f32[N, M]) -> (y : f32[N, M] borrow) {
  y = 2 * x
}
func twice_plain(x : f32[N, M]) -> (y : f32[N, M]) {
  y = 2 * x
}
func transpose_out(x : f32[N, N]) -> (y : f32[N, N] borrow) {
  y = transpose(x)
}
)";

std::vector<double> doubled(const std::vector<double> &v) {
  std::vector<double> out;
  for (double d : v)
    out.push_back(2 * d);
  return out;
}

} // namespace

TEST_CASE("In(x, borrow) with Out(y, borrow): y = 2*x runs in place",
          "[borrow]") {
  auto rt = loadGraph(kTwice);
  Function &f = fn(*rt, "twice");
  Array x = iota({4, 3});
  std::vector<double> before = values(x);
  CounterSnapshot start = rt->counters().snapshot();

  std::vector<Array> out = callOk(f, {x});
  REQUIRE(out.size() == 1);
  CHECK(addressOf(out[0]) == addressOf(x));
  CHECK(values(out[0]) == doubled(before));

  Delta d = rt->counters().snapshot() - start;
  CHECK(d.allocations == 0);
  CHECK(d.bytesAllocated == 0);
  CHECK(d.copies == 0);
  CHECK(d.bytesCopied == 0);
  CHECK(d.copiesAvoided == 1);
  CHECK(d.bytesCopyAvoided == int64_t(x.nbytes()));
  CHECK(d.liveManaged == 0);
  CHECK(d.calls == 1);
  // The function's own counters say the same and feed the runtime's.
  CounterSnapshot own = f.counters().snapshot();
  CHECK(own.allocations == 0);
  CHECK(own.copiesAvoided == 1);
  CHECK(own.calls == 1);
  // Nor does the compiled code allocate or copy anything.
  CHECK(f.spec().copies.empty());
  CompiledMemoryOps compiled = bufferizedOps(kTwice, "twice");
  CHECK(compiled.allocs == 0);
  CHECK(compiled.copies == 0);
}

TEST_CASE("In(x) not borrowed: x is bitwise unchanged, also where the graph "
          "could run in place",
          "[borrow]") {
  auto rt = loadGraph(kTwice);
  for (const char *name : {"twice_out", "twice_plain"}) {
    DYNAMIC_SECTION(name) {
      Function &f = fn(*rt, name);
      Array x = iota({5, 7}, 0.5f);
      Array kept = snapshot(x);
      std::vector<Array> out = callOk(f, {x});
      CHECK(x.bitwiseEqual(kept));
      CHECK(!out[0].overlaps(x));
      CHECK(values(out[0]) == doubled(values(kept)));
    }
  }
}

TEST_CASE("In(x, borrow) alone: the input may be used, the output is fresh",
          "[borrow]") {
  auto rt = loadGraph(kTwice);
  Function &f = fn(*rt, "twice_in");
  Array x = iota({2, 3});
  std::vector<double> before = values(x);
  CounterSnapshot start = rt->counters().snapshot();
  std::vector<Array> out = callOk(f, {x});
  CHECK(!out[0].overlaps(x));
  CHECK(values(out[0]) == doubled(before));
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.allocations == 1);
  CHECK(d.bytesAllocated == int64_t(x.nbytes()));
  CHECK(d.copies == 0);
}

TEST_CASE("Out(y, borrow): repeated calls return the same buffer and "
          "allocate only on the first",
          "[borrow][counters]") {
  auto rt = loadGraph(kTwice);
  Function &f = fn(*rt, "twice_out");
  Array a = iota({3, 4});
  Array b = iota({3, 4}, 3.0f);
  CounterSnapshot start = rt->counters().snapshot();

  Array y1 = callOk(f, {a})[0];
  Delta first = rt->counters().snapshot() - start;
  CHECK(first.allocations == 1);
  CHECK(first.bytesAllocated == int64_t(a.nbytes()));
  // The reusable buffer belongs to the managed space.
  CHECK(first.liveManaged == int64_t(a.nbytes()));
  CHECK(rt->counters().snapshot().peakManagedBytes >= a.nbytes());
  CHECK(values(y1) == doubled(values(a)));

  CounterSnapshot second = rt->counters().snapshot();
  for (int i = 0; i < 4; ++i) {
    Array y = callOk(f, {i % 2 ? a : b})[0];
    CHECK(addressOf(y) == addressOf(y1));
  }
  Delta d = rt->counters().snapshot() - second;
  CHECK(d.allocations == 0);
  CHECK(d.bytesAllocated == 0);
  CHECK(d.copies == 0);
  CHECK(d.copiesAvoided == 4);
  CHECK(d.liveManaged == 0);
  CHECK(d.calls == 4);
  // The old result was overwritten by later calls: that is what borrowing
  // the output allows.
  CHECK(values(y1) == doubled(values(a)));
  callOk(f, {b});
  CHECK(values(y1) == doubled(values(b)));
}

TEST_CASE("releaseKeptBuffers (PyTensor's free()): the next call gets a "
          "new buffer and no longer writes an earlier result",
          "[borrow][counters]") {
  auto rt = loadGraph(kTwice);
  Function &f = fn(*rt, "twice_out");
  Array a = iota({3, 4});
  Array b = iota({3, 4}, 3.0f);
  Array y1 = callOk(f, {a})[0];
  CounterSnapshot kept = rt->counters().snapshot();
  f.releaseKeptBuffers();
  // y1 still holds the buffer: it is not freed, only no longer the
  // function's.
  CHECK((rt->counters().snapshot() - kept).liveManaged == 0);
  Array y2 = callOk(f, {b})[0];
  CHECK(addressOf(y2) != addressOf(y1));
  CHECK(values(y1) == doubled(values(a)));
  CHECK(values(y2) == doubled(values(b)));
  // Once no array holds it, the released buffer's memory goes.
  CounterSnapshot before = rt->counters().snapshot();
  y1 = Array();
  CHECK((rt->counters().snapshot() - before).liveManaged ==
        -int64_t(a.nbytes()));
  // The new buffer is kept and reused again.
  Array y3 = callOk(f, {a})[0];
  CHECK(addressOf(y3) == addressOf(y2));
}

TEST_CASE("Out(y) not borrowed: a fresh buffer every call, never changed "
          "by later calls",
          "[borrow][counters]") {
  auto rt = loadGraph(kTwice);
  Function &f = fn(*rt, "twice_plain");
  Array a = iota({3, 4});
  Array b = iota({3, 4}, -1.0f);
  CounterSnapshot start = rt->counters().snapshot();
  Array y1 = callOk(f, {a})[0];
  Array kept = snapshot(y1);
  Array y2 = callOk(f, {b})[0];
  Array y3 = callOk(f, {a})[0];
  CHECK(!y1.overlaps(y2));
  CHECK(!y1.overlaps(y3));
  CHECK(!y2.overlaps(y3));
  CHECK(y1.bitwiseEqual(kept));
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.allocations == 3);
  CHECK(d.bytesAllocated == 3 * int64_t(a.nbytes()));
  CHECK(d.copiesAvoided == 0);
  // Fresh outputs are user space: nothing stays in the managed space.
  CHECK(d.liveManaged == 0);
}

TEST_CASE("Out(y, borrow) fed back as the next input never computes in "
          "its own input",
          "[borrow]") {
  // transpose reads elements that an in-place write would already have
  // overwritten; y = f(y) must still be exact. The runtime alternates
  // between two reusable buffers, so the loop allocates twice in total.
  auto rt = loadGraph(kTwice);
  Function &f = fn(*rt, "transpose_out");
  Array x = iota({4, 4});
  CounterSnapshot start = rt->counters().snapshot();
  Array y = x;
  for (int i = 0; i < 6; ++i) {
    Array next = callOk(f, {y})[0];
    CHECK(!next.overlaps(y));
    y = next;
    Array expected = i % 2 ? x : *x.transpose();
    CHECK(values(y) == values(expected));
  }
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.allocations == 2);
  CHECK(d.copiesAvoided == 4);
}

TEST_CASE("A borrowed output that a shared variable adopted is never "
          "overwritten by later calls",
          "[borrow]") {
  auto rt = loadGraph(R"(tg 1
shared s : f32[2, 2] = zeros
func twice_out(x : f32[2, 2]) -> (y : f32[2, 2] borrow) {
  y = 2 * x
}
)");
  Function &f = fn(*rt, "twice_out");
  SharedVariable &s = var(*rt, "s");
  Array y = callOk(f, {iota({2, 2})})[0];
  REQUIRE_OK(s.setValue(y, /*borrow=*/true));
  CHECK(addressOf(storage(s)) == addressOf(y)); // adopted, no copy
  Array y2 = callOk(f, {iota({2, 2}, 10.0f)})[0];
  CHECK(!y2.overlaps(storage(s)));
  CHECK(values(storage(s)) == std::vector<double>{0, 2, 4, 6});
  REQUIRE_OK(rt->shared().checkNoAliasing());
}
