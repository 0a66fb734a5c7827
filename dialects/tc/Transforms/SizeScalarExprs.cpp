//===- SizeScalarExprs.cpp - the expression of a computed size ------------===//

#include "dialects/tc/Transforms/SizeScalarExprs.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::shape;

namespace {

/// A compound expression as one factor the runtime parses: `(M-1)`.
DimExpr parenthesized(const std::string &text) {
  return DimExpr{true, 1, {"(" + text + ")"}};
}

/// Whether `v` is an i64 scalar tensor, the type sizes are computed in.
bool isSizeScalar(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getRank() == 0 && type.getElementType().isInteger(64);
}

/// `op` of two constants, as i64 arithmetic; unknown on overflow or a
/// division by 0.
DimExpr constantOf(Operation *op, int64_t a, int64_t b) {
  int64_t r;
  if (isa<AddOp>(op) && !llvm::AddOverflow(a, b, r))
    return DimExpr::constant(r);
  if (isa<SubOp>(op) && !llvm::SubOverflow(a, b, r))
    return DimExpr::constant(r);
  if (isa<MulOp>(op) && !llvm::MulOverflow(a, b, r))
    return DimExpr::constant(r);
  if (isa<DivOp>(op) && b != 0 && !(a == INT64_MIN && b == -1))
    return DimExpr::constant(a / b); // truncating, as tc.div on integers
  if (isa<MaximumOp>(op))
    return DimExpr::constant(std::max(a, b));
  if (isa<MinimumOp>(op))
    return DimExpr::constant(std::min(a, b));
  return {};
}

} // namespace

DimExpr shape::sizeScalarExpr(Operation *op,
                              llvm::function_ref<Exprs(Value)> sizesOf,
                              llvm::function_ref<DimExpr(Value)> scalarOf) {
  if (op->getNumResults() != 1 || !isSizeScalar(op->getResult(0)))
    return {};
  if (auto size = dyn_cast<SizeOp>(op)) {
    Exprs sizes = sizesOf(size.getInput());
    int64_t axis = size.getAxis();
    return axis >= 0 && axis < (int64_t)sizes.size() ? sizes[axis] : DimExpr();
  }
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    auto value = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!value || !value.isSplat())
      return {};
    return DimExpr::constant(value.getSplatValue<APInt>().getSExtValue());
  }
  if (op->getNumOperands() != 2 || !isSizeScalar(op->getOperand(0)) ||
      !isSizeScalar(op->getOperand(1)))
    return {};
  DimExpr a = scalarOf(op->getOperand(0)), b = scalarOf(op->getOperand(1));
  if (!a.known || !b.known)
    return {};
  if (a.isConstant() && b.isConstant())
    return constantOf(op, a.coef, b.coef);
  // Adding a negative constant subtracts: the runtime reads no unary minus.
  bool subtracts = isa<SubOp>(op);
  if (isa<AddOp, SubOp>(op) && b.isConstant() && b.coef < 0 &&
      b.coef != INT64_MIN) {
    b = DimExpr::constant(-b.coef);
    subtracts = !subtracts;
  }
  if (a.coef < 0 || b.coef < 0)
    return {};
  if (isa<AddOp, SubOp>(op))
    return subtracts ? parenthesized(a.text() + "-" + b.text()) : add(a, b);
  if (isa<MulOp>(op))
    return mul(a, b);
  if (isa<DivOp>(op) && b.isConstant() && b.coef > 0)
    return divide(a, b.coef);
  if (isa<MaximumOp, MinimumOp>(op))
    return parenthesized((isa<MaximumOp>(op) ? "max(" : "min(") + a.text() +
                         "," + b.text() + ")");
  return {};
}
