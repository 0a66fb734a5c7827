//===- TcConvOps.cpp - verifiers of convolution and pooling ---------------===//
//
// The result type must be the one ConvShapes.h infers from the operands and
// the window attributes.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/ConvShapes.h"
#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc::tc;

static LogicalResult checkInferred(Operation *op, FailureOr<Shape> shape) {
  if (failed(shape))
    return failure();
  auto declared = cast<RankedTensorType>(op->getResult(0).getType());
  Type element =
      cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  auto inferred = RankedTensorType::get(sizesOf(*shape), element);
  if (declared == inferred)
    return success();
  return op->emitOpError() << "result type " << declared
                           << " does not match the inferred type " << inferred;
}

template <typename OpTy>
static LogicalResult verifyConv(OpTy op, int64_t spatialRank) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  auto filter = cast<RankedTensorType>(op.getFilter().getType());
  if (input.getElementType() != filter.getElementType())
    return op.emitOpError() << "operands must have the same element type, got "
                            << input << " and " << filter;
  if (input.getRank() != spatialRank + 2)
    return op.emitOpError() << "the input must have rank " << spatialRank + 2
                            << ", got " << formatShape(shapeOf(input));
  return checkInferred(op, convShape(shapeOf(input), shapeOf(filter),
                                     op.getLayout(), op.getStrides(),
                                     op.getPadding(), op.getDilations(),
                                     op.getGroupsAttr().getInt(),
                                     [&] { return op.emitOpError(); }));
}

LogicalResult Conv1DOp::verify() { return verifyConv(*this, 1); }
LogicalResult Conv2DOp::verify() { return verifyConv(*this, 2); }

template <typename OpTy> static LogicalResult verifyPool(OpTy op) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  return checkInferred(op,
                       poolShape(shapeOf(input), op.getLayout(), op.getKernel(),
                                 op.getStrides(), op.getPadding(),
                                 [&] { return op.emitOpError(); }));
}

LogicalResult MaxPool2DOp::verify() { return verifyPool(*this); }
LogicalResult AvgPool2DOp::verify() { return verifyPool(*this); }
