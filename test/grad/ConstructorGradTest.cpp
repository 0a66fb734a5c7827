//===- ConstructorGradTest.cpp - grad of constructors, scans and calls ----===//

#include "test/grad/GradCheck.h"

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {
constexpr DTypeKind F64 = DTypeKind::F64, I64 = DTypeKind::I64;
} // namespace

TEST_CASE("grad of cumsum (a reverse cumsum)", "[grad][scan]") {
  Random rng(151);
  GradCase c;
  c.expr = "cumsum(x, axis=1) * cumsum(x * x, axis=0)";
  c.outType = "f64[N, 4]";
  c.outShape = {3, 4};
  c.inputs = {{"x", "f64[N, 4]", rng.uniform(F64, {3, 4}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of cumprod away from zero", "[grad][scan]") {
  Random rng(152);
  GradCase c;
  c.expr = "cumprod(x, axis=1) + cumprod(x, axis=0)";
  c.outType = "f64[N, 4]";
  c.outShape = {3, 4};
  c.inputs = {
      {"x", "f64[N, 4]", rng.awayFromZero(F64, {3, 4}, -1.5, 1.5, 0.3)}};
  c.rtol = 1e-5;
  checkGrad(c);
}

TEST_CASE("grad of tril and triu is their mask", "[grad][constructors]") {
  Random rng(153);
  GradCase c;
  c.expr = "tril(x, -1) * x + triu(x * x, 1)";
  c.outType = "f64[2, N, 4]";
  c.outShape = {2, 3, 4};
  c.inputs = {{"x", "f64[2, N, 4]", rng.uniform(F64, {2, 3, 4}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of constants made from shapes is zero; of full, the sum",
          "[grad][constructors]") {
  Random rng(154);
  GradCase c;
  c.expr = "x * arange(N, dtype=f64) + zeros_like(x) + ones_like(x) * x + "
           "full([N], mean(x * x)) + "
           "reshape(matmul(eye(N, dtype=f64), reshape(x, shape=[N, 1])), "
           "shape=[N])";
  c.outType = "f64[N]";
  c.outShape = {4};
  c.inputs = {{"x", "f64[N]", rng.uniform(F64, {4}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad through random numbers is zero", "[grad][random-ops]") {
  Random rng(155);
  RefTensor state(I64, {2}, {12345, 6});
  GradCase c;
  c.expr = "x * random_uniform(rng, x) + random_normal(rng, x * x)";
  c.outType = "f64[N, 3]";
  c.outShape = {2, 3};
  c.inputs = {{"x", "f64[N, 3]", rng.uniform(F64, {2, 3}, -1, 1)},
              {"rng", "i64[2]", state, false}};
  checkGrad(c);
}

TEST_CASE("grad through a call of the file's own function", "[grad][calls]") {
  Random rng(156);
  GradCase c;
  c.functions = "func layer(x : f64[N, 3], w : f64[3, 2]) -> (y : f64[N, 2]) "
                "{\n  y = tanh(matmul(x, w))\n}\n";
  c.expr = "layer(x, w) * layer(x * x, w)";
  c.outType = "f64[N, 2]";
  c.outShape = {4, 2};
  c.inputs = {{"x", "f64[N, 3]", rng.uniform(F64, {4, 3}, -1, 1)},
              {"w", "f64[3, 2]", rng.uniform(F64, {3, 2}, -1, 1)}};
  checkGrad(c);
}
