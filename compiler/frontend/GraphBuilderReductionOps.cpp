//===- GraphBuilderReductionOps.cpp - ops that combine along axes ---------===//
//
// reduce (sum, mean, max, min, prod, var, std, logsumexp), argmax, matmul
// and softmax: the GraphBuilder ops that combine elements along axes (their
// shape rules are in ShapeInference.cpp).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"

using namespace mlir;
using namespace tcc;
using tc::Dim;
using tc::Shape;

static bool isFloat(Type t) { return isa<FloatType>(t); }
static bool isBool(Type t) { return t.isInteger(1); }

TensorRef GraphBuilder::reduce(Location loc, ReduceKind kind, TensorRef input,
                               ArrayRef<int64_t> axes, bool keepdims,
                               int64_t ddof) {
  if (!input)
    return {};
  Type elt = input.elementType();
  bool needsFloat = kind != ReduceKind::Sum && kind != ReduceKind::Max &&
                    kind != ReduceKind::Min && kind != ReduceKind::Prod;
  if (isBool(elt) || (needsFloat && !isFloat(elt))) {
    error(loc) << "this reduction needs a "
               << (needsFloat ? "floating-point" : "numeric") << " tensor, got "
               << describeTensor(elt, input.shape);
    return {};
  }
  if (ddof < 0) {
    error(loc) << "ddof must not be negative, got " << ddof;
    return {};
  }
  int64_t rank = input.shape.size();
  SmallVector<int64_t> normalized;
  if (axes.empty())
    normalized = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(loc, axis, rank);
    if (failed(a))
      return {};
    if (llvm::is_contained(normalized, *a)) {
      error(loc) << "axis " << axis << " is listed twice";
      return {};
    }
    normalized.push_back(*a);
  }
  llvm::sort(normalized);
  FailureOr<Shape> shape = tc::reduceShape(input.shape, normalized, keepdims,
                                           [&] { return error(loc); });
  if (failed(shape))
    return {};
  // max and min of no elements have no value (numpy raises).
  if ((kind == ReduceKind::Max || kind == ReduceKind::Min) &&
      failed(tc::checkReducesElements(kind == ReduceKind::Max ? "max" : "min",
                                      input.shape, normalized,
                                      [&] { return error(loc); })))
    return {};
  Type type = tensorType(*shape, elt);
  auto axesAttr = builder.getDenseI64ArrayAttr(normalized);
  UnitAttr keep = keepdims ? builder.getUnitAttr() : UnitAttr();
  Value x = input.value;
  Operation *op = nullptr;
  switch (kind) {
  case ReduceKind::Sum:
    op = builder.create<tc::SumOp>(loc, type, x, axesAttr, keep);
    break;
  case ReduceKind::Mean:
    op = builder.create<tc::MeanOp>(loc, type, x, axesAttr, keep);
    break;
  case ReduceKind::Max:
    op = builder.create<tc::MaxOp>(loc, type, x, axesAttr, keep);
    break;
  case ReduceKind::Min:
    op = builder.create<tc::MinOp>(loc, type, x, axesAttr, keep);
    break;
  case ReduceKind::Prod:
    op = builder.create<tc::ProdOp>(loc, type, x, axesAttr, keep);
    break;
  case ReduceKind::LogSumExp:
    op = builder.create<tc::LogSumExpOp>(loc, type, x, axesAttr, keep);
    break;
  case ReduceKind::Var:
    op = builder.create<tc::VarOp>(loc, type, x, axesAttr,
                                   builder.getI64IntegerAttr(ddof), keep);
    break;
  case ReduceKind::Std:
    op = builder.create<tc::StdOp>(loc, type, x, axesAttr,
                                   builder.getI64IntegerAttr(ddof), keep);
    break;
  }
  return make(op, *shape);
}

TensorRef GraphBuilder::argmax(Location loc, TensorRef input, int64_t axis,
                               bool keepdims) {
  if (!input)
    return {};
  if (isBool(input.elementType())) {
    error(loc) << "argmax needs a numeric tensor, got "
               << describeTensor(input.elementType(), input.shape);
    return {};
  }
  FailureOr<int64_t> a = normalizeAxis(loc, axis, input.shape.size());
  if (failed(a))
    return {};
  FailureOr<Shape> shape =
      tc::reduceShape(input.shape, {*a}, keepdims, [&] { return error(loc); });
  if (failed(shape) ||
      failed(tc::checkReducesElements("argmax", input.shape, {*a},
                                      [&] { return error(loc); })))
    return {};
  Type type = tensorType(*shape, builder.getI64Type());
  return make(builder.create<tc::ArgmaxOp>(
                  loc, type, input.value, builder.getI64IntegerAttr(*a),
                  keepdims ? builder.getUnitAttr() : UnitAttr()),
              *shape);
}

TensorRef GraphBuilder::matmul(Location loc, TensorRef lhs, TensorRef rhs) {
  if (!lhs || !rhs || failed(sameElementType(loc, "matmul", {lhs, rhs})))
    return {};
  if (isBool(lhs.elementType())) {
    error(loc) << "matmul is not defined on bool tensors";
    return {};
  }
  // numpy's rule for a vector: it becomes a matrix of one row (on the left)
  // or one column (on the right) for the product, and that dimension is
  // dropped from the result: [K] x [K, N] is [N], [M, K] x [K] is [M], and
  // [K] x [K] a scalar.
  if (lhs.shape.empty() || rhs.shape.empty()) {
    error(loc) << "matmul needs operands of rank >= 1, got "
               << tc::formatShape(lhs.shape) << " and "
               << tc::formatShape(rhs.shape);
    return {};
  }
  if (lhs.shape.size() == 1 || rhs.shape.size() == 1) {
    bool row = lhs.shape.size() == 1, column = rhs.shape.size() == 1;
    TensorRef a =
        row ? reshape(loc, lhs, {tc::Dim::fixed(1), lhs.shape[0]}) : lhs;
    TensorRef b =
        column ? reshape(loc, rhs, {rhs.shape[0], tc::Dim::fixed(1)}) : rhs;
    TensorRef product = matmul(loc, a, b);
    if (!product)
      return {};
    Shape result;
    int64_t rank = product.shape.size();
    for (int64_t d = 0; d < rank; ++d)
      if (!(row && d == rank - 2) && !(column && d == rank - 1))
        result.push_back(product.shape[d]);
    return reshape(loc, product, result);
  }
  FailureOr<Shape> shape =
      tc::matmulShape(lhs.shape, rhs.shape, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, lhs.elementType());
  // [B, T, C] @ [C, H] stays one op: convert-tc-to-linalg makes it one 2-D
  // product of the rows, and its gradient rule reshapes the same way.
  return make(builder.create<tc::MatmulOp>(loc, type, lhs.value, rhs.value),
              *shape);
}

TensorRef GraphBuilder::softmax(Location loc, TensorRef input, int64_t axis,
                                bool log) {
  if (!input)
    return {};
  if (!isFloat(input.elementType())) {
    error(loc) << (log ? "log_softmax" : "softmax")
               << " needs a floating-point tensor, got "
               << describeTensor(input.elementType(), input.shape);
    return {};
  }
  FailureOr<int64_t> a = normalizeAxis(loc, axis, input.shape.size());
  if (failed(a))
    return {};
  auto axisAttr = builder.getI64IntegerAttr(*a);
  Operation *op =
      log ? builder.create<tc::LogSoftmaxOp>(loc, input.value, axisAttr)
                .getOperation()
          : builder.create<tc::SoftmaxOp>(loc, input.value, axisAttr)
                .getOperation();
  return make(op, input.shape);
}
