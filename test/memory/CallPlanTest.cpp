//===- CallPlanTest.cpp - plans per input signature, and callInto ---------===//
//
// A call reuses the checks of an earlier call with the same input dtypes and
// shapes (runtime/exec/CallPlan.h); Function::callInto is the entry that
// keeps its output handles. Every check must still catch what it caught
// before, and a repeat call must not allocate.
//
//===----------------------------------------------------------------------===//

#include "MemoryTestUtil.h"

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kGraph = R"(tg 1
func add(x : f32[N], y : f32[N]) -> (z : f32[N]) {
  z = x + y
}
func add_out(x : f32[N], y : f32[N]) -> (z : f32[N] borrow) {
  z = x + y
}
func scale_in(x : f32[N] borrow, s : f32[]) -> (z : f32[N] borrow) {
  z = s * x
}
func pair(x : f32[N, 2]) -> (a : f32[N, 2] borrow, b : f32[2, N]) {
  a = x + 1
  b = transpose(x)
}
)";

std::vector<double> sums(const Array &x, const Array &y) {
  std::vector<double> a = values(x), b = values(y), out;
  for (size_t i = 0; i < a.size(); ++i)
    out.push_back(a[i] + b[i]);
  return out;
}

} // namespace

TEST_CASE("A second input signature gets a plan of its own", "[plan]") {
  auto rt = loadGraph(kGraph);
  Function &f = fn(*rt, "add");
  Array x4 = iota({4}), y4 = iota({4}, 10);
  Array x7 = iota({7}), y7 = iota({7}, -3);
  for (int round = 0; round < 2; ++round) {
    std::vector<Array> out = callOk(f, {x4, y4});
    REQUIRE(out[0].shape() == Shape{4});
    CHECK(values(out[0]) == sums(x4, y4));
    out = callOk(f, {x7, y7});
    REQUIRE(out[0].shape() == Shape{7});
    CHECK(values(out[0]) == sums(x7, y7));
  }
  // The same through callInto, into one vector of outputs.
  std::vector<Array> outputs;
  REQUIRE_OK(f.callInto({x7, y7}, outputs));
  CHECK(values(outputs[0]) == sums(x7, y7));
  REQUIRE_OK(f.callInto({x4, y4}, outputs));
  REQUIRE(outputs.size() == 1);
  CHECK(values(outputs[0]) == sums(x4, y4));
  // Another dtype is another signature, and an error.
  Array d4 = Array::full(DType::F64, {4}, 1.0).value();
  Status wrong = f.callInto({d4, y4}, outputs);
  CHECK(wrong.code() == ErrorCode::DTypeMismatch);
}

TEST_CASE("A shape error is caught after a plan exists, and changes nothing",
          "[plan]") {
  auto rt = loadGraph(kGraph);
  Function &f = fn(*rt, "scale_in");
  Array s = f32({3}, {});
  Array x = iota({5});
  std::vector<Array> outputs;
  REQUIRE_OK(f.callInto({x, s}, outputs)); // builds the plan of (f32[5], f32[])
  REQUIRE_OK(f.callInto({x, s}, outputs)); // uses it
  Array good = snapshot(x);
  CounterSnapshot before = rt->counters().snapshot();
  // A scale of shape (1,) instead of (): the rank differs from the plan's.
  Array wrongRank = f32({3}, {1});
  Status st = f.callInto({x, wrongRank}, outputs);
  CHECK(st.code() == ErrorCode::ShapeMismatch);
  CHECK(st.message().find("input 's' of 'scale_in' must be f32[]") !=
        std::string::npos);
  // Through call() too, and with the wrong number of inputs.
  CHECK(f.call({x, wrongRank}).status().code() == ErrorCode::ShapeMismatch);
  CHECK(f.call({x}).status().code() == ErrorCode::InvalidArgument);
  CHECK(f.callInto({x, Array()}, outputs).code() == ErrorCode::InvalidArgument);
  // Nothing changed: the borrowed input holds what it held, nothing counted.
  CHECK(values(x) == values(good));
  Delta d = rt->counters().snapshot() - before;
  CHECK(d.calls == 0);
  CHECK(d.allocations == 0);
  // And the plan still serves good calls.
  REQUIRE_OK(f.callInto({x, s}, outputs));
  std::vector<double> expected;
  for (double v : values(good))
    expected.push_back(3 * v);
  CHECK(values(outputs[0]) == expected);
}

TEST_CASE("Symbols must agree on every call, with a plan or without",
          "[plan]") {
  auto rt = loadGraph(kGraph);
  Function &f = fn(*rt, "add");
  std::vector<Array> outputs;
  REQUIRE_OK(f.callInto({iota({3}), iota({3})}, outputs));
  Status st = f.callInto({iota({3}), iota({4})}, outputs);
  CHECK(st.code() == ErrorCode::ShapeMismatch);
  CHECK(st.message().find("N is 3 from input 'x'") != std::string::npos);
}

