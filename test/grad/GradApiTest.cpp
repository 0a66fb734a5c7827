//===- GradApiTest.cpp - GraphBuilder::grad from C++, second order, shared
//-===//

#include "test/compiler/GraphBuilderFixture.h"
#include "test/grad/GradCheck.h"

#include "dialects/tc/IR/TcOps.h"

using namespace tcc;
using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {
constexpr DTypeKind F64 = DTypeKind::F64;
} // namespace

TEST_CASE("GraphBuilder::grad builds tc ops with the operands' shapes",
          "[grad][api]") {
  test::Fixture f;
  tc::Shape nx3{tc::Dim::dynamic("N"), tc::Dim::fixed(3)};
  auto args = f.begin({f.spec("x", f.f32(), nx3, f.at(1, 1)),
                       f.spec("b", f.f32(), {tc::Dim::fixed(3)}, f.at(1, 2))},
                      {f.spec("gx", f.f32(), nx3, f.at(1, 3)),
                       f.spec("gb", f.f32(), {tc::Dim::fixed(3)}, f.at(1, 4))});
  mlir::Location loc = f.at(3, 3);
  TensorRef y =
      f.b.reduce(loc, ReduceKind::Sum,
                 f.b.unary(loc, UnaryKind::Tanh,
                           f.b.binary(loc, BinaryKind::Add, args[0], args[1])),
                 {}, false);
  llvm::SmallVector<TensorRef> g = f.b.grad(y, {args[0], args[1]}, loc);
  REQUIRE(g.size() == 2);
  REQUIRE(g[0]);
  REQUIRE(g[1]);
  CHECK(g[0].shape == nx3);
  CHECK(g[1].shape == tc::Shape{tc::Dim::fixed(3)});
  // b was broadcast along N: its gradient is a sum over axis 0.
  auto sum = g[1].value.getDefiningOp<tc::SumOp>();
  REQUIRE(sum);
  CHECK(sum.getAxes() == llvm::ArrayRef<int64_t>{0});
  REQUIRE(mlir::succeeded(f.b.endFunction(f.at(4, 1), {g[0], g[1]}, {})));
  CHECK(f.b.finish());
  CHECK(f.messages().empty());
}

TEST_CASE("GraphBuilder::grad of a value that does not depend on wrt is zero",
          "[grad][api]") {
  tcc::e2e::Graph g("tg 1\nfunc f(x : f64[N, 2], z : f64[N, 2]) -> "
                    "(gz : f64[N, 2], l : f64[]) {\n"
                    "  l = sum(x * x)\n  gz = grad(l, [z])\n}\n");
  Random rng(91);
  auto o = g.call("f", {rng.uniform(F64, {3, 2}), rng.uniform(F64, {3, 2})});
  CHECK(tcc::e2e::toRef(o.outputs[0]).data == std::vector<double>(6, 0.0));
}

TEST_CASE("GraphBuilder::grad reports a non-scalar y and an integer wrt",
          "[grad][api]") {
  test::Fixture f;
  tc::Shape three{tc::Dim::fixed(3)};
  auto args = f.begin({f.spec("x", f.f32(), three, f.at(1, 1)),
                       f.spec("i", f.i32(), three, f.at(1, 2))},
                      {});
  llvm::SmallVector<TensorRef> g = f.b.grad(args[0], {args[0]}, f.at(2, 5));
  REQUIRE(g.size() == 1);
  CHECK(!g[0]);
  f.requireOneError("grad differentiates a scalar, got f32[3]; reduce it "
                    "first (sum or mean)",
                    2, 5);
  TensorRef y = f.b.reduce(f.at(3, 1), ReduceKind::Sum, args[0], {}, false);
  g = f.b.grad(y, {args[1]}, f.at(3, 5), {f.at(3, 9)});
  CHECK(!g[0]);
  f.requireOneError("grad with respect to a tensor of i32[3]: only "
                    "floating-point tensors have gradients",
                    3, 9);
}

TEST_CASE("grad with respect to shared variables", "[grad][shared]") {
  tcc::e2e::Graph g(
      "tg 1\nshared W : f64[2, 3] = uniform(low=-1, high=1, seed=4)\n"
      "shared b : f64[3] = fill(0.5)\n"
      "func step(x : f64[N, 2], lr : f64[]) -> (loss : f64[]) {\n"
      "  loss = sum(tanh(matmul(x, W) + b) ** 2)\n"
      "  gW, gb = grad(loss, [W, b])\n"
      "  updates {\n    W = W - lr * gW\n    b = b - lr * gb\n  }\n}\n");
  Random rng(92);
  RefTensor x = rng.uniform(F64, {5, 2}), lr = RefTensor::scalar(F64, 0.05);
  double first = 0, last = 0;
  for (int i = 0; i < 20; ++i) {
    auto o = g.call("step", {x, lr});
    last = tcc::e2e::toRef(o.outputs[0]).data[0];
    if (i == 0)
      first = last;
  }
  CHECK(last < 0.5 * first);
}

TEST_CASE("grad of a gradient (second order)", "[grad][second-order]") {
  Random rng(93);
  GradCase c;
  c.statements = "  g1 = grad(sum(x * x * x * sin(x)), [x])\n";
  c.expr = "g1";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  c.inputs = {{"x", "f64[N, 3]", rng.uniform(F64, {4, 3}, -2, 2)}};
  checkGrad(c);
}

TEST_CASE("grad of a gradient through matmul and log_softmax",
          "[grad][second-order]") {
  Random rng(94);
  GradCase c;
  c.statements = "  g1 = grad(-sum(t * log_softmax(matmul(x, W), axis=1)), "
                 "[W])\n";
  c.expr = "g1 * g1";
  c.outType = "f64[3, 4]";
  c.outShape = {3, 4};
  RefTensor t = RefTensor::filled(F64, {5, 4}, 0);
  for (int i = 0; i < 5; ++i)
    t.data[size_t(i * 4 + i % 4)] = 1;
  c.inputs = {{"x", "f64[N, 3]", rng.uniform(F64, {5, 3}, -1, 1)},
              {"W", "f64[3, 4]", rng.uniform(F64, {3, 4}, -1, 1)},
              {"t", "f64[N, 4]", t, false}};
  checkGrad(c);
}

TEST_CASE("grad of a gradient through reductions and select",
          "[grad][second-order]") {
  Random rng(95);
  GradCase c;
  c.statements = "  g1 = grad(sum(relu(x) * mean(x * x, axis=0)) + "
                 "sum(softmax(x, axis=1) * x) + logsumexp(x), [x])\n";
  c.expr = "g1 * x";
  c.outType = "f64[N, 3]";
  c.outShape = {4, 3};
  c.inputs = {{"x", "f64[N, 3]", rng.awayFromZero(F64, {4, 3}, -2, 2, 0.1)}};
  checkGrad(c);
}
