//===- TcRandomOps.cpp - verifier of tc.random ----------------------------===//

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc::tc;

LogicalResult RandomOp::verify() {
  auto state = cast<RankedTensorType>(getState().getType());
  if (state.getShape() != ArrayRef<int64_t>{2})
    return emitOpError() << "the state must be tensor<2xi64> ([key, call]), got "
                         << state;
  StringRef kind = getDistribution();
  auto result = cast<RankedTensorType>(getType());
  Type element = result.getElementType();
  if (kind != "uniform" && kind != "normal" && kind != "bernoulli")
    return emitOpError() << "unknown distribution '" << kind
                         << "' (expected uniform, normal or bernoulli)";
  if (!isa<FloatType>(element) && !(kind == "bernoulli" && element.isInteger(1)))
    return emitOpError() << "a " << kind << " result must be "
                         << (kind == "bernoulli" ? "float or i1" : "float")
                         << ", got " << result;
  double p = getP().convertToDouble();
  if (kind == "bernoulli" && !(p >= 0 && p <= 1))
    return emitOpError() << "p must be in [0, 1], got " << p;
  if (getStream() < 0 || getStream() > 0xffff)
    return emitOpError() << "stream must be in [0, 65535], got "
                         << getStream();
  if (!getLike()) {
    if (!result.hasStaticShape())
      return emitOpError() << "a dynamic result " << result
                           << " needs a 'like' operand for its sizes";
    return success();
  }
  auto like = cast<RankedTensorType>(getLike().getType());
  if (like.getShape() != result.getShape())
    return emitOpError() << "the result " << result
                         << " must have the shape of 'like' " << like;
  return success();
}
