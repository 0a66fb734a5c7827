//===- RandomGradTest.cpp - grad of random scalar graphs vs differences ---===//
//
// The differential test of grad: seeded random expressions over float64
// inputs of shapes [N, 3], [3], [N, 1] and [] (leaves broadcast them),
// made of the differentiable ops with their domains guarded (log of
// |x| + 1, division by |x| + 1, sqrt of x*x + 1, exp of tanh), reductions
// with keepdims broadcast back, matmul by a [3, 3] input, softmax and
// log_softmax; grad of their weighted sum is checked against central
// finite differences (GradCheck.h). A seed is one test, and the whole
// expression is printed on failure.
//
//===----------------------------------------------------------------------===//

#include "test/grad/GradCheck.h"

#include <random>

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {

constexpr DTypeKind F64 = DTypeKind::F64;

/// Random expressions of shape [N, 3] (a leaf may broadcast to it).
class ExprGenerator {
public:
  explicit ExprGenerator(uint64_t seed) : rng(seed) {}

  std::string expr(int depth) {
    if (depth == 0 || pick(4) == 0)
      return leaf();
    std::string a = expr(depth - 1);
    switch (pick(12)) {
    case 0:
      return "(" + a + " + " + expr(depth - 1) + ")";
    case 1:
      return "(" + a + " - " + expr(depth - 1) + ")";
    case 2:
      return "(" + a + " * " + expr(depth - 1) + ")";
    case 3:
      return "(" + a + " / (abs(" + expr(depth - 1) + ") + 1))";
    case 4: {
      static const char *safe[] = {"tanh", "sigmoid",  "sin", "cos",
                                   "erf",  "softplus", "-"};
      return std::string(safe[pick(7)]) + "(" + a + ")";
    }
    case 5: {
      static const char *guarded[] = {"log(abs(%) + 1)",    "sqrt(% * % + 1)",
                                      "exp(tanh(%))",       "log1p(abs(%))",
                                      "expm1(tanh(%))",     "rsqrt(% * % + 1)",
                                      "(abs(%) + 1) ** 1.5"};
      std::string f = guarded[pick(7)];
      std::string out;
      for (char ch : f)
        out += ch == '%' ? a : std::string(1, ch);
      return out;
    }
    case 6: {
      static const char *reductions[] = {"sum",       "mean", "max", "min",
                                         "logsumexp", "var",  "std", "prod"};
      std::string axis = pick(2) ? "0" : "1";
      std::string arg = a;
      if (pick(8) == 0)
        arg = "tanh(" + a + ") + 2"; // std and prod far from 0
      return "(" + a + " * " + reductions[pick(8)] + "(" + arg +
             ", axis=" + axis + ", keepdims=true))";
    }
    case 7:
      return "matmul(" + a + ", m)";
    case 8:
      return std::string(pick(2) ? "softmax" : "log_softmax") + "(" + a +
             ", axis=" + (pick(2) ? "0" : "1") + ")";
    case 9:
      return "select(" + expr(depth - 1) + " > 0.1, " + a + ", " +
             expr(depth - 1) + ")";
    case 10:
      return std::string(pick(2) ? "maximum" : "minimum") + "(" + a + ", " +
             expr(depth - 1) + ")";
    default:
      return "reshape(transpose(reshape(" + a +
             ", shape=[N, 3, 1]), perm=[0, 2, 1]), shape=[N, 3])";
    }
  }

private:
  /// Every leaf has the shape [N, 3]: the inputs of other shapes enter
  /// broadcast.
  std::string leaf() {
    static const char *leaves[] = {"a", "(a + b)", "(c * a)", "(a - s)",
                                   "(b * c)"};
    return leaves[pick(5)];
  }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  std::mt19937_64 rng;
};

} // namespace

TEST_CASE("grad of random scalar graphs matches finite differences",
          "[grad][random]") {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    ExprGenerator gen(seed);
    Random rng(1000 + seed);
    GradCase c;
    c.expr = gen.expr(4);
    c.outType = "f64[N, 3]";
    c.outShape = {3, 3};
    c.inputs = {{"a", "f64[N, 3]", rng.uniform(F64, {3, 3}, -2, 2)},
                {"b", "f64[3]", rng.uniform(F64, {3}, -2, 2)},
                {"c", "f64[N, 1]", rng.uniform(F64, {3, 1}, -2, 2)},
                {"s", "f64[]", rng.uniform(F64, {}, -2, 2)},
                {"m", "f64[3, 3]", rng.uniform(F64, {3, 3}, -1, 1)}};
    c.seed = seed;
    // Products of several transcendental functions: finite differences
    // lose a few more digits.
    c.rtol = 1e-5;
    c.atol = 1e-6;
    INFO("seed " << seed << ": " << c.expr);
    checkGrad(c);
  }
}
