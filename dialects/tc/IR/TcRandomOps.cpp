//===- TcRandomOps.cpp - verifier of tc.random ----------------------------===//
//
// The messages share their forms with the convolution verifiers
// (docs/errors.md, DIA-090 ... DIA-099).
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc::tc;

LogicalResult RandomOp::verify() {
  auto state = cast<RankedTensorType>(getState().getType());
  if (state.getShape() != ArrayRef<int64_t>{2})
    return emitOpError()
           << "the state must have rank 1 with 2 elements ([key, call]), got "
           << formatShape(shapeOf(state));
  StringRef kind = getDistribution();
  auto result = cast<RankedTensorType>(getType());
  Type element = result.getElementType();
  if (kind != "uniform" && kind != "normal" && kind != "bernoulli")
    return emitOpError() << "unknown distribution '" << kind
                         << "' for random numbers (expected 'uniform', "
                            "'normal' or 'bernoulli')";
  if (!isa<FloatType>(element) &&
      !(kind == "bernoulli" && element.isInteger(1)))
    return emitOpError() << "result #0 must be ranked tensor of float (or, "
                            "for bernoulli, i1) values";
  double p = getP().convertToDouble();
  if (kind == "bernoulli" && !(p >= 0 && p <= 1))
    return emitOpError() << "'p' must be in [0, 1], got " << p;
  int64_t stream = getStreamAttr().getInt();
  if (stream < 0 || stream > 0xffff)
    return emitOpError() << "'stream' must be in [0, 65535], got " << stream;
  if (!getLike()) {
    if (!result.hasStaticShape())
      return emitOpError() << "the result without 'like' must be static, got "
                           << formatShape(shapeOf(result));
    return success();
  }
  auto like = cast<RankedTensorType>(getLike().getType());
  auto inferred = RankedTensorType::get(like.getShape(), element);
  if (inferred != result)
    return emitOpError() << "result type " << result
                         << " does not match the inferred type " << inferred;
  return success();
}
