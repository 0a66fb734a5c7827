//===- SliceChecksTest.cpp - slices of dynamic dimensions at run time -----===//
//
// A slice whose length is static on a dynamic dimension assumes that the
// dimension is long enough: a call that breaks it is a located
// ShapeMismatch and changes and allocates nothing. Any other slice has
// numpy's clamped length, for every size (0 included), with the values
// numpy gives.
//
//===----------------------------------------------------------------------===//

#include "../memory/MemoryTestUtil.h"
#include "ErrorTestUtil.h"

#include <optional>

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kSlices = R"(tg 1
shared S : f32[2] = ones
func fe(x : f32[N, 5]) -> (y : f32[3, 5]) {
  y = x[-3:]
  updates { S = S + 1 }
}
func ix(x : f32[N, 5]) -> (y : f32[5]) {
  y = x[2]
  updates { S = S + 1 }
}
func last(x : f32[N]) -> (y : f32[]) {
  y = x[-1]
  updates { S = S + 1 }
}
func col(x : f32[N, 5]) -> (y : f32[N, 1]) {
  y = slice(x, begin=[0, 4], end=[N, 5])
  updates { S = S + 1 }
}
func lg(x : bool[N, N]) -> (y : bool[1]) {
  y = (x | true)[:1, 0]
  updates { S = S + 1 }
}
func parts(x : f32[N]) -> (a : f32[R], b : f32[N], c : f32[Q], d : f32[P]) {
  a = x[1::2]
  b = x[::-1]
  c = x[-2::-2]
  d = x[:-1]
  updates { S = S + 1 }
}
)";

/// The indices Python's range(n)[begin:end:step] holds, written from the
/// language reference (the compiler's rules are in SliceRules.cpp).
std::vector<double> pythonSlice(int64_t n, std::optional<int64_t> begin,
                                std::optional<int64_t> end, int64_t step) {
  auto clamp = [&](std::optional<int64_t> v, int64_t open) {
    if (!v)
      return open;
    int64_t x = *v < 0 ? *v + n : *v;
    return step > 0 ? std::min(std::max<int64_t>(x, 0), n)
                    : std::min(std::max<int64_t>(x, -1), n - 1);
  };
  int64_t b = clamp(begin, step > 0 ? 0 : n - 1);
  int64_t e = clamp(end, step > 0 ? n : -1);
  std::vector<double> r;
  for (int64_t k = b; step > 0 ? k < e : k > e; k += step)
    r.push_back(double(k));
  return r;
}

} // namespace

TEST_CASE("slices that assume a long enough dimension refuse shorter ones",
          "[errors][shapes]") {
  auto rt = loadGraph(kSlices);
  SharedVariable &S = var(*rt, "S");
  auto call = [&](const char *f, std::vector<Array> inputs) {
    Array s0 = snapshot(storage(S));
    CounterSnapshot before = rt->counters().snapshot();
    Result<std::vector<Array>> r = fn(*rt, f).call(inputs);
    CHECK(storage(S).bitwiseEqual(s0));
    CounterSnapshot after = rt->counters().snapshot();
    CHECK(after.allocations == before.allocations);
    CHECK(after.bytesAllocated == before.bytesAllocated);
    CHECK(after.calls == before.calls);
    return r;
  };
  SECTION("x[-3:] of two rows") {
    CHECK_ERROR(call("fe", {iota({2, 5})}), ShapeMismatch,
                "'fe' at test.tg:4:8: 'slice' begins before the start of "
                "dimension 0 of its input: 3 vs N = 2");
  }
  SECTION("x[2] of two rows") {
    CHECK_ERROR(call("ix", {iota({2, 5})}), ShapeMismatch,
                "'ix' at test.tg:8:8: 'slice' ends past dimension 0 of its "
                "input: 3 vs N = 2");
  }
  SECTION("a slice of a logical op's result (its sizes were not followed)") {
    CHECK_ERROR(call("lg", {Array::full(DType::I1, {0, 0}, 0).value()}),
                ShapeMismatch,
                "'lg' at test.tg:20:17: 'slice' ends past dimension 0 of its "
                "input: 1 vs N = 0");
  }
  SECTION("x[-1] of nothing") {
    CHECK_ERROR(call("last", {iota({0})}), ShapeMismatch,
                "'last' at test.tg:12:8: 'slice' begins before the start of "
                "dimension 0 of its input: 1 vs N = 0");
  }
}

TEST_CASE("slices run when the dimension fits, and clamp as numpy's",
          "[errors][shapes]") {
  auto rt = loadGraph(kSlices);
  // x[-3:], x[2], x[-1] and slice(x, begin=[0, 4], end=[N, 5]).
  CHECK(values(callOk(fn(*rt, "fe"), {iota({3, 5})})[0]) ==
        values(iota({3, 5})));
  CHECK(values(callOk(fn(*rt, "ix"), {iota({4, 5})})[0]) ==
        std::vector<double>{10, 11, 12, 13, 14});
  CHECK(values(callOk(fn(*rt, "last"), {iota({4})})[0]) ==
        std::vector<double>{3});
  std::vector<Array> col = callOk(fn(*rt, "col"), {iota({3, 5})});
  CHECK(col[0].shape() == Shape{3, 1});
  CHECK(values(col[0]) == std::vector<double>{4, 9, 14});
  // Computed lengths for every size from 0, as Python gives them.
  for (int64_t n = 0; n <= 6; ++n) {
    INFO("N = " << n);
    std::vector<Array> out = callOk(fn(*rt, "parts"), {iota({n})});
    CHECK(values(out[0]) == pythonSlice(n, 1, std::nullopt, 2));
    CHECK(values(out[1]) == pythonSlice(n, std::nullopt, std::nullopt, -1));
    CHECK(values(out[2]) == pythonSlice(n, -2, std::nullopt, -2));
    CHECK(values(out[3]) == pythonSlice(n, std::nullopt, -1, 1));
    CHECK(out[0].shape() == Shape{int64_t(pythonSlice(n, 1, {}, 2).size())});
  }
}

TEST_CASE("negative steps and indices of static shapes, returned as views",
          "[errors][shapes]") {
  // Each output is a view of x (a negative stride) or computed from one.
  auto rt = loadGraph(R"(tg 1
func g(x : f32[4, 6]) -> (a : f32[4, 3], b : f32[3, 6], c : f32[6],
                          d : f32[2, 2], e : f32[0, 6]) {
  a = x[::-1, ::-2]
  b = x[-1:0:-1]
  c = x[-1]
  d = x[1:3, 4:1:-2] * 2
  e = x[3:1]
}
)");
  std::vector<Array> out = callOk(fn(*rt, "g"), {iota({4, 6})});
  auto at = [](int64_t r, int64_t c) { return double(6 * r + c); };
  std::vector<double> a, b, c, d;
  for (int64_t r = 3; r >= 0; --r)
    for (int64_t k = 5; k >= 0; k -= 2)
      a.push_back(at(r, k));
  for (int64_t r = 3; r > 0; --r)
    for (int64_t k = 0; k < 6; ++k)
      b.push_back(at(r, k));
  for (int64_t k = 0; k < 6; ++k)
    c.push_back(at(3, k));
  for (int64_t r = 1; r < 3; ++r)
    for (int64_t k = 4; k > 1; k -= 2)
      d.push_back(2 * at(r, k));
  CHECK(values(out[0]) == a);
  CHECK(values(out[1]) == b);
  CHECK(values(out[2]) == c);
  CHECK(values(out[3]) == d);
  CHECK(out[4].shape() == Shape{0, 6});
}
