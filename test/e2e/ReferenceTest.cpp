//===- ReferenceTest.cpp - the reference interpreter on known answers -----===//
//
// The oracle is only as good as its semantics: these cases check it against
// values worked out by hand (no JIT involved).
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

#include <cmath>

using namespace tcc::e2e;
using tcc::reference::ReferenceError;

namespace {

const DTypeKind F32 = DTypeKind::F32, F64 = DTypeKind::F64,
                I32 = DTypeKind::I32, I64 = DTypeKind::I64, I1 = DTypeKind::I1;

/// Calls a function without shared variables and returns its outputs.
std::vector<RefTensor> run(ParsedGraph &g, const std::string &fn,
                           const std::vector<RefTensor> &inputs) {
  return g.reference().call(fn, inputs, {}).outputs;
}

void requireEqual(const RefTensor &actual, const RefTensor &expected) {
  CHECK(checkClose(expected, actual, "reference", {0, 0}));
}

} // namespace

TEST_CASE("reference: broadcasting and rounding and integer division",
          "[reference]") {
  ParsedGraph g(R"(tg 1
func add(a : f32[2, 1], b : f32[3]) -> (r : f32[2, 3]) { r = a + b }
func idiv(a : i32[4], b : i32[4]) -> (r : i32[4]) { r = a / b }
func fdiv(a : f64[2], b : f64[2]) -> (r : f64[2]) { r = a / b }
func ipow(a : i64[4], b : i64[4]) -> (r : i64[4]) { r = a ** b }
func mul(a : i32[1]) -> (r : i32[1]) { r = a * a }
)");
  requireEqual(
      run(g, "add",
          {RefTensor(F32, {2, 1}, {1, 10}), RefTensor(F32, {3}, {1, 2, 3})})[0],
      RefTensor(F32, {2, 3}, {2, 3, 4, 11, 12, 13}));
  // f32 results are rounded once: 0.1f + 0.2f as the hardware does it.
  std::vector<RefTensor> sum = run(
      g, "add",
      {RefTensor(F32, {2, 1}, {0.1, 1e8}), RefTensor(F32, {3}, {0.2, 1, 0})});
  CHECK(sum[0].data[0] == double(0.1f + 0.2f));
  CHECK(sum[0].data[4] == double(1e8f + 1.0f));
  requireEqual(run(g, "idiv",
                   {RefTensor(I32, {4}, {-7, 7, -7, 7}),
                    RefTensor(I32, {4}, {2, 2, -2, -2})})[0],
               RefTensor(I32, {4}, {-3, 3, 3, -3}));
  requireEqual(
      run(g, "fdiv",
          {RefTensor(F64, {2}, {-7, 1}), RefTensor(F64, {2}, {2, 3})})[0],
      RefTensor(F64, {2}, {-3.5, 1.0 / 3}));
  requireEqual(run(g, "ipow",
                   {RefTensor(I64, {4}, {-3, 2, 5, -1}),
                    RefTensor(I64, {4}, {3, 10, 0, 7})})[0],
               RefTensor(I64, {4}, {-27, 1024, 1, -1}));
  CHECK_THROWS_AS(run(g, "idiv",
                      {RefTensor(I32, {4}, {1, 2, 3, 4}),
                       RefTensor(I32, {4}, {1, 0, 1, 1})}),
                  ReferenceError);
  // The reference never wraps: 2^16 * 2^16 does not fit i32.
  CHECK_THROWS_AS(run(g, "mul", {RefTensor(I32, {1}, {65536})}),
                  ReferenceError);
  // A dynamic size broadcasts only against a static 1, not at run time.
  ParsedGraph d(R"(tg 1
func f(a : f32[N], b : f32[N]) -> (r : f32[N]) { r = a + b }
)");
  CHECK_THROWS_AS(
      run(d, "f", {RefTensor(F32, {3}, {1, 2, 3}), RefTensor(F32, {1}, {1})}),
      ReferenceError);
}

