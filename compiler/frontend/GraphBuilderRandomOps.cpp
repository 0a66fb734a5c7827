//===- GraphBuilderRandomOps.cpp - random numbers with explicit state -----===//
//
// Each tc.random of a function gets its own stream (its ordinal among the
// function's random ops), so that two draws in one call never share Philox
// counters; the call counter in the state separates calls, and the program
// advances it in `updates` (advanceRandomState).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"

using namespace mlir;
using namespace tcc;
using tc::Shape;

/// Whether `t` can be a random state: i64[2].
static bool isRandomState(const TensorRef &t) {
  return t.elementType().isInteger(64) && t.shape.size() == 1 &&
         t.shape[0].isStatic(2);
}

TensorRef GraphBuilder::random(Location loc, StringRef distribution,
                               TensorRef state, TensorRef like,
                               ArrayRef<int64_t> shape, Type elementType,
                               double p) {
  if (!state)
    return {};
  std::string name = distribution == "bernoulli"
                         ? "bernoulli"
                         : ("random_" + distribution).str();
  if (!isRandomState(state)) {
    error(loc) << "'" << name
               << "' needs a random state i64[2] (such as 'shared rng : "
                  "i64[2] = zeros') as its first argument, got "
               << elementTypeName(state.elementType())
               << tc::formatShape(state.shape);
    return {};
  }
  bool isBoolResult = elementType.isInteger(1);
  if (!isa<FloatType>(elementType) &&
      !(distribution == "bernoulli" && isBoolResult)) {
    error(loc) << name << " needs a floating-point"
               << (distribution == "bernoulli" ? " or bool" : "")
               << " tensor, got " << elementTypeName(elementType);
    return {};
  }
  Shape resultShape;
  if (like)
    resultShape = like.shape;
  else
    for (int64_t d : shape)
      resultShape.push_back(tc::Dim::fixed(d));
  for (const tc::Dim &d : resultShape)
    if (!d.isDynamic() && d.size < 0) {
      error(loc) << "'shape' of '" << name << "' must be a list of integers";
      return {};
    }
  if (failed(checkSize(loc, elementType, resultShape)))
    return {};
  int64_t stream = 0;
  currentFunction.walk([&](tc::RandomOp) { ++stream; });
  Type type = tensorType(resultShape, elementType);
  auto op = builder.create<tc::RandomOp>(
      loc, type, state.value, like ? like.value : Value(),
      builder.getStringAttr(distribution), builder.getI64IntegerAttr(stream),
      builder.getF64FloatAttr(p));
  return make(op, resultShape);
}

TensorRef GraphBuilder::advanceRandomState(Location loc, TensorRef state) {
  if (!state)
    return {};
  if (!isRandomState(state)) {
    error(loc) << "'rng_advance' needs a random state i64[2] (such as "
                  "'shared rng : i64[2] = zeros') as its first argument, got "
               << elementTypeName(state.elementType())
               << tc::formatShape(state.shape);
    return {};
  }
  auto type = RankedTensorType::get({2}, builder.getI64Type());
  auto one = builder.create<tc::ConstantOp>(
      loc, DenseElementsAttr::get(type, ArrayRef<int64_t>{0, 1}));
  return binary(loc, BinaryKind::Add, state,
                TensorRef{one.getResult(), state.shape});
}
