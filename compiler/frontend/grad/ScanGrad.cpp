//===- ScanGrad.cpp - gradients of cumsum and cumprod ---------------------===//
//
// The adjoint of an inclusive scan is the reverse inclusive scan of the
// result's adjoint: element j feeds every result i >= j. The reverse
// cumsum is written `sum - cumsum + g` (no flip needed, any dynamic size).
// cumprod's result i over x_j is y_i / x_j, exact wherever x has no zero
// (at a zero the quotient is not finite; see docs/graph-format.md).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;

namespace {

/// `r[i] = sum_{j >= i} g[j]` along `axis`.
TensorRef reverseCumsum(GradContext &c, TensorRef g, int64_t axis) {
  TensorRef total =
      c.builder.reduce(c.loc, ReduceKind::Sum, g, {axis}, /*keepdims=*/true);
  TensorRef upTo = c.builder.scan(c.loc, ScanKind::Sum, g, axis);
  return c.add(c.sub(total, upTo), g);
}

LogicalResult cumsumRule(GradContext &c, Operation *op, TensorRef dy,
                         MutableArrayRef<TensorRef> dx) {
  dx[0] = reverseCumsum(c, dy, cast<tc::CumsumOp>(op).getAxis());
  return success();
}

LogicalResult cumprodRule(GradContext &c, Operation *op, TensorRef dy,
                          MutableArrayRef<TensorRef> dx) {
  int64_t axis = cast<tc::CumprodOp>(op).getAxis();
  TensorRef y = c.result(op), x = c.operand(op, 0);
  dx[0] = c.div(reverseCumsum(c, c.mul(dy, y), axis), x);
  return success();
}

} // namespace

void tcc::grad::registerScanGradRules(GradRuleTable &t) {
  t.add<tc::CumsumOp>(cumsumRule);
  t.add<tc::CumprodOp>(cumprodRule);
}