TEST_CASE("reference: casts", "[reference]") {
  ParsedGraph g(R"(tg 1
func toInt(x : f32[6]) -> (r : i32[6]) { r = cast(x, dtype=i32) }
func toBool(x : f32[6]) -> (r : bool[6]) { r = cast(x, dtype=bool) }
func fromBool(x : bool[2]) -> (r : f64[2], i : i64[2]) {
  r = cast(x, dtype=f64)
  i = cast(x, dtype=i64)
}
func narrow(x : f64[3]) -> (h : f16[3], b : bf16[3], f : f32[3]) {
  h = cast(x, dtype=f16)
  b = cast(x, dtype=bf16)
  f = cast(x, dtype=f32)
}
)");
  RefTensor x(F32, {6}, {-1.7, 1.7, 2.5, -0.5, 0, 3});
  requireEqual(run(g, "toInt", {x})[0],
               RefTensor(I32, {6}, {-1, 1, 2, 0, 0, 3}));
  requireEqual(run(g, "toBool", {x})[0],
               RefTensor(I1, {6}, {1, 1, 1, 1, 0, 1}));
  std::vector<RefTensor> b = run(g, "fromBool", {RefTensor(I1, {2}, {1, 0})});
  requireEqual(b[0], RefTensor(F64, {2}, {1, 0}));
  requireEqual(b[1], RefTensor(I64, {2}, {1, 0}));
  std::vector<RefTensor> n =
      run(g, "narrow", {RefTensor(F64, {3}, {1.0 / 3, 65519, 1 + 1e-9})});
  // f16: 1/3 -> 0.333251953125; 65519 rounds to 65504 (ties to even would
  // give 65536 = inf only from 65520 on).
  CHECK(n[0].data[0] == 0.333251953125);
  CHECK(n[0].data[1] == 65504);
  CHECK(n[0].data[2] == 1);
  CHECK(n[1].data[0] == 0.333984375);
  CHECK(n[2].data[0] == double(float(1.0 / 3)));
}

TEST_CASE("reference: reductions and argmax ties and softmax", "[reference]") {
  ParsedGraph g(R"(tg 1
func red(x : f32[2, 3]) -> (s0 : f32[3], s1 : f32[2, 1], all : f32[],
                            mx : f32[2], mn : f32[3], pr : f32[2], avg : f32[2]) {
  s0 = sum(x, axis=0)
  s1 = sum(x, axis=1, keepdims=true)
  all = sum(x)
  mx = max(x, axis=1)
  mn = min(x, axis=0)
  pr = prod(x, axis=-1)
  avg = mean(x, axis=1)
}
func am(x : f32[2, 3]) -> (a1 : i64[2], a0 : i64[1, 3]) {
  a1 = argmax(x, axis=1)
  a0 = argmax(x, axis=0, keepdims=true)
}
func sm(x : f64[2, 2]) -> (p : f64[2, 2], l : f64[2, 2]) {
  p = softmax(x, axis=1)
  l = log_softmax(x, axis=1)
}
)");
  std::vector<RefTensor> r =
      run(g, "red", {RefTensor(F32, {2, 3}, {1, 3, 3, 2, 2, -1})});
  requireEqual(r[0], RefTensor(F32, {3}, {3, 5, 2}));
  requireEqual(r[1], RefTensor(F32, {2, 1}, {7, 3}));
  requireEqual(r[2], RefTensor(F32, {}, {10}));
  requireEqual(r[3], RefTensor(F32, {2}, {3, 2}));
  requireEqual(r[4], RefTensor(F32, {3}, {1, 2, -1}));
  requireEqual(r[5], RefTensor(F32, {2}, {9, -4}));
  requireEqual(r[6], RefTensor(F32, {2}, {7.0 / 3, 1}));
  std::vector<RefTensor> a =
      run(g, "am", {RefTensor(F32, {2, 3}, {1, 3, 3, 2, 2, 3})});
  requireEqual(a[0], RefTensor(I64, {2}, {1, 2}));
  requireEqual(a[1], RefTensor(I64, {1, 3}, {1, 0, 0}));
  std::vector<RefTensor> s =
      run(g, "sm", {RefTensor(F64, {2, 2}, {0, std::log(3.0), 1000, 1000})});
  CHECK(checkClose(RefTensor(F64, {2, 2}, {0.25, 0.75, 0.5, 0.5}), s[0],
                   "softmax"));
  CHECK(checkClose(
      RefTensor(F64, {2, 2},
                {std::log(0.25), std::log(0.75), std::log(0.5), std::log(0.5)}),
      s[1], "log_softmax"));
}

