//===- ExamplesTest.cpp - examples/{mlp,sgd,seeds}.tg end to end ----------===//

#include "test/e2e/Harness.h"

#include <cmath>

using namespace tcc::e2e;

namespace {

const DTypeKind F32 = DTypeKind::F32;

std::string example(const std::string &name) {
  return std::string(TCC_EXAMPLES_DIR) + "/" + name;
}

/// Contractions over 784 and 256 terms in f32, then softmax.
const Tolerance kDeep{1e-4, 1e-6};

} // namespace

TEST_CASE("mlp: predict and classify", "[examples]") {
  Graph g(readFile(example("mlp.tg")), example("mlp.tg"));
  Random rng(701);
  // The biases start at zero; make them matter.
  g.setShared("b1", rng.uniform(F32, {256}, -0.1, 0.1));
  g.setShared("b2", rng.uniform(F32, {10}, -0.5, 0.5));
  for (int64_t n : {1, 5, 32}) {
    INFO("N = " << n);
    RefTensor x = rng.uniform(F32, {n, 784}, 0, 1);
    Outcome p = g.call("predict", {x}, kDeep);
    // Probabilities: rows sum to 1.
    RefTensor probs = toRef(p.outputs[0]);
    for (int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (int64_t j = 0; j < 10; ++j)
        s += probs.data[size_t(i * 10 + j)];
      CHECK(std::fabs(s - 1) < 1e-5);
    }
    // classify: exact labels, except where two classes are within rounding
    // of each other (then either is right).
    tcc::Result<std::vector<tcc::Array>> c =
        g.function("classify").call(std::vector<tcc::Array>{toArray(x)});
    REQUIRE(c.ok());
    RefTensor labels = toRef(c.value()[0]);
    RefTensor expected =
        g.reference().call("classify", {x}, g.sharedValues()).outputs[0];
    const RefTensor &refProbs = p.expected.outputs[0];
    REQUIRE(labels.shape == expected.shape);
    CHECK(labels.dtype == DTypeKind::I64);
    for (int64_t i = 0; i < n; ++i) {
      int64_t got = int64_t(labels.data[size_t(i)]);
      int64_t want = int64_t(expected.data[size_t(i)]);
      if (got == want)
        continue;
      INFO("row " << i << ": label " << got << ", reference " << want);
      REQUIRE(got >= 0);
      REQUIRE(got < 10);
      double pg = refProbs.data[size_t(i * 10 + got)];
      double pw = refProbs.data[size_t(i * 10 + want)];
      CHECK(std::fabs(pg - pw) <= 1e-5 * pw);
    }
  }
}

TEST_CASE("sgd: train_step matches the reference and the loss decreases",
          "[examples][shared]") {
  Graph g(readFile(example("sgd.tg")), example("sgd.tg"));
  Random rng(702);
  // A separable toy problem: the label is the argmax of x @ T for a random
  // teacher T.
  const int64_t n = 32;
  RefTensor teacher = rng.uniform(F32, {784, 10}, -1, 1);
  auto batch = [&](RefTensor &x, RefTensor &y) {
    x = rng.uniform(F32, {n, 784}, 0, 1);
    y = RefTensor::filled(F32, {n, 10}, 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t best = 0;
      double bestScore = -1e300;
      for (int64_t c = 0; c < 10; ++c) {
        double s = 0;
        for (int64_t k = 0; k < 784; ++k)
          s += x.data[size_t(i * 784 + k)] * teacher.data[size_t(k * 10 + c)];
        if (s > bestScore) {
          bestScore = s;
          best = c;
        }
      }
      y.data[size_t(i * 10 + best)] = 1;
    }
  };
  RefTensor x, y;
  batch(x, y);
  RefTensor lr = RefTensor::scalar(F32, 0.02);
  std::vector<double> losses;
  for (int step = 0; step < 30; ++step) {
    INFO("step " << step);
    // The same batch every step: the loss must go down.
    Outcome o = g.call("train_step", {x, y, lr}, kDeep);
    losses.push_back(toRef(o.outputs[0]).data[0]);
  }
  INFO("losses: " << Catch::Detail::stringify(losses));
  // W and b start at zero: the first loss is log(10).
  CHECK(std::fabs(losses.front() - std::log(10.0)) < 1e-5);
  CHECK(losses.back() < 0.6 * losses.front());
  for (size_t i = 1; i < losses.size(); ++i)
    CHECK(losses[i] < losses[i - 1] + 1e-6);
  // predict after training, on a fresh batch of several sizes.
  for (int64_t m : {1, 7}) {
    RefTensor fresh = rng.uniform(F32, {m, 784}, 0, 1);
    g.call("predict", {fresh}, kDeep);
  }
}

TEST_CASE("sgd: batch sizes vary between steps", "[examples][dynamic]") {
  Graph g(readFile(example("sgd.tg")), example("sgd.tg"));
  Random rng(703);
  g.setShared("W", rng.uniform(F32, {784, 10}, -0.05, 0.05));
  g.setShared("b", rng.uniform(F32, {10}, -0.1, 0.1));
  for (int64_t n : {1, 8, 3, 20}) {
    INFO("N = " << n);
    RefTensor y = RefTensor::filled(F32, {n, 10}, 0);
    RefTensor labels = rng.uniform(DTypeKind::I64, {n}, 0, 9);
    for (int64_t i = 0; i < n; ++i)
      y.data[size_t(i * 10 + int64_t(labels.data[size_t(i)]))] = 1;
    g.call("train_step",
           {rng.uniform(F32, {n, 784}, 0, 1), y, RefTensor::scalar(F32, 0.1)},
           kDeep);
  }
}
