//===- ExamplesGradTest.cpp - examples/mlp_train.tg and the doc's grad
//-----===//
//
// mlp_train.tg learns a separable problem; the examples in the Gradients
// section of docs/graph-format.md compile and compute what the text says.
//
//===----------------------------------------------------------------------===//

#include "test/grad/GradCheck.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

using namespace tcc::gradtest;
using namespace tcc::e2e;

namespace {

constexpr DTypeKind F32 = DTypeKind::F32;
constexpr DTypeKind F64 = DTypeKind::F64;

std::string source(const std::string &relative) {
  return std::string(TCC_SOURCE_DIR) + "/" + relative;
}

/// The fenced blocks of `doc` under the heading `## title` (to the next
/// `## ` or `### `).
std::vector<std::string> blocksUnder(const std::string &doc,
                                     const std::string &title) {
  size_t begin = doc.find("\n## " + title + "\n");
  REQUIRE(begin != std::string::npos);
  // The section ends at the next heading of level 2 or 3 (the sections
  // that follow Gradients have their own tests).
  size_t end =
      std::min(doc.find("\n## ", begin + 1), doc.find("\n### ", begin + 1));
  std::string section = doc.substr(begin, end - begin);
  std::vector<std::string> blocks;
  std::regex fence("```\n([^`]*)```");
  for (std::sregex_iterator it(section.begin(), section.end(), fence), stop;
       it != stop; ++it)
    blocks.push_back((*it)[1]);
  return blocks;
}

/// A batch of `n` examples of 64 features whose label is the argmax of
/// x @ teacher.
void teacherBatch(Random &rng, const RefTensor &teacher, int64_t n,
                  RefTensor &x, RefTensor &y) {
  x = rng.uniform(F32, {n, 64}, 0, 1);
  y = RefTensor::filled(F32, {n, 10}, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t best = 0;
    double bestScore = -1e300;
    for (int64_t c = 0; c < 10; ++c) {
      double s = 0;
      for (int64_t k = 0; k < 64; ++k)
        s += x.data[size_t(i * 64 + k)] * teacher.data[size_t(k * 10 + c)];
      if (s > bestScore) {
        bestScore = s;
        best = c;
      }
    }
    y.data[size_t(i * 10 + best)] = 1;
  }
}

} // namespace

TEST_CASE("mlp_train: the loss falls and the accuracy rises",
          "[grad][examples]") {
  std::string path = source("examples/mlp_train.tg");
  Graph g(readFile(path), path);
  Random rng(101);
  RefTensor teacher = rng.uniform(F32, {64, 10}, -1, 1);
  RefTensor x, y;
  teacherBatch(rng, teacher, 64, x, y);
  RefTensor lr = RefTensor::scalar(F32, 0.1);
  Outcome before = g.call("evaluate", {x, y}, Tolerance{1e-4, 1e-5});
  double firstLoss = toRef(before.outputs[0]).data[0];
  double last = firstLoss;
  for (int step = 0; step < 40; ++step) {
    INFO("step " << step);
    // Checked against the reference at every step: values and updates.
    Outcome o = g.call("train_step", {x, y, lr}, Tolerance{1e-3, 1e-4});
    last = toRef(o.outputs[0]).data[0];
  }
  Outcome after = g.call("evaluate", {x, y}, Tolerance{1e-3, 1e-4});
  CHECK(last < 0.5 * firstLoss);
  CHECK(toRef(after.outputs[1]).data[0] > toRef(before.outputs[1]).data[0]);
  CHECK(toRef(after.outputs[1]).data[0] >= 48);
}

TEST_CASE("docs/graph-format.md: the Gradients examples",
          "[grad][examples][docs]") {
  std::ifstream in(source("docs/graph-format.md"));
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> blocks = blocksUnder(text.str(), "Gradients");
  REQUIRE(blocks.size() == 3);

  // The SGD step: the loss falls on a fixed batch.
  Graph sgd(blocks[0], "graph-format.md");
  Random rng(102);
  RefTensor x = rng.uniform(F32, {8, 4}, -1, 1);
  RefTensor y = RefTensor::filled(F32, {8, 3}, 0);
  for (int i = 0; i < 8; ++i)
    y.data[size_t(i * 3 + (x.data[size_t(i * 4)] > 0 ? 0 : 1))] = 1;
  RefTensor lr = RefTensor::scalar(F32, 0.5);
  double first = toRef(sgd.call("train_step", {x, y, lr}).outputs[0]).data[0];
  double last = first;
  for (int i = 0; i < 30; ++i)
    last = toRef(sgd.call("train_step", {x, y, lr}).outputs[0]).data[0];
  CHECK(last < 0.7 * first);

  // The second derivative of sum(x ** 3) is 6 x.
  Graph second(blocks[1], "graph-format.md");
  RefTensor v(F64, {3}, {-1.5, 0.25, 2});
  RefTensor d2 = toRef(second.call("second", {v}).outputs[0]);
  for (size_t i = 0; i < 3; ++i)
    CHECK(std::fabs(d2.data[i] - 6 * v.data[i]) < 1e-12);

  // consider_constant: with c = x * x held, the gradient of sum(c * x) is
  // c, not 3 x ** 2.
  Graph held(blocks[2], "graph-format.md");
  RefTensor g = toRef(held.call("held", {v}).outputs[0]);
  for (size_t i = 0; i < 3; ++i)
    CHECK(std::fabs(g.data[i] - v.data[i] * v.data[i]) < 1e-12);
}