TEST_CASE("reference: reductions over no elements, as numpy", "[reference]") {
  ParsedGraph g(R"(tg 1
func idle(x : f32[R, C]) -> (s : f32[R], m : f32[R], p : f32[R]) {
  s = sum(x, axis=1)
  m = mean(x, axis=1)
  p = prod(x, axis=1)
}
func mx(x : f32[R, C]) -> (y : f32[R]) { y = max(x, axis=1) }
func mn(x : f32[R, C]) -> (y : f32[C]) { y = min(x, axis=0) }
func am(x : f32[R, C]) -> (y : i64[R]) { y = argmax(x, axis=1) }
)");
  // sum, mean and prod have identities: 0, NaN (0 / 0) and 1.
  std::vector<RefTensor> r = run(g, "idle", {RefTensor(F32, {2, 0}, {})});
  requireEqual(r[0], RefTensor(F32, {2}, {0, 0}));
  CHECK(std::isnan(r[1].data[0]));
  requireEqual(r[2], RefTensor(F32, {2}, {1, 1}));
  // max, min and argmax have none: numpy raises, even when there is no
  // output element to give ([0, 0] along axis 1).
  for (std::vector<int64_t> shape : {std::vector<int64_t>{2, 0}, {0, 0}}) {
    CHECK_THROWS_AS(run(g, "mx", {RefTensor(F32, shape, {})}), ReferenceError);
    CHECK_THROWS_AS(run(g, "am", {RefTensor(F32, shape, {})}), ReferenceError);
  }
  CHECK_THROWS_AS(run(g, "mn", {RefTensor(F32, {0, 3}, {})}), ReferenceError);
  // Over a non-empty axis an empty output is fine.
  CHECK(run(g, "mx", {RefTensor(F32, {0, 3}, {})})[0].data.empty());
}

TEST_CASE("reference: matmul and data movement and parallel updates",
          "[reference]") {
  ParsedGraph g(R"(tg 1
shared a : f32[2] = zeros
shared b : f32[2] = zeros
func mm(x : f32[2, 1, 2], y : f32[2, 1]) -> (r : f32[2, 1, 1]) {
  r = matmul(x, y)
}
func moves(x : i32[2, 3]) -> (t : i32[3, 2], s : i32[2, 2], c : i32[2, 5],
                              rs : i32[3, 2], bt : i32[2, 2, 3]) {
  t = transpose(x)
  s = slice(x, begin=[0, 0], end=[2, 3], step=[1, 2])
  c = concat(x, s, axis=1)
  rs = reshape(x, shape=[-1, 2])
  bt = broadcast_to(x, shape=[2, 2, 3])
}
func swap() -> () {
  updates {
    a = b
    b = a
  }
}
)");
  requireEqual(run(g, "mm",
                   {RefTensor(F32, {2, 1, 2}, {1, 2, 3, 4}),
                    RefTensor(F32, {2, 1}, {10, 100})})[0],
               RefTensor(F32, {2, 1, 1}, {210, 430}));
  std::vector<RefTensor> m =
      run(g, "moves", {RefTensor(I32, {2, 3}, {1, 2, 3, 4, 5, 6})});
  requireEqual(m[0], RefTensor(I32, {3, 2}, {1, 4, 2, 5, 3, 6}));
  requireEqual(m[1], RefTensor(I32, {2, 2}, {1, 3, 4, 6}));
  requireEqual(m[2], RefTensor(I32, {2, 5}, {1, 2, 3, 1, 3, 4, 5, 6, 4, 6}));
  requireEqual(m[3], RefTensor(I32, {3, 2}, {1, 2, 3, 4, 5, 6}));
  requireEqual(m[4],
               RefTensor(I32, {2, 2, 3}, {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}));
  tcc::reference::CallResult swapped = g.reference().call(
      "swap", {},
      {{"a", RefTensor(F32, {2}, {1, 2})}, {"b", RefTensor(F32, {2}, {3, 4})}});
  requireEqual(swapped.shared.at("a"), RefTensor(F32, {2}, {3, 4}));
  requireEqual(swapped.shared.at("b"), RefTensor(F32, {2}, {1, 2}));
}
