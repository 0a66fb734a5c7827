//===- UpdatesTest.cpp - updates are parallel, in place, atomic -----------===//

#include "MemoryTestUtil.h"

using namespace tcc;
using namespace tcc::test;

TEST_CASE("Updates are parallel assignments: outputs and updates see "
          "pre-call values",
          "[updates]") {
  auto rt = loadGraph(R"(tg 1
shared a : f32[3] = fill(1)
shared b : f32[3] = fill(10)
func step() -> (old_a : f32[3], old_b : f32[3]) {
  old_a = a
  old_b = b
  updates {
    a = a + b
    b = a * 2
  }
}
)");
  std::vector<Array> out = callOk(fn(*rt, "step"), {});
  CHECK(values(out[0]) == std::vector<double>{1, 1, 1});
  CHECK(values(out[1]) == std::vector<double>{10, 10, 10});
  CHECK(values(storage(var(*rt, "a"))) == std::vector<double>{11, 11, 11});
  CHECK(values(storage(var(*rt, "b"))) == std::vector<double>{2, 2, 2});
  out = callOk(fn(*rt, "step"), {});
  CHECK(values(out[0]) == std::vector<double>{11, 11, 11});
  CHECK(values(storage(var(*rt, "a"))) == std::vector<double>{13, 13, 13});
  CHECK(values(storage(var(*rt, "b"))) == std::vector<double>{22, 22, 22});
}

TEST_CASE("Swapping two shared variables works and leaves them unaliased",
          "[updates]") {
  auto rt = loadGraph(R"(tg 1
shared a : f32[2, 3] = fill(1)
shared b : f32[2, 3] = fill(2)
func swap() -> () {
  updates {
    a = b
    b = a
  }
}
)");
  SharedVariable &a = var(*rt, "a"), &b = var(*rt, "b");
  Array valueA = snapshot(storage(a)), valueB = snapshot(storage(b));
  callOk(fn(*rt, "swap"), {});
  CHECK(storage(a).bitwiseEqual(valueB));
  CHECK(storage(b).bitwiseEqual(valueA));
  REQUIRE_OK(rt->shared().checkNoAliasing());
  // Not aliased: changing one leaves the other alone.
  REQUIRE_OK(a.setValue(iota({2, 3})));
  CHECK(storage(b).bitwiseEqual(valueA));
  callOk(fn(*rt, "swap"), {});
  CHECK(values(storage(b)) == values(iota({2, 3})));
  CHECK(storage(a).bitwiseEqual(valueA));
  REQUIRE_OK(rt->shared().checkNoAliasing());
}

TEST_CASE("Exchanging two shared variables through expressions works and "
          "leaves them unaliased",
          "[updates]") {
  auto rt = loadGraph(R"(tg 1
shared a : f32[2, 3] = fill(1)
shared b : f32[2, 3] = fill(2)
func exchange() -> () {
  updates {
    a = b + 10
    b = a + 100
  }
}
)");
  SharedVariable &a = var(*rt, "a"), &b = var(*rt, "b");
  const void *aAt = addressOf(storage(a)), *bAt = addressOf(storage(b));
  callOk(fn(*rt, "exchange"), {});
  CHECK(values(storage(a)) == std::vector<double>(6, 12));
  CHECK(values(storage(b)) == std::vector<double>(6, 101));
  callOk(fn(*rt, "exchange"), {});
  CHECK(values(storage(a)) == std::vector<double>(6, 111));
  CHECK(values(storage(b)) == std::vector<double>(6, 112));
  REQUIRE_OK(rt->shared().checkNoAliasing());
  // Updated in place: each keeps its own storage.
  CHECK(addressOf(storage(a)) == aAt);
  CHECK(addressOf(storage(b)) == bAt);
  REQUIRE_OK(a.setValue(iota({2, 3})));
  CHECK(values(storage(b)) == std::vector<double>(6, 112));
}

