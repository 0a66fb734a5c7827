//===- TcConstructorOps.cpp - verifiers and folds of iota, full, scans ----===//
//
// A constructor's result shape comes from its type and its size operands
// (one per dynamic dimension), so the verifiers count those; a scan keeps
// its input's type, so only its axis needs checking.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tcc::tc;

/// One size operand per dynamic dimension of the result.
static LogicalResult verifySizes(Operation *op, RankedTensorType result,
                                 ValueRange sizes) {
  int64_t dynamic = result.getNumDynamicDims();
  if (int64_t(sizes.size()) == dynamic)
    return success();
  return op->emitOpError() << "has " << sizes.size()
                           << " size operands but its result " << result
                           << " has " << dynamic << " dynamic dimensions";
}

LogicalResult IotaOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  if (failed(verifySizes(getOperation(), type, getSizes())))
    return failure();
  return checkAxis(getAxis(), type.getRank(), [&] { return emitOpError(); });
}

LogicalResult FullOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  auto value = cast<RankedTensorType>(getValue().getType());
  if (value.getRank() != 0)
    return emitOpError() << "value must be a rank-0 tensor, got " << value;
  if (value.getElementType() != type.getElementType())
    return emitOpError() << "value " << value
                         << " must have the result's element type "
                         << type.getElementType();
  return verifySizes(getOperation(), type, getSizes());
}

OpFoldResult FullOp::fold(FoldAdaptor adaptor) {
  auto type = cast<RankedTensorType>(getType());
  auto value = dyn_cast_or_null<DenseElementsAttr>(adaptor.getValue());
  if (!value || !type.hasStaticShape())
    return {};
  return DenseElementsAttr::get(type, value.getSplatValue<Attribute>());
}

/// The axis is in range.
static LogicalResult verifyScan(Operation *op, Value input, int64_t axis) {
  return checkAxis(axis, cast<RankedTensorType>(input.getType()).getRank(),
                   [&] { return op->emitOpError(); });
}

/// A scan along a static axis of size 1 is the identity.
static OpFoldResult foldScan(Value input, int64_t axis) {
  auto type = cast<RankedTensorType>(input.getType());
  if (axis >= 0 && axis < type.getRank() && type.getDimSize(axis) == 1)
    return input;
  return {};
}

LogicalResult CumsumOp::verify() {
  return verifyScan(getOperation(), getInput(), getAxis());
}
LogicalResult CumprodOp::verify() {
  return verifyScan(getOperation(), getInput(), getAxis());
}
OpFoldResult CumsumOp::fold(FoldAdaptor) {
  return foldScan(getInput(), getAxis());
}
OpFoldResult CumprodOp::fold(FoldAdaptor) {
  return foldScan(getInput(), getAxis());
}
