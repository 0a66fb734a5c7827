//===- TcCollectiveOps.cpp - verifiers of the collectives -----------------===//
//
// Messages: docs/errors.md, DIA-160 ... DIA-165.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc::tc;

/// `reduction` names sum, mean, max or min; mean needs floats.
static LogicalResult verifyReduction(Operation *op, StringRef reduction,
                                     Type element) {
  if (reduction != "sum" && reduction != "mean" && reduction != "max" &&
      reduction != "min")
    return op->emitOpError() << "unknown reduction '" << reduction
                             << "' (expected 'sum', 'mean', 'max' or 'min')";
  if (reduction == "mean" && !isa<FloatType>(element))
    return op->emitOpError()
           << "reduction 'mean' needs floats, got " << element;
  return success();
}

/// A positive number of ranks and an input with a first axis.
static LogicalResult verifyRanks(Operation *op, int64_t ranks,
                                 RankedTensorType input) {
  if (ranks < 1 || ranks > (int64_t(1) << 24))
    return op->emitOpError()
           << "'ranks' must be in [1, 16777216], got " << ranks;
  if (input.getRank() == 0)
    return op->emitOpError() << "needs a tensor with an axis 0 to "
                             << (isa<AllGatherOp>(op) ? "gather" : "scatter")
                             << " along, got a scalar";
  return success();
}

/// The result has `input`'s shape with axis 0 `size` (dynamic stays
/// dynamic).
static LogicalResult verifyAxis0(Operation *op, RankedTensorType input,
                                 RankedTensorType result, int64_t size) {
  SmallVector<int64_t> shape(input.getShape());
  shape[0] = input.isDynamicDim(0) ? ShapedType::kDynamic : size;
  auto inferred = RankedTensorType::get(shape, input.getElementType());
  if (inferred != result)
    return op->emitOpError()
           << "result type " << result << " does not match the inferred type "
           << inferred;
  return success();
}

LogicalResult AllReduceOp::verify() {
  return verifyReduction(*this, getReduction(),
                         getInput().getType().getElementType());
}

LogicalResult AllGatherOp::verify() {
  auto input = cast<RankedTensorType>(getInput().getType());
  if (failed(verifyRanks(*this, getRanksAttr().getInt(), input)))
    return failure();
  int64_t d0 = input.getDimSize(0);
  return verifyAxis0(*this, input, cast<RankedTensorType>(getType()),
                     input.isDynamicDim(0) ? 0 : d0 * getRanksAttr().getInt());
}

LogicalResult ReduceScatterOp::verify() {
  auto input = cast<RankedTensorType>(getInput().getType());
  if (failed(verifyReduction(*this, getReduction(), input.getElementType())) ||
      failed(verifyRanks(*this, getRanksAttr().getInt(), input)))
    return failure();
  int64_t d0 = input.getDimSize(0);
  if (!input.isDynamicDim(0) && d0 % getRanksAttr().getInt() != 0)
    return emitOpError() << "axis 0 has " << d0 << " rows, not a multiple of "
                         << getRanksAttr().getInt() << " ranks";
  return verifyAxis0(*this, input, cast<RankedTensorType>(getType()),
                     input.isDynamicDim(0) ? 0 : d0 / getRanksAttr().getInt());
}

LogicalResult BroadcastOp::verify() {
  if (getRootAttr().getInt() < 0 ||
      getRootAttr().getInt() >= (int64_t(1) << 24))
    return emitOpError() << "'root' must be in [0, 16777215], got "
                         << getRootAttr().getInt();
  return success();
}
