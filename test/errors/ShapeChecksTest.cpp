//===- ShapeChecksTest.cpp - the run-time shape checks of compiled code --===//
//
// Every kind of shape fact that compiled code assumes (tc-shape-checks) is
// checked before the call: a violation is a located ShapeMismatch naming
// both sizes, and the call changes and allocates nothing. Each function
// updates a shared variable, so that a check made too late would show.
//
//===----------------------------------------------------------------------===//

#include "../memory/MemoryTestUtil.h"
#include "ErrorTestUtil.h"

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kShapes = R"(tg 1
shared S : f32[2] = ones
func sl(x : f32[N, 5]) -> (y : f32[2, 1]) {
  y = slice(x, begin=[0, 0], end=[2, 1])
  updates { S = S + 1 }
}
func rs(x : f32[N]) -> (y : f32[3]) {
  y = sum(reshape(x, shape=[-1, 3]), axis=0)
  updates { S = S + 1 }
}
func ad(x : f32[N, 2], w : f32[M, 3]) -> (y : f32[]) {
  y = sum(reshape(x, shape=[-1]) + reshape(w, shape=[-1]))
  updates { S = S + 1 }
}
func mm(x : f32[N], w : f32[M]) -> (y : f32[2, 2]) {
  y = matmul(reshape(x, shape=[2, -1]), reshape(w, shape=[-1, 2]))
  updates { S = S + 1 }
}
func cc(x : f32[N], w : f32[M, 2]) -> (y : f32[2]) {
  y = sum(concat(reshape(x, shape=[-1, 1]), reshape(w, shape=[-1, 1]), axis=1), axis=0)
  updates { S = S + 1 }
}
func se(x : f32[N, 2], w : f32[M, 3]) -> (y : f32[]) {
  a = reshape(x, shape=[-1])
  y = sum(select(a > 0, a, reshape(w, shape=[-1])))
  updates { S = S + 1 }
}
func mx(x : f32[N, 2]) -> (y : f32[2]) {
  y = max(x, axis=0)
  updates { S = S + 1 }
}
func out(x : f32[N, 2]) -> (y : f32[N]) {
  y = reshape(x, shape=[-1])
  updates { S = S + 1 }
}
func dv(x : f32[B, N, 5]) -> (y : f32[B, R, 3]) {
  y = reshape(x, shape=[B, -1, 3])
  updates { S = S + 1 }
}
func pr(x : f32[B, T], z : f32[B*T]) -> (y : f32[B*T]) {
  y = reshape(x, shape=[B*T]) + z
  updates { S = S + 1 }
}
func fm(x : f32[M, 2]) -> (y : f32[1, 1], i : i64[1]) {
  y = max(full([M, 1], 2.0), axis=[1, 0], keepdims=true)
  i = argmax(full([2*M, 1], 1.0), axis=0)
  updates { S = S + 1 }
}
func ar(x : f32[M]) -> (y : i64[]) {
  y = min(arange(1, M))
  updates { S = S + 1 }
}
)";

} // namespace

