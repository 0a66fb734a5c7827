//===- LoopGradTest.cpp - backpropagation through time --------------------===//
//
// grad through scan against central finite differences: an Elman RNN over
// T = 1, 7 and 100 steps (one compiled graph, T dynamic), a backwards scan
// with an integer counter and a stacked output that is not a state, a
// counted loop, and a scan in a scan's body; grad through while with a
// run-time number of steps (from an input, and from the values).
//
//===----------------------------------------------------------------------===//

#include "test/grad/GradCheck.h"

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {
constexpr DTypeKind F64 = DTypeKind::F64, I64 = DTypeKind::I64;

const char *kRnn = "hT, hs = scan(h = h0, x in xs) {\n"
                   "  h1 = tanh(matmul(x, Wx) + matmul(h, Wh) + b)\n"
                   "  return h1, h1\n"
                   "}\n";
} // namespace

TEST_CASE("grad through scan: an Elman RNN, T = 1, 7 and 100",
          "[grad][loops]") {
  for (int64_t steps : {1, 7, 100}) {
    INFO("T = " << steps);
    Random rng(240 + uint64_t(steps));
    GradCase c;
    c.statements = kRnn;
    // The stacked states and the final one both carry adjoints back.
    c.expr = "hs + hT * hT";
    c.outType = "f64[T, 2, 4]";
    c.outShape = {steps, 2, 4};
    // Over 100 steps, differentiate the weights and the initial state
    // (the rows too for fewer steps), to keep the finite differences quick.
    c.inputs = {
        {"xs", "f64[T, 2, 3]", rng.uniform(F64, {steps, 2, 3}), steps < 100},
        {"h0", "f64[2, 4]", rng.uniform(F64, {2, 4})},
        {"Wx", "f64[3, 4]", rng.uniform(F64, {3, 4}, -0.8, 0.8)},
        {"Wh", "f64[4, 4]", rng.uniform(F64, {4, 4}, -0.5, 0.5)},
        {"b", "f64[4]", rng.uniform(F64, {4})}};
    c.rtol = 1e-5;
    c.atol = 1e-6;
    checkGrad(c);
  }
}

TEST_CASE("grad through scan: backwards, a counter, an output of its own",
          "[grad][loops]") {
  Random rng(2411);
  GradCase c;
  c.statements = "s, n, ys = scan(a = h0, k = c0, x in xs, go_backwards=true) "
                 "{\n"
                 "  return a * w + x * x, k + 1, sin(a) * cast(k, dtype=f64) + "
                 "x\n"
                 "}\n";
  c.expr = "ys * s";
  c.outType = "f64[T, 3]";
  c.outShape = {5, 3};
  c.inputs = {{"xs", "f64[T, 3]", rng.uniform(F64, {5, 3})},
              {"h0", "f64[3]", rng.uniform(F64, {3})},
              {"c0", "i64[]", RefTensor(I64, {}, {2}), false},
              {"w", "f64[3]", rng.uniform(F64, {3}, 0.5, 0.9)}};
  c.rtol = 1e-5;
  checkGrad(c);
}

TEST_CASE("grad through scan: a counted loop and a scan in a scan",
          "[grad][loops]") {
  Random rng(2412);
  GradCase counted;
  counted.statements = "v = scan(p = x0, n_steps=N) {\n"
                       "  return p * p * 0.5 + w\n"
                       "}\n";
  counted.expr = "v";
  counted.outType = "f64[N]";
  counted.outShape = {4};
  counted.inputs = {{"x0", "f64[N]", rng.uniform(F64, {4}, -0.5, 0.5)},
                    {"w", "f64[N]", rng.uniform(F64, {4}, -0.5, 0.5)}};
  checkGrad(counted);

  GradCase nested;
  nested.statements = "t, rows = scan(acc = a0, r in m) {\n"
                      "  u = scan(v = r, n_steps=3) {\n"
                      "    return tanh(v * acc + r)\n"
                      "  }\n"
                      "  return acc + u, u * acc\n"
                      "}\n";
  nested.expr = "rows + t";
  nested.outType = "f64[T, 3]";
  nested.outShape = {4, 3};
  nested.inputs = {{"m", "f64[T, 3]", rng.uniform(F64, {4, 3})},
                   {"a0", "f64[3]", rng.uniform(F64, {3})}};
  nested.rtol = 1e-5;
  checkGrad(nested);
}

TEST_CASE("grad through ifelse: only the branch taken", "[grad][loops]") {
  Random rng(2413);
  for (double shift : {-3.0, 3.0}) {
    INFO("shift " << shift);
    GradCase c;
    c.statements = "m = sum(x) + " + std::to_string(shift) + "\n";
    c.expr = "ifelse(m > 0, exp(x) * w, sin(w) * x)";
    c.outType = "f64[N, 3]";
    c.outShape = {2, 3};
    c.inputs = {{"x", "f64[N, 3]", rng.uniform(F64, {2, 3}, -0.4, 0.4)},
                {"w", "f64[N, 3]", rng.uniform(F64, {2, 3})}};
    checkGrad(c);
  }
}

TEST_CASE("grad through while: a run-time number of steps", "[grad][loops]") {
  // The number of steps comes from an input (0, 1, 7 and all 12), so the
  // backward pass differentiates exactly the steps that ran.
  for (int64_t stop : {0, 1, 7, 20}) {
    INFO("stop at " << stop);
    Random rng(2420 + uint64_t(stop));
    GradCase c;
    c.statements = "s, k, n = while(a = x0, k = zeros([], dtype=i64), "
                   "max_steps=12, cond=k < kmax) {\n"
                   "  return tanh(a * w + b), k + 1\n"
                   "}\n";
    c.expr = "s * s + w";
    c.outType = "f64[N]";
    c.outShape = {3};
    c.inputs = {{"x0", "f64[N]", rng.uniform(F64, {3})},
                {"kmax", "i64[]", RefTensor(I64, {}, {double(stop)}), false},
                {"w", "f64[N]", rng.uniform(F64, {3}, -0.9, 0.9)},
                {"b", "f64[N]", rng.uniform(F64, {3})}};
    c.rtol = 1e-5;
    checkGrad(c);
  }
}

TEST_CASE("grad through while: a condition on the values", "[grad][loops]") {
  // Grows until the norm passes 50 (5 steps from these values, far from
  // the boundary, so the finite differences take the same number).
  Random rng(2421);
  GradCase c;
  c.statements = "v, n = while(p = x0, max_steps=40, cond=sum(p * p) < 50) {\n"
                 "  return p * g + 0.1 * sin(p)\n"
                 "}\n";
  c.expr = "v * cast(n, dtype=f64)";
  c.outType = "f64[N]";
  c.outShape = {3};
  c.inputs = {{"x0", "f64[N]", RefTensor(F64, {3}, {0.5, -0.4, 0.7})},
              {"g", "f64[N]", RefTensor(F64, {3}, {2.0, 1.9, 2.1})}};
  c.rtol = 1e-5;
  checkGrad(c);
}
