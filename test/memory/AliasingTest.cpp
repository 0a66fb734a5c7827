//===- AliasingTest.cpp - outputs alias nothing unless borrowed -----------===//

#include "MemoryTestUtil.h"

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kGraph = R"(tg 1
shared W : f32[3, 4] = uniform(low=-1, high=1, seed=7)
func get() -> (w : f32[3, 4]) {
  w = W
}
func get_borrowed() -> (w : f32[3, 4] borrow) {
  w = W
}
func identity(x : f32[N]) -> (y : f32[N]) {
  y = x
}
func identity_borrowed(x : f32[N] borrow) -> (y : f32[N] borrow) {
  y = x
}
func two(x : f32[N]) -> (a : f32[N], b : f32[N] borrow, c : f32[N]) {
  a = x
  b = x
  c = 2 * x
}
func both() -> (a : f32[3, 4], b : f32[3, 4]) {
  a = W
  b = W
}
)";

} // namespace

TEST_CASE("A function returning a shared variable returns a copy",
          "[aliasing]") {
  auto rt = loadGraph(kGraph);
  SharedVariable &W = var(*rt, "W");
  Array before = snapshot(storage(W));
  for (const char *name : {"get", "get_borrowed"}) {
    DYNAMIC_SECTION(name) {
      Array w = callOk(fn(*rt, name), {})[0];
      CHECK(!w.overlaps(storage(W)));
      CHECK(w.bitwiseEqual(before));
      // Writing the result leaves the variable alone.
      REQUIRE_OK(w.setAt<float>({0, 0}, 42.0f));
      CHECK(storage(W).bitwiseEqual(before));
    }
  }
}

TEST_CASE("y = x returns a copy of x (x itself with In and Out borrowed)",
          "[aliasing]") {
  auto rt = loadGraph(kGraph);
  Array x = iota({6});
  Array kept = snapshot(x);
  Array y = callOk(fn(*rt, "identity"), {x})[0];
  CHECK(!y.overlaps(x));
  CHECK(y.bitwiseEqual(kept));
  REQUIRE_OK(y.setAt<float>({0}, -1.0f));
  CHECK(x.bitwiseEqual(kept));

  CounterSnapshot start = rt->counters().snapshot();
  Array same = callOk(fn(*rt, "identity_borrowed"), {x})[0];
  CHECK(addressOf(same) == addressOf(x));
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.allocations == 0);
  CHECK(d.copiesAvoided == 1);
}

TEST_CASE("Outputs never alias each other, even when they are equal",
          "[aliasing]") {
  auto rt = loadGraph(kGraph);
  Array x = iota({5});
  Array kept = snapshot(x);
  std::vector<Array> out = callOk(fn(*rt, "two"), {x});
  REQUIRE(out.size() == 3);
  for (size_t i = 0; i < out.size(); ++i) {
    CHECK(!out[i].overlaps(x));
    for (size_t j = i + 1; j < out.size(); ++j)
      CHECK(!out[i].overlaps(out[j]));
  }
  CHECK(values(out[0]) == values(kept));
  CHECK(values(out[1]) == values(kept));
  CHECK(values(out[2]) == std::vector<double>{0, 2, 4, 6, 8});
  CHECK(x.bitwiseEqual(kept));

  std::vector<Array> w = callOk(fn(*rt, "both"), {});
  CHECK(!w[0].overlaps(w[1]));
  CHECK(w[0].bitwiseEqual(w[1]));
  CHECK(!w[0].overlaps(storage(var(*rt, "W"))));
}

TEST_CASE("Outputs never alias each other when one is computed from the "
          "other",
          "[aliasing]") {
  auto rt = loadGraph(R"(tg 1
func chain(x : f32[N]) -> (a : f32[N], b : f32[N], s : f32[]) {
  a = 2 * x
  b = a
  s = sum(a)
}
)");
  std::vector<Array> out = callOk(fn(*rt, "chain"), {iota({4})});
  CHECK(!out[0].overlaps(out[1]));
  CHECK(values(out[1]) == std::vector<double>{0, 2, 4, 6});
  CHECK(values(out[2])[0] == 12);
}

TEST_CASE("Shared variables never alias each other", "[aliasing]") {
  auto rt = loadGraph(R"(tg 1
shared a : f32[4] = ones
shared b : f32[4] = ones
func step(x : f32[4]) -> () {
  updates {
    a = x
    b = x
  }
}
)");
  callOk(fn(*rt, "step"), {iota({4})});
  REQUIRE_OK(rt->shared().checkNoAliasing());
  CHECK(!storage(var(*rt, "a")).overlaps(storage(var(*rt, "b"))));
  CHECK(values(storage(var(*rt, "a"))) == std::vector<double>{0, 1, 2, 3});
  CHECK(values(storage(var(*rt, "b"))) == std::vector<double>{0, 1, 2, 3});
}
