//===- ContractionGradTest.cpp - grad of matmul and softmax ---------------===//

#include "test/grad/GradCheck.h"

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {
constexpr DTypeKind F64 = DTypeKind::F64;
} // namespace

TEST_CASE("grad of matmul", "[grad][contraction]") {
  Random rng(71);
  GradCase c;
  c.expr = "matmul(a, b)";
  c.outType = "f64[N, 2]";
  c.outShape = {4, 2};
  c.inputs = {{"a", "f64[N, 3]", rng.uniform(F64, {4, 3}, -1, 1)},
              {"b", "f64[3, 2]", rng.uniform(F64, {3, 2}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of batched matmul", "[grad][contraction]") {
  Random rng(72);
  GradCase c;
  c.expr = "matmul(a, b)";
  c.outType = "f64[B, 3, 4]";
  c.outShape = {2, 3, 4};
  c.inputs = {{"a", "f64[B, 3, 2]", rng.uniform(F64, {2, 3, 2}, -1, 1)},
              {"b", "f64[B, 2, 4]", rng.uniform(F64, {2, 2, 4}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of matmul rank 3 by rank 2", "[grad][contraction]") {
  Random rng(73);
  GradCase c;
  c.expr = "matmul(a, b)";
  c.outType = "f64[B, 3, 4]";
  c.outShape = {2, 3, 4};
  c.inputs = {{"a", "f64[B, 3, 2]", rng.uniform(F64, {2, 3, 2}, -1, 1)},
              {"b", "f64[2, 4]", rng.uniform(F64, {2, 4}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of matmul with broadcast batch", "[grad][contraction]") {
  Random rng(74);
  GradCase c;
  c.expr = "matmul(a, b)";
  c.outType = "f64[2, 3, 4]";
  c.outShape = {2, 3, 4};
  c.inputs = {{"a", "f64[1, 3, 2]", rng.uniform(F64, {1, 3, 2}, -1, 1)},
              {"b", "f64[2, 2, 4]", rng.uniform(F64, {2, 2, 4}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of softmax", "[grad][contraction]") {
  for (int axis : {0, 1}) {
    INFO("axis " << axis);
    Random rng(75);
    GradCase c;
    c.expr = "softmax(x, axis=" + std::to_string(axis) + ")";
    c.outType = "f64[N, 5]";
    c.outShape = {3, 5};
    c.inputs = {{"x", "f64[N, 5]", rng.uniform(F64, {3, 5}, -3, 3)}};
    checkGrad(c);
  }
}

TEST_CASE("grad of log_softmax", "[grad][contraction]") {
  for (int axis : {0, -1}) {
    INFO("axis " << axis);
    Random rng(76);
    GradCase c;
    c.expr = "log_softmax(x, axis=" + std::to_string(axis) + ")";
    c.outType = "f64[N, 5]";
    c.outShape = {3, 5};
    c.inputs = {{"x", "f64[N, 5]", rng.uniform(F64, {3, 5}, -3, 3)}};
    checkGrad(c);
  }
}

TEST_CASE("grad of log_softmax stays finite for large logits",
          "[grad][contraction]") {
  // exp(800) overflows; the gradient, built from the results, does not.
  tcc::e2e::Graph g(
      "tg 1\nfunc f(x : f64[2, 3], y : f64[2, 3]) -> (gx : f64[2, 3]) {\n"
      "  gx = grad(-sum(y * log_softmax(x, axis=1)), [x])\n}\n");
  RefTensor x(F64, {2, 3}, {800, 0, -800, 1, 2, 1000});
  RefTensor y(F64, {2, 3}, {1, 0, 0, 0, 1, 0});
  auto o = g.call("f", {x, y});
  RefTensor gx = tcc::e2e::toRef(o.outputs[0]);
  // softmax - onehot: [0, 0, 0] and [0, -1, 1] up to rounding.
  std::vector<double> want = {0, 0, 0, 0, -1, 1};
  for (size_t i = 0; i < want.size(); ++i)
    CHECK(std::fabs(gx.data[i] - want[i]) < 1e-12);
}
