//===- ReductionGradTest.cpp - grad of reductions vs differences ----------===//
//
// One test per reduction, over every axis choice of a [N, 3, 2] input (the
// dynamic axis reduced too), with and without keepdims.
//
//===----------------------------------------------------------------------===//

#include "test/grad/GradCheck.h"

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {

constexpr DTypeKind F64 = DTypeKind::F64;

struct Axes {
  std::string text; // the axis= argument, "" for none
  std::vector<int> axes;
};

/// `op(x, axis=..., keepdims=...)` for x : f64[N, 3, 2] with N = 3.
void checkReduction(const std::string &op, const std::string &extra,
                    RefTensor x) {
  const std::vector<Axes> choices = {{"", {0, 1, 2}},    {"0", {0}},
                                     {"1", {1}},         {"-1", {2}},
                                     {"[0, 2]", {0, 2}}, {"[1, 2]", {1, 2}}};
  const std::vector<std::string> dims = {"N", "3", "2"};
  const std::vector<int64_t> sizes = {3, 3, 2};
  for (const Axes &a : choices)
    for (bool keep : {false, true}) {
      INFO(op << " axis=" << a.text << " keepdims=" << keep);
      std::string type = "f64[";
      std::vector<int64_t> shape;
      for (int i = 0; i < 3; ++i) {
        bool reduced =
            std::find(a.axes.begin(), a.axes.end(), i) != a.axes.end();
        if (reduced && !keep)
          continue;
        type += std::string(shape.empty() ? "" : ", ") +
                (reduced ? "1" : dims[size_t(i)]);
        shape.push_back(reduced ? 1 : sizes[size_t(i)]);
      }
      GradCase c;
      c.expr = op + "(x" + (a.text.empty() ? "" : ", axis=" + a.text) +
               (keep ? ", keepdims=true" : "") + extra + ")";
      c.outType = type + "]";
      c.outShape = shape;
      c.inputs = {{"x", "f64[N, 3, 2]", x}};
      checkGrad(c);
    }
}

} // namespace

TEST_CASE("grad of sum", "[grad][reduction]") {
  checkReduction("sum", "", Random(51).uniform(F64, {3, 3, 2}, -1, 1));
}
TEST_CASE("grad of mean", "[grad][reduction]") {
  checkReduction("mean", "", Random(52).uniform(F64, {3, 3, 2}, -1, 1));
}
TEST_CASE("grad of max", "[grad][reduction]") {
  checkReduction("max", "", Random(53).uniform(F64, {3, 3, 2}, -1, 1));
}
TEST_CASE("grad of min", "[grad][reduction]") {
  checkReduction("min", "", Random(54).uniform(F64, {3, 3, 2}, -1, 1));
}
TEST_CASE("grad of prod", "[grad][reduction]") {
  checkReduction("prod", "",
                 Random(55).awayFromZero(F64, {3, 3, 2}, -1.5, 1.5, 0.3));
}
TEST_CASE("grad of prod with zeros", "[grad][reduction]") {
  // One zero in a group: the product of the others; two zeros: 0.
  RefTensor x = Random(56).awayFromZero(F64, {3, 3, 2}, -1.5, 1.5, 0.3);
  x.data[0] = 0;
  x.data[7] = 0;
  x.data[13] = 0;
  checkReduction("prod", "", x);
}
TEST_CASE("grad of logsumexp", "[grad][reduction]") {
  checkReduction("logsumexp", "", Random(57).uniform(F64, {3, 3, 2}, -3, 3));
}
TEST_CASE("grad of var", "[grad][reduction]") {
  checkReduction("var", "", Random(58).uniform(F64, {3, 3, 2}, -1, 1));
  checkReduction("var", ", ddof=1", Random(59).uniform(F64, {3, 3, 2}, -1, 1));
}
TEST_CASE("grad of std", "[grad][reduction]") {
  checkReduction("std", "", Random(60).uniform(F64, {3, 3, 2}, -1, 1));
  checkReduction("std", ", ddof=1", Random(61).uniform(F64, {3, 3, 2}, -1, 1));
}

TEST_CASE("grad of max splits ties equally", "[grad][reduction]") {
  tcc::e2e::Graph g("tg 1\nfunc f(x : f64[N, 3]) -> (gx : f64[N, 3]) {\n"
                    "  gx = grad(sum(max(x, axis=1)), [x])\n}\n");
  RefTensor x(F64, {2, 3}, {1, 4, 4, 2, 2, 2});
  auto o = g.call("f", {x});
  CHECK(tcc::e2e::toRef(o.outputs[0]).data ==
        std::vector<double>{0, 0.5, 0.5, 1 / 3.0, 1 / 3.0, 1 / 3.0});
}
