//===- ElementwiseGradTest.cpp - grad of elementwise ops vs differences ---===//
//
// One test per op: unary math on a dynamic [N, 3], binary arithmetic with
// broadcasting ([N, 3] with [3], [N, 1] and a scalar), select and clip.
// Inputs stay away from the points where an op is not differentiable
// (0 for abs and relu, ties for maximum), where finite differences mean
// nothing.
//
//===----------------------------------------------------------------------===//

#include "test/grad/GradCheck.h"

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {

constexpr DTypeKind F64 = DTypeKind::F64;

/// `f(x)` for x : f64[N, 3] with N = 4, x drawn from [lo, hi] (|x| >= 0.1).
void checkUnary(const std::string &f, double lo, double hi,
                uint64_t seed = 11) {
  Random rng(seed);
  GradCase c;
  c.expr = f + "(x)";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  c.inputs = {{"x", "f64[N, 3]", rng.awayFromZero(F64, {4, 3}, lo, hi, 0.1)}};
  c.seed = seed;
  checkGrad(c);
}

/// `expr` of a : f64[N, 3] and b, broadcast, with b of each shape in turn.
void checkBinary(const std::string &expr, double lo, double hi,
                 uint64_t seed = 21) {
  struct Operand {
    std::string type;
    std::vector<int64_t> shape;
  };
  for (const Operand &b :
       {Operand{"f64[N, 3]", {4, 3}}, Operand{"f64[3]", {3}},
        Operand{"f64[N, 1]", {4, 1}}, Operand{"f64[]", {}}}) {
    INFO("b : " << b.type);
    Random rng(seed);
    GradCase c;
    c.expr = expr;
    c.outType = "f64[N, 3]";
    c.outShape = {4, 3};
    c.inputs = {{"a", "f64[N, 3]", rng.awayFromZero(F64, {4, 3}, lo, hi, 0.1)},
                {"b", b.type, rng.awayFromZero(F64, b.shape, lo, hi, 0.1)}};
    c.seed = seed;
    checkGrad(c);
  }
}

} // namespace

TEST_CASE("grad of neg", "[grad][elementwise]") { checkUnary("-", -2, 2); }
TEST_CASE("grad of abs", "[grad][elementwise]") { checkUnary("abs", -2, 2); }
TEST_CASE("grad of relu", "[grad][elementwise]") { checkUnary("relu", -2, 2); }
TEST_CASE("grad of exp", "[grad][elementwise]") { checkUnary("exp", -2, 2); }
TEST_CASE("grad of log", "[grad][elementwise]") { checkUnary("log", 0.2, 3); }
TEST_CASE("grad of tanh", "[grad][elementwise]") { checkUnary("tanh", -2, 2); }
TEST_CASE("grad of sigmoid", "[grad][elementwise]") {
  checkUnary("sigmoid", -3, 3);
}
TEST_CASE("grad of sqrt", "[grad][elementwise]") { checkUnary("sqrt", 0.2, 3); }
TEST_CASE("grad of rsqrt", "[grad][elementwise]") {
  checkUnary("rsqrt", 0.2, 3);
}
TEST_CASE("grad of erf", "[grad][elementwise]") { checkUnary("erf", -2, 2); }
TEST_CASE("grad of log1p", "[grad][elementwise]") {
  checkUnary("log1p", -0.5, 2);
}
TEST_CASE("grad of expm1", "[grad][elementwise]") {
  checkUnary("expm1", -2, 2);
}
TEST_CASE("grad of softplus", "[grad][elementwise]") {
  checkUnary("softplus", -3, 3);
}
TEST_CASE("grad of sin", "[grad][elementwise]") { checkUnary("sin", -3, 3); }
TEST_CASE("grad of cos", "[grad][elementwise]") { checkUnary("cos", -3, 3); }

TEST_CASE("grad of floor ceil round sign is zero", "[grad][elementwise]") {
  // Away from the jumps (x not near an integer or a half) the functions
  // are flat, and so are their finite differences.
  Random rng(31);
  GradCase c;
  c.expr = "floor(x) + ceil(x) + round(x) + sign(x) + x * 0.5";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  RefTensor x = rng.uniform(F64, {4, 3}, -3, 3);
  for (double &v : x.data)
    v = std::floor(v) + 0.3;
  c.inputs = {{"x", "f64[N, 3]", x}};
  checkGrad(c);
}

TEST_CASE("grad of add", "[grad][elementwise][broadcast]") {
  checkBinary("a + b", -2, 2);
}
TEST_CASE("grad of sub", "[grad][elementwise][broadcast]") {
  checkBinary("a - b", -2, 2);
}
TEST_CASE("grad of mul", "[grad][elementwise][broadcast]") {
  checkBinary("a * b", -2, 2);
}
TEST_CASE("grad of div", "[grad][elementwise][broadcast]") {
  checkBinary("a / b", -2, 2);
}
TEST_CASE("grad of pow", "[grad][elementwise][broadcast]") {
  checkBinary("a ** b", 0.3, 2);
}
TEST_CASE("grad of pow with a constant exponent and a negative base",
          "[grad][elementwise]") {
  Random rng(22);
  GradCase c;
  c.expr = "x ** 3 + x ** 2.0";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  c.inputs = {{"x", "f64[N, 3]", rng.awayFromZero(F64, {4, 3}, -2, 2, 0.1)}};
  checkGrad(c);
}
TEST_CASE("grad of maximum", "[grad][elementwise][broadcast]") {
  checkBinary("maximum(a, b)", -2, 2);
}
TEST_CASE("grad of minimum", "[grad][elementwise][broadcast]") {
  checkBinary("minimum(a, b)", -2, 2);
}

TEST_CASE("grad of maximum gives ties to the first operand",
          "[grad][elementwise]") {
  tcc::e2e::Graph g("tg 1\nfunc f(a : f64[3], b : f64[3]) -> (ga : f64[3], "
                    "gb : f64[3]) {\n  ga, gb = grad(sum(maximum(a, b)), [a, "
                    "b])\n}\n");
  RefTensor a(F64, {3}, {1, 2, 3}), b(F64, {3}, {1, 5, 0});
  auto o = g.call("f", {a, b});
  CHECK(tcc::e2e::toRef(o.outputs[0]).data == std::vector<double>{1, 0, 1});
  CHECK(tcc::e2e::toRef(o.outputs[1]).data == std::vector<double>{0, 1, 0});
}

TEST_CASE("grad of select", "[grad][elementwise][broadcast]") {
  Random rng(41);
  GradCase c;
  c.expr = "select(m > 0, a * 2, b)";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  c.inputs = {{"m", "f64[N, 3]", rng.uniform(F64, {4, 3}, -1, 1), false},
              {"a", "f64[N, 3]", rng.uniform(F64, {4, 3}, -1, 1)},
              {"b", "f64[3]", rng.uniform(F64, {3}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of clip", "[grad][elementwise][broadcast]") {
  Random rng(42);
  GradCase c;
  c.expr = "clip(x, lo, hi)";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  c.inputs = {{"x", "f64[N, 3]", rng.uniform(F64, {4, 3}, -2, 2)},
              {"lo", "f64[3]", RefTensor(F64, {3}, {-0.5, -1.03, 0.21})},
              {"hi", "f64[]", RefTensor::scalar(F64, 0.77)}};
  checkGrad(c);
}