TEST_CASE("Repeat calls allocate nothing but their fresh outputs, which the "
          "host cache serves",
          "[plan]") {
  auto rt = loadGraph(kGraph);
  Array x = iota({1000}), y = iota({1000}, 2);
  SECTION("borrowed output") {
    Function &f = fn(*rt, "add_out");
    std::vector<Array> outputs;
    REQUIRE_OK(f.callInto({x, y}, outputs)); // plan and buffer made here
    const Buffer *buffer = outputs[0].buffer().get();
    CounterSnapshot before = rt->counters().snapshot();
    AllocatorStats host = hostAllocatorStats();
    for (int i = 0; i < 100; ++i)
      REQUIRE_OK(f.callInto({x, y}, outputs));
    Delta d = rt->counters().snapshot() - before;
    CHECK(d.calls == 100);
    CHECK(d.allocations == 0);
    CHECK(d.bytesAllocated == 0);
    CHECK(d.copiesAvoided == 100); // the reused buffer, each call
    CHECK(hostAllocatorStats().requests == host.requests);
    // The same handle: nothing was built.
    CHECK(outputs[0].buffer().get() == buffer);
    CHECK(values(outputs[0]) == sums(x, y));
  }
  SECTION("fresh output") {
    Function &f = fn(*rt, "add");
    std::vector<Array> outputs;
    REQUIRE_OK(f.callInto({x, y}, outputs));
    REQUIRE_OK(f.callInto({x, y}, outputs));
    AllocatorStats host = hostAllocatorStats();
    CounterSnapshot before = rt->counters().snapshot();
    for (int i = 0; i < 100; ++i) {
      const void *previous = addressOf(outputs[0]);
      REQUIRE_OK(f.callInto({x, y}, outputs));
      // A fresh array each time, aliasing nothing the caller still holds.
      CHECK(addressOf(outputs[0]) != previous);
    }
    Delta d = rt->counters().snapshot() - before;
    CHECK(d.allocations == 100); // each fresh output is an allocation
    AllocatorStats after = hostAllocatorStats();
    CHECK(after.requests - host.requests == 100);
    CHECK(after.allocations == host.allocations); // all from the cache
    CHECK(values(outputs[0]) == sums(x, y));
  }
}

TEST_CASE("callInto with y = f(y): a borrowed output never overlaps an input",
          "[plan]") {
  auto rt = loadGraph(kGraph);
  Function &f = fn(*rt, "add_out");
  Array one = Array::full(DType::F32, {6}, 1.0).value();
  std::vector<Array> outputs;
  REQUIRE_OK(f.callInto({one, one}, outputs));
  for (int i = 0; i < 5; ++i) {
    Array y = outputs[0];
    REQUIRE_OK(f.callInto({y, one}, outputs));
    CHECK(addressOf(outputs[0]) != addressOf(y));
  }
  CHECK(values(outputs[0]) == std::vector<double>(6, 7.0));
}

TEST_CASE("A borrowed output a shared variable adopted is never written "
          "again",
          "[plan]") {
  auto rt = loadGraph(kGraph);
  Function &f = fn(*rt, "add_out");
  Array x = iota({4}), y = iota({4});
  std::vector<Array> outputs;
  REQUIRE_OK(f.callInto({x, y}, outputs));
  REQUIRE_OK(f.callInto({x, y}, outputs));
  REQUIRE_OK(rt->shared().create("kept", outputs[0], /*borrow=*/true));
  SharedVariable &kept = var(*rt, "kept");
  REQUIRE(addressOf(storage(kept)) == addressOf(outputs[0]));
  std::vector<double> held = values(storage(kept));
  for (int i = 0; i < 4; ++i) {
    REQUIRE_OK(f.callInto({iota({4}, 5), y}, outputs));
    CHECK(addressOf(outputs[0]) != addressOf(storage(kept)));
  }
  CHECK(values(storage(kept)) == held);
}

TEST_CASE("callInto: several outputs, an input computed in place, and the "
          "same vector for inputs and outputs",
          "[plan]") {
  auto rt = loadGraph(kGraph);
  Function &pair = fn(*rt, "pair");
  Array x = iota({3, 2});
  std::vector<Array> outputs;
  for (int i = 0; i < 3; ++i) {
    REQUIRE_OK(pair.callInto({x}, outputs));
    REQUIRE(outputs.size() == 2);
    CHECK(outputs[0].shape() == Shape{3, 2});
    CHECK(outputs[1].shape() == Shape{2, 3});
    CHECK(values(outputs[1]) == std::vector<double>{0, 2, 4, 1, 3, 5});
  }
  Function &scale = fn(*rt, "scale_in");
  std::vector<Array> both = {iota({4}), f32({2}, {})};
  const void *address = addressOf(both[0]);
  REQUIRE_OK(scale.callInto(both, both));
  REQUIRE(both.size() == 1);
  CHECK(addressOf(both[0]) == address); // computed in the borrowed input
  CHECK(values(both[0]) == std::vector<double>{0, 2, 4, 6});
}

