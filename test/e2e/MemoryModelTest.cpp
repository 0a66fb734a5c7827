//===- MemoryModelTest.cpp - the memory contract seen from outside --------===//
//
// Every Graph::call already checks that non-borrowed inputs are bitwise
// unchanged and that outputs alias neither each other, nor inputs (unless
// both are borrowed), nor shared variables. These cases check the rest of
// the Theano/PyTensor contract: in-place computation into borrowed inputs,
// reuse of borrowed outputs, copies of shared variables, parallel updates,
// and calls whose arguments share memory.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

using namespace tcc::e2e;
using tcc::Array;

namespace {

const DTypeKind F32 = DTypeKind::F32;

std::string seedsPath() { return std::string(TCC_EXAMPLES_DIR) + "/seeds.tg"; }

/// Calls through the runtime only; REQUIREs success.
std::vector<Array> rawCall(tcc::Function &f, const std::vector<Array> &inputs) {
  tcc::Result<std::vector<Array>> r = f.call(inputs);
  INFO("calling '" << f.name() << "': " << r.status().toString());
  REQUIRE(r.ok());
  return r.value();
}

RefTensor scaled(const RefTensor &t, double factor) {
  RefTensor r = t;
  for (double &v : r.data)
    v = tcc::reference::roundTo(t.dtype, v * factor);
  return r;
}

} // namespace

TEST_CASE("seeds twice: a borrowed input computed in place",
          "[memory][examples]") {
  Graph g(readFile(seedsPath()), seedsPath());
  tcc::Function &twice = g.function("twice");
  Random rng(801);
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{3, 4}, {1, 1}, {17, 5}, {3, 4}}) {
    RefTensor x = rng.uniform(F32, shape, -10, 10);
    Array xa = toArray(x);
    void *before = xa.data();
    twice.counters().reset();
    g.runtime().counters().reset();
    std::vector<Array> out = rawCall(twice, {xa});
    REQUIRE(out.size() == 1);
    CHECK(out[0].data() == before);
    CHECK(twice.counters().snapshot().bytesAllocated == 0);
    CHECK(g.runtime().counters().snapshot().bytesAllocated == 0);
    CHECK(twice.counters().snapshot().allocations == 0);
    checkClose(scaled(x, 2), toRef(out[0]), "twice(x)");
  }
  // Through the harness as well: the reference agrees.
  g.call("twice", {rng.uniform(F32, {6, 2}, -3, 3)});
}

TEST_CASE("non-borrowed inputs and outputs are never shared", "[memory]") {
  Random rng(802);
  Graph g(R"(tg 1
func scale(x : f32[N, M]) -> (y : f32[N, M]) { y = 2 * x }
func ident(x : f32[3]) -> (y : f32[3]) { y = x }
func identBorrowedIn(x : f32[3] borrow) -> (y : f32[3]) { y = x }
func two(x : f32[3]) -> (a : f32[3], b : f32[3]) {
  a = x + 1
  b = x - 1
}
func pair(x : f32[3], y : f32[3]) -> (p : f32[3], q : f32[3]) {
  p = x
  q = y
}
)");
  for (int trial = 0; trial < 2; ++trial) {
    RefTensor x = rng.uniform(F32, {4, 3}, -5, 5);
    Outcome o = g.call("scale", {x});
    RefTensor v = rng.uniform(F32, {3}, -5, 5);
    // An output that is an input is still a fresh array (the harness checks
    // it shares no memory with the input).
    g.call("ident", {v});
    g.call("identBorrowedIn", {v});
    g.call("two", {v});
    g.call("pair", {v, rng.uniform(F32, {3}, -5, 5)});
  }
  // Two outputs from two calls are different arrays too.
  tcc::Function &ident = g.function("ident");
  Array in = toArray(rng.uniform(F32, {3}));
  std::vector<Array> first = rawCall(ident, {in});
  std::vector<Array> second = rawCall(ident, {in});
  CHECK(first[0].data() != second[0].data());
  CHECK(first[0].data() != in.data());
}

