//===- OverlapTest.cpp - overlapping and non-contiguous inputs ------------===//

#include "MemoryTestUtil.h"

using namespace tcc;
using namespace tcc::test;

namespace {

// z is computed in r's buffer (both borrowed); s reads all of A.
const char *kRow = R"(tg 1
func scale_row(A : f32[4, 4], r : f32[4] borrow)
    -> (s : f32[4], z : f32[4] borrow) {
  s = sum(A, axis=0)
  z = r * 3
}
func scale_row_donating(A : f32[4, 4] borrow, r : f32[4])
    -> (B : f32[4, 4] borrow, s : f32[4]) {
  B = transpose(A) * 2
  s = r + 1
}
)";

} // namespace

TEST_CASE("A borrowed input overlapping another input is detected by "
          "address and copied",
          "[overlap][counters]") {
  auto rt = loadGraph(kRow);
  Function &f = fn(*rt, "scale_row");
  // Reference: the same values in separate memory.
  Array A = iota({4, 4});
  Array row = snapshot(*A.slice(0, 2, 3));
  Array rowFlat = *row.reshape({4});
  std::vector<Array> reference = callOk(f, {snapshot(A), rowFlat});

  Array kept = snapshot(A);
  Array view = *(*A.slice(0, 2, 3)).reshape({4}); // a row of A, no copy
  REQUIRE(view.overlaps(A));
  CounterSnapshot start = rt->counters().snapshot();
  std::vector<Array> out = callOk(f, {A, view});
  CHECK(values(out[0]) == values(reference[0]));
  CHECK(values(out[1]) == values(reference[1]));
  // A is not borrowed: unchanged, although its row was lent as workspace.
  CHECK(A.bitwiseEqual(kept));
  CHECK(!out[1].overlaps(A));
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.copies == 1);
  CHECK(d.bytesCopied == int64_t(view.nbytes()));
  // The copy is a temporary of the call in the managed space; here it
  // lives on as the borrowed output computed in it.
  CHECK(d.allocations == 2); // the copy and the fresh output s
}

TEST_CASE("A borrowed input overlapping a later non-borrowed input is the "
          "one copied",
          "[overlap]") {
  auto rt = loadGraph(kRow);
  Function &f = fn(*rt, "scale_row_donating");
  Array A = iota({4, 4});
  Array r = *(*A.slice(0, 1, 2)).reshape({4});
  std::vector<double> rowBefore = values(r);
  std::vector<Array> reference = callOk(f, {snapshot(A), snapshot(r)});
  CounterSnapshot start = rt->counters().snapshot();
  std::vector<Array> out = callOk(f, {A, r});
  CHECK(values(out[0]) == values(reference[0]));
  CHECK(values(out[1]) == values(reference[1]));
  // r is not borrowed: unchanged (A, which holds it, was copied instead).
  CHECK(values(r) == rowBefore);
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.copies == 1);
  CHECK(d.bytesCopied == int64_t(A.nbytes()));
}

TEST_CASE("An input aliasing a shared variable that the call updates is "
          "copied",
          "[overlap]") {
  auto rt = loadGraph(R"(tg 1
shared W : f32[4, 4] = zeros
func step(g : f32[4, 4]) -> () {
  updates {
    W = W - transpose(g)
  }
}
func read(g : f32[4, 4]) -> (y : f32[4, 4]) {
  y = g + W
}
)");
  SharedVariable &W = var(*rt, "W");
  REQUIRE_OK(W.setValue(iota({4, 4})));
  Array w0 = snapshot(storage(W));
  Array g = storage(W); // get_value(borrow=true): a view of W's storage

  // Reading W through an aliasing input needs no copy.
  CounterSnapshot start = rt->counters().snapshot();
  Array y = callOk(fn(*rt, "read"), {g})[0];
  CHECK(values(y) == values(iota({4, 4}, 2.0f)));
  CHECK((rt->counters().snapshot() - start).copies == 0);

  // Updating W while reading it through an input copies the input first.
  start = rt->counters().snapshot();
  callOk(fn(*rt, "step"), {g});
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.copies == 1);
  CHECK(d.bytesCopied == int64_t(W.nbytes()));
  std::vector<double> w = values(storage(W)), old = values(w0);
  std::vector<double> oldT = values(*w0.transpose());
  for (size_t i = 0; i < w.size(); ++i)
    CHECK(w[i] == old[i] - oldT[i]);
}

TEST_CASE("Non-contiguous inputs work and cost exactly one copy",
          "[overlap][counters]") {
  auto rt = loadGraph(R"(tg 1
func twice(x : f32[N, M]) -> (y : f32[N, M]) {
  y = 2 * x
}
func twice_inplace(x : f32[N, M] borrow) -> (y : f32[N, M] borrow) {
  y = 2 * x
}
)");
  Array base = iota({3, 5});
  Array xt = *base.transpose(); // (5, 3), strides (4, 20)
  REQUIRE(!xt.isContiguous());
  std::vector<double> expected;
  for (double v : values(xt))
    expected.push_back(2 * v);
  for (const char *name : {"twice", "twice_inplace"}) {
    DYNAMIC_SECTION(name) {
      Array kept = snapshot(base);
      CounterSnapshot start = rt->counters().snapshot();
      Array y = callOk(fn(*rt, name), {xt})[0];
      CHECK(y.shape() == Shape{5, 3});
      CHECK(values(y) == expected);
      CHECK(!y.overlaps(base));
      Delta d = rt->counters().snapshot() - start;
      CHECK(d.copies == 1);
      CHECK(d.bytesCopied == int64_t(xt.nbytes()));
      if (std::string(name) == "twice")
        CHECK(base.bitwiseEqual(kept));
    }
  }
  // A reversed (negative-stride) slice too. (A fresh array: in debug mode
  // the borrowed call above poisoned `base`, which it was lent.)
  Array rev = *iota({3, 5}).slice(1, 0, Array::kOmit, -1);
  Array y = callOk(fn(*rt, "twice"), {rev})[0];
  std::vector<double> rv = values(rev);
  for (size_t i = 0; i < rv.size(); ++i)
    CHECK(values(y)[i] == 2 * rv[i]);
}

TEST_CASE("Managed memory does not change while no call runs", "[stability]") {
  auto rt = loadGraph(R"(tg 1
shared W : f32[8, 8] = uniform(low=0, high=1, seed=5)
shared V : f32[8] = zeros
func read(x : f32[N, 8]) -> (y : f32[N, 8] borrow) {
  y = matmul(x, W)
}
func bump(x : f32[8] borrow) -> (z : f32[8] borrow) {
  z = x + 1
  updates {
    V = V + x
  }
}
)");
  SharedVariable &W = var(*rt, "W");
  Array view = storage(W); // get_value(borrow=true)
  Array kept = snapshot(view);
  for (int i = 0; i < 5; ++i) {
    callOk(fn(*rt, "read"), {iota({3, 8})});
    callOk(fn(*rt, "bump"), {iota({8})});
    CHECK(view.bitwiseEqual(kept));
    CHECK(addressOf(storage(W)) == addressOf(view));
  }
  // get_value(borrow=false) is a copy that aliases nothing.
  Result<Array> copy = W.getArray(false);
  REQUIRE_OK(copy);
  CHECK(!copy->overlaps(view));
  CHECK(copy->bitwiseEqual(kept));
}