namespace {

const char *kStep = R"(tg 1
shared w : f32[4] = zeros
shared scale : f32[] = ones
func step(g : f32[4], lr : f32[]) -> (norm : f32[] borrow) {
  norm = sum(g * g)
  updates {
    w = w - lr * scale * g
  }
}
)";

} // namespace

TEST_CASE("Repeat calls with shared variables: updates in place, nothing "
          "allocated, and a re-created variable is found",
          "[plan]") {
  auto rt = loadGraph(kStep);
  Function &f = fn(*rt, "step");
  Array g = f32({1, 2, 3, 4}, {4}), lr = f32({0.5f}, {});
  std::vector<Array> outputs;
  REQUIRE_OK(f.callInto({g, lr}, outputs));
  REQUIRE_OK(f.callInto({g, lr}, outputs));
  const void *storageBefore = addressOf(storage(var(*rt, "w")));
  CounterSnapshot before = rt->counters().snapshot();
  for (int i = 0; i < 8; ++i)
    REQUIRE_OK(f.callInto({g, lr}, outputs));
  Delta d = rt->counters().snapshot() - before;
  CHECK(d.calls == 8);
  CHECK(d.allocations == 0);
  CHECK(d.copies == 0);
  CHECK(addressOf(storage(var(*rt, "w"))) == storageBefore);
  CHECK(values(outputs[0]) == std::vector<double>{30});
  // Ten steps of -0.5 * g.
  CHECK(values(storage(var(*rt, "w"))) ==
        std::vector<double>{-5, -10, -15, -20});
  // A variable erased and created again is another object: the next call
  // must use it, not the old one.
  REQUIRE_OK(rt->shared().erase("scale"));
  REQUIRE_OK(rt->shared().create("scale", f32({2}, {}), /*borrow=*/false));
  REQUIRE_OK(f.callInto({g, lr}, outputs));
  CHECK(values(storage(var(*rt, "w"))) ==
        std::vector<double>{-6, -12, -18, -24});
  // An input that views a variable the call updates is copied first, and
  // the result is the same as with a separate input.
  Array view = rt->shared().lookup("w").value()->getArray(true).value();
  Array separate = snapshot(view);
  REQUIRE_OK(f.callInto({view, lr}, outputs));
  std::vector<double> w = values(storage(var(*rt, "w")));
  std::vector<double> expected;
  for (double s : values(separate))
    expected.push_back(s - 0.5 * 2 * s);
  CHECK(w == expected);
  // A variable of another shape is an error, before anything changes.
  REQUIRE_OK(rt->shared().erase("scale"));
  REQUIRE_OK(rt->shared().create("scale", f32({2, 2}, {2}), false));
  std::vector<double> held = values(storage(var(*rt, "w")));
  Status st = f.callInto({g, lr}, outputs);
  CHECK(st.code() == ErrorCode::ShapeMismatch);
  CHECK(values(storage(var(*rt, "w"))) == held);
}

TEST_CASE("The compiled code's temporaries come from the host caching "
          "allocator and are reused by the next call",
          "[plan]") {
  // Two matrix products: the sum accumulates in one of them, computed in
  // the output, so the other is a temporary of every call.
  auto rt = loadGraph(R"(tg 1
func twice(a : f32[N, N], b : f32[N, N]) -> (y : f32[N, N] borrow) {
  y = matmul(a, b) + matmul(b, a)
}
)");
  Function &f = fn(*rt, "twice");
  Array a = iota({64, 64}, 0.01f), b = iota({64, 64}, -0.02f);
  std::vector<Array> outputs;
  REQUIRE_OK(f.callInto({a, b}, outputs)); // temporaries made and freed
  AllocatorStats before = hostAllocatorStats();
  for (int i = 0; i < 10; ++i)
    REQUIRE_OK(f.callInto({a, b}, outputs));
  AllocatorStats after = hostAllocatorStats();
  // The runtime's fast path asks the allocator for nothing (the output is
  // borrowed), so every request is a temporary of the compiled code.
  CHECK(after.requests - before.requests >= 10);
  CHECK(after.reuses - before.reuses == after.requests - before.requests);
  CHECK(after.allocations == before.allocations);
  CHECK(after.bytesInUse == before.bytesInUse); // all freed again
}