TEST_CASE("shape checks", "[errors][shapes]") {
  auto rt = loadGraph(kShapes);
  SharedVariable &S = var(*rt, "S");
  // Calls `f`, requires that it changed and allocated nothing, and returns
  // its result for CHECK_ERROR.
  auto call = [&](const char *f, std::vector<Array> inputs) {
    Array s0 = snapshot(storage(S));
    CounterSnapshot before = rt->counters().snapshot();
    Result<std::vector<Array>> r = fn(*rt, f).call(inputs);
    CHECK(storage(S).bitwiseEqual(s0));
    CounterSnapshot after = rt->counters().snapshot();
    CHECK(after.allocations == before.allocations);
    CHECK(after.bytesAllocated == before.bytesAllocated);
    CHECK(after.liveManagedBytes == before.liveManagedBytes);
    CHECK(after.peakManagedBytes == before.peakManagedBytes);
    CHECK(after.calls == before.calls);
    return r;
  };
  SECTION("slice end past a dynamic dimension") {
    CHECK_ERROR(call("sl", {iota({1, 5})}), ShapeMismatch,
                "'sl' at test.tg:4:7: 'slice' ends past dimension 0 of its "
                "input: 2 vs N = 1");
  }
  SECTION("reshape to -1 that does not divide") {
    CHECK_ERROR(call("rs", {iota({5})}), ShapeMismatch,
                "'rs' at test.tg:8:11: 'reshape' of [N] to [?, 3] needs a "
                "multiple of 3 elements: N = 5 vs 3");
  }
  SECTION("elementwise sizes from reshapes") {
    CHECK_ERROR(call("ad", {iota({3, 2}), iota({3, 3})}), ShapeMismatch,
                "'ad' at test.tg:12:34: operands of 'add' differ in dimension "
                "0: 2*N = 6 vs 3*M = 9");
  }
  SECTION("matmul contraction") {
    CHECK_ERROR(call("mm", {iota({6}), iota({4})}), ShapeMismatch,
                "'mm' at test.tg:16:7: contraction dimensions of 'matmul' "
                "differ: (N/2) = 3 vs (M/2) = 2");
  }
  SECTION("concat") {
    CHECK_ERROR(call("cc", {iota({3}), iota({2, 2})}), ShapeMismatch,
                "'cc' at test.tg:20:11: inputs of 'concat' differ in "
                "dimension 0: N = 3 vs 2*M = 4");
  }
  SECTION("select") {
    CHECK_ERROR(call("se", {iota({3, 2}), iota({3, 3})}), ShapeMismatch,
                "'se' at test.tg:25:11: operands of 'select' differ in "
                "dimension 0: 2*N = 6 vs 3*M = 9");
  }
  SECTION("max over an empty dimension") {
    CHECK_ERROR(call("mx", {iota({0, 2})}), ShapeMismatch,
                "'mx' at test.tg:29:7: 'max' over dimension 0, which is "
                "empty: 1 vs N = 0");
  }
  SECTION("a reshape to several dynamic sizes keeps the element count") {
    CHECK_ERROR(call("dv", {iota({1, 2, 5})}), ShapeMismatch,
                "'dv' at test.tg:37:7: 'reshape' to [B, (5*N/3), 3] keeps "
                "the element count: 5*B*N = 10 vs 3*(5*N/3)*B = 9");
  }
  SECTION("an input dimension declared as a product") {
    CHECK_ERROR(call("pr", {iota({2, 3}), iota({5})}), ShapeMismatch,
                "input 'z' of 'pr' must be f32[B*T]: dimension 0 is 5, but "
                "B*T = 6");
  }
  // Sizes that full and arange compute from the inputs' (difftest seed
  // 743210 ran a max over full([M, 1]) with M = 0).
  SECTION("max over a computed size that is empty") {
    CHECK_ERROR(call("fm", {iota({0, 2})}), ShapeMismatch,
                "'fm' at test.tg:45:7: 'max' over dimension 0, which is "
                "empty: 1 vs M = 0");
    CHECK_ERROR(call("ar", {iota({1})}), ShapeMismatch,
                "'ar' at test.tg:50:7: 'min' over dimension 0, which is "
                "empty: 1 vs (max((M-1),0)) = 0");
  }
  SECTION("output of another size than declared") {
    CHECK_ERROR(call("out", {iota({2, 2})}), ShapeMismatch,
                "'out' at test.tg:33:7: output 'y' differs from its declared "
                "size in dimension 0: 2*N = 4 vs N = 2");
  }
}

TEST_CASE("shape checks pass when the sizes agree", "[errors][shapes]") {
  auto rt = loadGraph(kShapes);
  Function &sl = fn(*rt, "sl"), &rs = fn(*rt, "rs"), &ad = fn(*rt, "ad"),
           &mm = fn(*rt, "mm"), &cc = fn(*rt, "cc");
  CHECK(values(callOk(sl, {iota({3, 5})})[0]) == std::vector<double>{0, 5});
  CHECK(values(callOk(rs, {iota({6})})[0]) == std::vector<double>{3, 5, 7});
  CHECK(values(callOk(ad, {iota({3, 2}), iota({2, 3})})[0]) ==
        std::vector<double>{30});
  CHECK(values(callOk(mm, {iota({4}), iota({4})})[0]) ==
        std::vector<double>{2, 3, 6, 11});
  CHECK(values(callOk(cc, {iota({4}), iota({2, 2})})[0]) ==
        std::vector<double>{6, 6});
  // Sizes computed from the inputs' symbols: (5*N/3) = 5, B*T = 6.
  std::vector<Array> dv = callOk(fn(*rt, "dv"), {iota({2, 3, 5})});
  CHECK(dv[0].shape() == Shape{2, 5, 3});
  CHECK(values(dv[0]).size() == 30);
  CHECK(values(callOk(fn(*rt, "pr"), {iota({2, 3}), iota({6})})[0]) ==
        std::vector<double>{0, 2, 4, 6, 8, 10});
  CHECK(values(storage(var(*rt, "S"))) == std::vector<double>{8, 8});
}

TEST_CASE("max over computed sizes runs when they are not empty",
          "[errors][shapes]") {
  auto rt = loadGraph(kShapes);
  std::vector<Array> fm = callOk(fn(*rt, "fm"), {iota({1, 2})});
  CHECK(values(fm[0]) == std::vector<double>{2});
  CHECK(values(fm[1]) == std::vector<double>{0});
  CHECK(values(callOk(fn(*rt, "ar"), {iota({2})})[0]) ==
        std::vector<double>{1});
  CHECK(values(storage(var(*rt, "S"))) == std::vector<double>{3, 3});
}