TEST_CASE("An SGD update happens in place: same storage, nothing allocated "
          "or copied",
          "[updates][counters]") {
  const char *source = R"(tg 1
shared W : f32[16, 8] = normal(mean=0, std=1, seed=3)
func step(g : f32[16, 8], lr : f32[]) -> () {
  updates {
    W = W - lr * g
  }
}
)";
  auto rt = loadGraph(source);
  Function &step = fn(*rt, "step");
  SharedVariable &W = var(*rt, "W");
  const void *where = addressOf(storage(W));
  std::vector<double> w0 = values(storage(W));
  Array g = iota({16, 8}, 0.25f);
  Array lr = f32({0.5f}, {});
  CounterSnapshot start = rt->counters().snapshot();
  for (int i = 0; i < 3; ++i)
    callOk(step, {g, lr});
  CHECK(addressOf(storage(W)) == where);
  std::vector<double> w = values(storage(W)), gv = values(g);
  for (size_t i = 0; i < w.size(); ++i) {
    float expected = float(w0[i]);
    for (int k = 0; k < 3; ++k)
      expected = expected - 0.5f * float(gv[i]);
    REQUIRE(w[i] == Approx(expected).margin(1e-5));
  }
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.allocations == 0);
  CHECK(d.bytesAllocated == 0);
  CHECK(d.copies == 0);
  CHECK(d.liveManaged == 0);
  CHECK(rt->counters().snapshot().peakManagedBytes == W.nbytes());
  CHECK(d.calls == 3);
  // Bufferization found no conflict: no allocation or copy in the compiled
  // code either.
  CHECK(step.spec().copies.empty());
  CompiledMemoryOps compiled = bufferizedOps(source, "step");
  CHECK(compiled.allocs == 0);
  CHECK(compiled.copies == 0);
  CHECK(step.spec().updates == std::vector<std::string>{"W"});
}

TEST_CASE("Returning the old value of an updated variable costs one copy in "
          "the compiled code",
          "[updates]") {
  auto rt = loadGraph(R"(tg 1
shared state : f32[4] = zeros
func accumulate(inc : f32[4]) -> (old : f32[4]) {
  old = state
  updates {
    state = state + inc
  }
}
)");
  Function &f = fn(*rt, "accumulate");
  SharedVariable &state = var(*rt, "state");
  const void *where = addressOf(storage(state));
  Array inc = f32({1, 2, 3, 4}, {4});
  Array old1 = callOk(f, {inc})[0];
  Array old2 = callOk(f, {inc})[0];
  CHECK(values(old1) == std::vector<double>{0, 0, 0, 0});
  CHECK(values(old2) == std::vector<double>{1, 2, 3, 4});
  CHECK(values(storage(state)) == std::vector<double>{2, 4, 6, 8});
  CHECK(addressOf(storage(state)) == where);
  CHECK(!old2.overlaps(storage(state)));
  CHECK(f.spec().copies.size() == 1);
}

TEST_CASE("shared(value, borrow=true) on the host: an in-place update is "
          "seen through the caller's buffer (borrow=false copies)",
          "[updates][borrow]") {
  // The seeds allow either behaviour for borrow=true (update in place, or
  // swap buffers); this implementation updates in place on the host.
  const char *source = R"(tg 1
shared state : f32[4] = zeros
func accumulate(inc : f32[4]) -> (old : f32[4]) {
  old = state
  updates {
    state = state + inc
  }
}
)";
  for (bool borrow : {true, false}) {
    DYNAMIC_SECTION("borrow=" << borrow) {
      Runtime runtime;
      Array user = f32({1, 2, 3, 4}, {4});
      REQUIRE_OK(runtime.shared().create("state", user, borrow));
      REQUIRE_OK(runtime.load(compileGraph(source)));
      SharedVariable &state = var(runtime, "state");
      CHECK((addressOf(storage(state)) == addressOf(user)) == borrow);
      callOk(fn(runtime, "accumulate"), {f32({1, 1, 1, 1}, {4})});
      CHECK(values(storage(state)) == std::vector<double>{2, 3, 4, 5});
      CHECK(values(user) == (borrow ? std::vector<double>{2, 3, 4, 5}
                                    : std::vector<double>{1, 2, 3, 4}));
    }
  }
}

TEST_CASE("An update may use the value of an output", "[updates]") {
  auto rt = loadGraph(R"(tg 1
shared total : f32[4] = zeros
func add(x : f32[4]) -> (doubled : f32[4]) {
  doubled = 2 * x
  updates {
    total = total + doubled
  }
}
)");
  Array d = callOk(fn(*rt, "add"), {iota({4})})[0];
  CHECK(values(d) == std::vector<double>{0, 2, 4, 6});
  CHECK(values(storage(var(*rt, "total"))) == std::vector<double>{0, 2, 4, 6});
  CHECK(!d.overlaps(storage(var(*rt, "total"))));
}
