//===- DataMovementGradTest.cpp - grad of ops that move elements ----------===//

#include "test/grad/GradCheck.h"

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {
constexpr DTypeKind F64 = DTypeKind::F64;
} // namespace

TEST_CASE("grad of reshape", "[grad][data-movement]") {
  Random rng(81);
  GradCase c;
  c.expr = "reshape(x, shape=[N, 6]) * reshape(x, shape=[N, -1])";
  c.outType = "f64[N, 6]";
  c.outShape = {2, 6};
  c.inputs = {{"x", "f64[N, 2, 3]", rng.uniform(F64, {2, 2, 3}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of transpose", "[grad][data-movement]") {
  Random rng(82);
  GradCase c;
  c.expr = "transpose(x, perm=[2, 0, 1])";
  c.outType = "f64[3, N, 2]";
  c.outShape = {3, 4, 2};
  c.inputs = {{"x", "f64[N, 2, 3]", rng.uniform(F64, {4, 2, 3}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of broadcast_to", "[grad][data-movement][broadcast]") {
  Random rng(83);
  GradCase c;
  c.expr = "broadcast_to(x, shape=[2, 4, 3])";
  c.outType = "f64[2, 4, 3]";
  c.outShape = {2, 4, 3};
  c.inputs = {{"x", "f64[4, 1]", rng.uniform(F64, {4, 1}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of cast", "[grad][data-movement]") {
  // Through f32 and back: the finite differences see f32 rounding, so the
  // step is large and the tolerance that of f32.
  Random rng(84);
  GradCase c;
  c.expr = "cast(cast(x, dtype=f32) * cast(x, dtype=f32), dtype=f64)";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  c.inputs = {{"x", "f64[N, 3]", rng.uniform(F64, {4, 3}, -1, 1)}};
  c.step = 1e-2;
  c.rtol = 1e-4;
  c.atol = 1e-4;
  checkGrad(c);
}

TEST_CASE("grad through integer casts, comparisons and argmax is zero",
          "[grad][data-movement]") {
  Random rng(85);
  GradCase c;
  c.expr = "x * 2 + cast(cast(x * 3, dtype=i64), dtype=f64) + "
           "cast(x > 0.25, dtype=f64) + cast(argmax(x, axis=1, "
           "keepdims=true), dtype=f64)";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  RefTensor x = rng.uniform(F64, {4, 3}, -1, 1);
  // Away from the jumps of the integer cast (3x is k + 0.5 + ...) and of
  // the comparison, and no ties in a row for argmax.
  for (size_t i = 0; i < x.data.size(); ++i)
    x.data[i] = (std::round(x.data[i] * 3) + 0.5) / 3 + 0.01 * double(i % 3);
  c.inputs = {{"x", "f64[N, 3]", x}};
  checkGrad(c);
}

TEST_CASE("grad of slice", "[grad][data-movement]") {
  Random rng(86);
  GradCase c;
  c.expr = "slice(x, begin=[1, 0], end=[6, 4], step=[2, 3])";
  c.outType = "f64[3, 2]";
  c.outShape = {3, 2};
  c.inputs = {{"x", "f64[7, 5]", rng.uniform(F64, {7, 5}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of concat", "[grad][data-movement]") {
  Random rng(87);
  GradCase c;
  c.expr = "concat(a, b * b, a, axis=1)";
  c.outType = "f64[2, 7]";
  c.outShape = {2, 7};
  c.inputs = {{"a", "f64[2, 2]", rng.uniform(F64, {2, 2}, -1, 1)},
              {"b", "f64[2, 3]", rng.uniform(F64, {2, 3}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of numpy slices: negative bounds and steps",
          "[grad][data-movement]") {
  Random rng(87);
  GradCase c;
  c.expr = "x[::-1, 1:] * x[-1::-2, -3:][1:2, ::-1] + x[-2:0:-3, :3]";
  c.outType = "f64[5, 3]";
  c.outShape = {5, 3};
  c.inputs = {{"x", "f64[5, 4]", rng.uniform(F64, {5, 4}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of slices and concatenations of dynamic batches",
          "[grad][data-movement]") {
  // The sliced or joined axes are static; the batch N is taken whole.
  Random rng(88);
  GradCase c;
  c.expr = "x[:, 1:] * x[:, ::-2][:, 0:1] + "
           "concat(x[:, 2:], x[:, :1] * x[:, :1], axis=1) + x[:, 0::3][:, 1:]";
  c.outType = "f64[N, 3]";
  c.outShape = {3, 3};
  c.inputs = {{"x", "f64[N, 4]", rng.uniform(F64, {3, 4}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of concat along symbolic sizes", "[grad][data-movement]") {
  // The pieces' offsets along the joined axis are known at run time only:
  // N, then N + M, then N + M + 2.
  Random rng(89);
  GradCase c;
  c.expr = "sum(concat(x, y * y, s, axis=0) ** 3, axis=0, keepdims=true) + "
           "sum(concat(s, x, axis=0) * 2, axis=0, keepdims=true)";
  c.outType = "f64[1, 3]";
  c.outShape = {1, 3};
  c.inputs = {{"x", "f64[N, 3]", rng.uniform(F64, {4, 3}, -1, 1)},
              {"y", "f64[M, 3]", rng.uniform(F64, {3, 3}, -1, 1)},
              {"s", "f64[2, 3]", rng.uniform(F64, {2, 3}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of slices along symbolic sizes", "[grad][data-movement]") {
  // The picked positions along N and M start where numpy's clamped bounds
  // put them for the run-time sizes: from the start, from the end, with
  // negative steps, a static length of a dynamic axis, and a slice of a
  // slice. The lengths are expressions of N and M, so the loss sums them.
  for (auto [n, m] : {std::pair<int64_t, int64_t>{7, 6}, {2, 3}}) {
    Random rng(90 + n);
    GradCase c;
    c.statements = "  a = x[1:-1:2, 1:]\n"
                   "  b = x[::-2, -3:]\n"
                   "  d = x[-2::-3, :2][1:, ::-1]\n";
    c.expr = "sum(a * a, axis=[0, 1], keepdims=true) + "
             "sum(b ** 3, axis=[0, 1], keepdims=true) + "
             "sum(d * d * d * 2, axis=[0, 1], keepdims=true)";
    c.outType = "f64[1, 1]";
    c.outShape = {1, 1};
    c.inputs = {{"x", "f64[N, M]", rng.uniform(F64, {n, m}, -1, 1)}};
    INFO("N, M = " << n << ", " << m);
    checkGrad(c);
  }
}
