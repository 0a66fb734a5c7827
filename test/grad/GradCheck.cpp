//===- GradCheck.cpp - gradients against central finite differences ------===//

#include "test/grad/GradCheck.h"

#include <cmath>

using namespace tcc;
using namespace tcc::gradtest;
using e2e::Graph;
using e2e::Outcome;
using e2e::Random;
using e2e::Tolerance;

namespace {

std::string paramList(const GradCase &c) {
  std::string text;
  for (const Input &in : c.inputs)
    text += in.name + " : " + in.type + ", ";
  return text + "w__ : " + c.outType;
}

std::string lossExpr(const GradCase &c) {
  return "sum((" + c.expr + ") * w__)";
}

} // namespace

std::string tcc::gradtest::gradSource(const GradCase &c) {
  std::string text = "tg 1\n" + c.functions + "func loss(" + paramList(c) +
                     ") -> (l : f64[]) {\n" + c.statements +
                     "  l = " + lossExpr(c) + "\n}\n";
  std::string outs, names, wrt;
  for (const Input &in : c.inputs) {
    if (!in.wrt)
      continue;
    std::string g = "g_" + in.name;
    outs += (outs.empty() ? "" : ", ") + g + " : " + in.type;
    names += (names.empty() ? "" : ", ") + g;
    wrt += (wrt.empty() ? "" : ", ") + in.name;
  }
  text += "func gradient(" + paramList(c) + ") -> (" + outs + ") {\n" +
          c.statements + "  " + names + " = grad(" + lossExpr(c) + ", [" + wrt +
          "])\n}\n";
  return text;
}

void tcc::gradtest::checkGrad(const GradCase &c) {
  std::string source = gradSource(c);
  INFO("graph:\n" << source);
  Graph g(source);
  Random rng(c.seed);
  std::vector<RefTensor> args;
  for (const Input &in : c.inputs)
    args.push_back(in.value);
  args.push_back(rng.uniform(DTypeKind::F64, c.outShape, -1, 1));
  Outcome o = g.call("gradient", args, Tolerance{1e-9, 1e-10});

  auto loss = [&](const std::vector<RefTensor> &at) {
    return g.reference().call("loss", at, {}).outputs.at(0).data.at(0);
  };
  size_t out = 0;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (!c.inputs[i].wrt)
      continue;
    RefTensor got = e2e::toRef(o.outputs.at(out++));
    REQUIRE(got.shape == args[i].shape);
    for (size_t k = 0; k < args[i].data.size(); ++k) {
      std::vector<RefTensor> plus = args, minus = args;
      double x = args[i].data[k];
      double h = c.step * std::max(1.0, std::fabs(x));
      plus[i].data[k] = x + h;
      minus[i].data[k] = x - h;
      double fd = (loss(plus) - loss(minus)) / (2 * h);
      double err = std::fabs(got.data[k] - fd);
      INFO("d loss / d " << c.inputs[i].name << "[" << k << "]: grad "
                         << got.data[k] << ", finite difference " << fd);
      CHECK(err <= c.atol + c.rtol * std::fabs(fd));
    }
  }
}