TEST_CASE("a borrowed output reuses its buffer from call to call", "[memory]") {
  Random rng(803);
  Graph g(R"(tg 1
func inc(x : f32[4]) -> (y : f32[4] borrow) { y = x + 1 }
)");
  tcc::Function &inc = g.function("inc");
  RefTensor x1 = rng.uniform(F32, {4}), x2 = rng.uniform(F32, {4});
  std::vector<Array> first = rawCall(inc, {toArray(x1)});
  inc.counters().reset();
  std::vector<Array> second = rawCall(inc, {toArray(x2)});
  CHECK(first[0].data() == second[0].data());
  CHECK(inc.counters().snapshot().bytesAllocated == 0);
  // The earlier result was overwritten: that is what borrowing it allows.
  RefTensor expected = g.reference().call("inc", {x2}, {}).outputs[0];
  checkClose(expected, toRef(first[0]), "first result after the second call");
  g.call("inc", {x1});
}

TEST_CASE("seeds accumulate: outputs and updates of a shared variable",
          "[memory][examples][shared]") {
  Graph g(readFile(seedsPath()), seedsPath());
  Random rng(804);
  g.setShared("state", rng.uniform(F32, {4}, -3, 3));
  for (int step = 0; step < 5; ++step) {
    std::map<std::string, RefTensor> before = g.sharedValues();
    Outcome o = g.call("accumulate", {rng.uniform(F32, {4}, -3, 3)});
    // `old` is the value from before the call, and a copy of it: the update
    // must not show through it.
    checkClose(before.at("state"), toRef(o.outputs[0]), "old");
    tcc::Result<tcc::SharedVariable *> state =
        g.runtime().shared().lookup("state");
    REQUIRE(state.ok());
    tcc::Result<Array> storage = state.value()->getArray(/*borrow=*/true);
    REQUIRE(storage.ok());
    CHECK(o.outputs[0].data() != storage.value().data());
  }
  // A call that fails (wrong shape) changes nothing.
  std::map<std::string, RefTensor> before = g.sharedValues();
  tcc::Result<std::vector<Array>> bad =
      g.function("accumulate")
          .call(std::vector<Array>{toArray(rng.uniform(F32, {5}))});
  CHECK_FALSE(bad.ok());
  checkClose(before.at("state"), g.sharedValues().at("state"),
             "state after a failed call", {0, 0});
}

TEST_CASE("a function returning a shared variable returns a copy",
          "[memory][shared]") {
  Random rng(805);
  Graph g(R"(tg 1
shared w : f32[2, 3] = uniform(low=-1, high=1, seed=3)
func get() -> (w_out : f32[2, 3]) { w_out = w }
func bump(d : f32[2, 3]) -> () {
  updates {
    w = w + d
  }
}
)");
  Outcome got = g.call("get", {});
  RefTensor value = toRef(got.outputs[0]);
  tcc::Result<tcc::SharedVariable *> w = g.runtime().shared().lookup("w");
  REQUIRE(w.ok());
  CHECK(got.outputs[0].data() != w.value()->getArray(true).value().data());
  g.call("bump", {rng.uniform(F32, {2, 3})});
  // The returned array kept its value.
  checkClose(value, toRef(got.outputs[0]), "w_out after an update", {0, 0});
  g.call("get", {});
}

TEST_CASE("outputs read shared variables before their updates",
          "[memory][shared]") {
  Random rng(806);
  Graph g(R"(tg 1
shared a : f32[3] = zeros
shared b : f32[3] = zeros
shared n : i64[] = zeros
func step(x : f32[3]) -> (old_a : f32[3], count : i64[]) {
  old_a = a
  count = n
  updates {
    a = a + b * x
    n = n + 1
  }
}
)");
  g.setShared("a", rng.uniform(F32, {3}, -2, 2));
  g.setShared("b", rng.uniform(F32, {3}, -2, 2));
  for (int i = 0; i < 3; ++i)
    g.call("step", {rng.uniform(F32, {3}, -2, 2)});
  CHECK(g.sharedValues().at("n").data[0] == 3);
}

