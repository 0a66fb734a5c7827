//===- IndexingGradTest.cpp - grad of gathers, scatters, dynamic slices ---===//
//
// One finite-difference check per op of the indexing family: the ids are
// inputs without gradient, with repeated and negative ids where the op
// allows them (their adjoints must add up).
//
//===----------------------------------------------------------------------===//

#include "test/grad/GradCheck.h"

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {
constexpr DTypeKind F64 = DTypeKind::F64, I64 = DTypeKind::I64,
                    I32 = DTypeKind::I32;

RefTensor ids(DTypeKind dtype, std::vector<int64_t> shape,
              std::vector<double> values) {
  return RefTensor(dtype, std::move(shape), std::move(values));
}
} // namespace

TEST_CASE("grad of take (repeated and negative ids add up)",
          "[grad][indexing]") {
  Random rng(141);
  GradCase c;
  c.expr = "take(x, i, axis=0) * take(x, j, axis=1)[0:2, 0:1]";
  c.outType = "f64[2, 3]";
  c.outShape = {2, 3};
  c.inputs = {{"x", "f64[5, 3]", rng.uniform(F64, {5, 3}, -1, 1)},
              {"i", "i64[2]", ids(I64, {2}, {4, -1}), false},
              {"j", "i32[2]", ids(I32, {2}, {2, -3}), false}};
  checkGrad(c);
}

TEST_CASE("grad of take_along_axis", "[grad][indexing]") {
  Random rng(142);
  GradCase c;
  c.expr = "take_along_axis(x, i, axis=1) + "
           "take_along_axis(x, argmax(x, axis=1, keepdims=true), axis=1)";
  c.outType = "f64[N, 4]";
  c.outShape = {3, 4};
  c.inputs = {{"x", "f64[N, 4]", rng.uniform(F64, {3, 4}, -1, 1)},
              {"i", "i64[N, 4]",
               ids(I64, {3, 4}, {0, 0, 3, -1, 2, 1, -4, 1, 3, 3, 3, 0}),
               false}};
  checkGrad(c);
}

TEST_CASE("grad of take_along_axis along a symbolic size", "[grad][indexing]") {
  // The one-hot of the ids compares them with iota(M) (and iota(N)), the
  // size along the axis known only at run time.
  Random rng(145);
  GradCase c;
  c.expr = "take_along_axis(x, i, axis=1) * 2 + "
           "sum(take_along_axis(x, j, axis=0))";
  c.outType = "f64[N, 2]";
  c.outShape = {3, 2};
  c.inputs = {{"x", "f64[N, M]", rng.uniform(F64, {3, 5}, -1, 1)},
              {"i", "i64[N, 2]", ids(I64, {3, 2}, {0, 4, -1, 2, -5, 3}), false},
              {"j", "i32[1, M]", ids(I32, {1, 5}, {2, 0, -1, 1, -3}), false}};
  checkGrad(c);
}

TEST_CASE("grad of scatter_add w.r.t. the input and the updates",
          "[grad][indexing]") {
  Random rng(143);
  GradCase c;
  c.expr = "scatter_add(x, i, u, axis=1) * x";
  c.outType = "f64[3, 4]";
  c.outShape = {3, 4};
  c.inputs = {{"x", "f64[3, 4]", rng.uniform(F64, {3, 4}, -1, 1)},
              {"i", "i64[5]", ids(I64, {5}, {1, 3, 1, -1, 0}), false},
              {"u", "f64[3, 5]", rng.uniform(F64, {3, 5}, -1, 1)}};
  checkGrad(c);
}

TEST_CASE("grad of dynamic_slice at run-time starts", "[grad][indexing]") {
  Random rng(144);
  for (double start : {0.0, 1.0, 3.0}) {
    GradCase c;
    c.expr = "dynamic_slice(x, s, 1, size=[2, 2]) * "
             "dynamic_slice(x, 1, s, size=[4, 1])[1:3, :]";
    c.outType = "f64[2, 2]";
    c.outShape = {2, 2};
    c.inputs = {{"x", "f64[5, 4]", rng.uniform(F64, {5, 4}, -1, 1)},
                {"s", "i32[]", ids(I32, {}, {start}), false}};
    INFO("start " << start);
    checkGrad(c);
  }
}

TEST_CASE("grad through one_hot is zero", "[grad][indexing]") {
  Random rng(145);
  GradCase c;
  c.expr = "x * one_hot(i, 4, dtype=f64) + x * x";
  c.outType = "f64[3, 4]";
  c.outShape = {3, 4};
  c.inputs = {{"x", "f64[3, 4]", rng.uniform(F64, {3, 4}, -1, 1)},
              {"i", "i64[3]", ids(I64, {3}, {2, 0, 3}), false}};
  checkGrad(c);
}