// `a = b` and `b = a` swap (graph-format.md): every update reads the values
// from before the call. (Did not compile before 9d8565b: "cannot avoid RaW
// conflict".)
TEST_CASE("updates are a parallel assignment", "[memory][shared]") {
  Random rng(811);
  Graph g(R"(tg 1
shared a : f32[3] = zeros
shared b : f32[3] = zeros
func swap() -> () {
  updates {
    a = b
    b = a
  }
}
func step(x : f32[3]) -> () {
  updates {
    a = a + b * x
    b = a
  }
}
)");
  g.setShared("a", rng.uniform(F32, {3}, -2, 2));
  g.setShared("b", rng.uniform(F32, {3}, -2, 2));
  for (int i = 0; i < 3; ++i) {
    g.call("swap", {});
    g.call("step", {rng.uniform(F32, {3}, -2, 2)});
  }
}

TEST_CASE("arguments that share memory", "[memory][shared]") {
  Random rng(807);
  Graph g(R"(tg 1
func f(x : f32[8] borrow, y : f32[8]) -> (r : f32[8]) { r = x * 2 + y }
)");
  // The same array as a borrowed and a non-borrowed input: as if separate.
  RefTensor a = rng.uniform(F32, {8}, -4, 4);
  Array same = toArray(a);
  std::vector<Array> out = rawCall(g.function("f"), {same, same});
  checkClose(g.reference().call("f", {a, a}, {}).outputs[0], toRef(out[0]),
             "f(a, a)");
  CHECK_FALSE(out[0].overlaps(same));

  // A shared variable's own storage as an input of a function updating it.
  Graph s(readFile(seedsPath()), seedsPath());
  s.setShared("state", rng.uniform(F32, {4}, -3, 3));
  RefTensor old = s.sharedValues().at("state");
  tcc::Result<tcc::SharedVariable *> state =
      s.runtime().shared().lookup("state");
  REQUIRE(state.ok());
  Array storage = state.value()->getArray(/*borrow=*/true).value();
  std::vector<Array> got = rawCall(s.function("accumulate"), {storage});
  checkClose(old, toRef(got[0]), "old");
  checkClose(scaled(old, 2), s.sharedValues().at("state"), "state + state");
}

//===----------------------------------------------------------------------===//
// Regression test (fixed): an output value that is also read by another op, or
// returned as two outputs, does not compile:
//   'linalg.generic' op not bufferizable under the given constraints:
//   cannot avoid RaW conflict
// Minimal reproducer (tcc compile FILE.tg --emit=bufferized):
//   tg 1
//   func f(x : f32[4]) -> (y : f32[4], z : f32[4]) {
//     y = x + 1
//     z = y * 2
//   }
// The other test files keep such outputs apart so that they test the rest.
//===----------------------------------------------------------------------===//

TEST_CASE("an output that another output is computed from", "[memory]") {
  Random rng(808);
  Graph g(R"(tg 1
func f(x : f32[4]) -> (y : f32[4], z : f32[4]) {
  y = x + 1
  z = y * 2
}
)");
  g.call("f", {rng.uniform(F32, {4})});
}

TEST_CASE("one value returned as two outputs", "[memory]") {
  Random rng(809);
  Graph g(R"(tg 1
func f(x : f32[4]) -> (y : f32[4], z : f32[4]) {
  y = x + 1
  z = y
}
)");
  g.call("f", {rng.uniform(F32, {4})});
}

TEST_CASE("an output and a reduction of it over a dynamic batch",
          "[memory][dynamic]") {
  Random rng(810);
  Graph g(R"(tg 1
func f(x : f32[N, 10], b : f32[10]) -> (r : f32[N, 10], s : f32[N], t : f32[10]) {
  r = x * 2 + b
  s = sum(r, axis=1)
  t = max(r, axis=0)
}
)");
  for (int64_t n : {1, 4, 9})
    g.call("f", {rng.uniform(F32, {n, 10}), rng.uniform(F32, {10})});
}
