//===- TcFolds.cpp - folders of the tc operations -------------------------===//
//
// Only folds that are obviously right: identities (x + 0, x * 1, casts and
// reshapes to the same type), double negation, and arithmetic on splat
// constants.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace tcc::tc;

/// The splat value of a constant operand, if it is one.
static std::optional<Attribute> splatOf(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<Attribute>();
}

/// Whether `attr` is a splat of `value`. For a float zero the sign must
/// match too: only x + (-0.0) and x - (+0.0) are x for every x.
static bool isSplatOf(Attribute attr, double value) {
  std::optional<Attribute> splat = splatOf(attr);
  if (!splat)
    return false;
  if (auto f = dyn_cast<FloatAttr>(*splat))
    return f.getValueAsDouble() == value &&
           f.getValue().isNegative() == std::signbit(value);
  if (auto i = dyn_cast<IntegerAttr>(*splat))
    return i.getType().getIntOrFloatBitWidth() > 1 &&
           (double)i.getValue().getSExtValue() == value;
  return false;
}

/// Folds `op(splat a, splat b)` into a splat of the (static) result type.
template <typename FloatFn, typename IntFn>
static OpFoldResult foldSplats(Operation *op, ArrayRef<Attribute> operands,
                               FloatFn floatFn, IntFn intFn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape())
    return {};
  std::optional<Attribute> a = splatOf(operands[0]);
  std::optional<Attribute> b = splatOf(operands[1]);
  if (!a || !b)
    return {};
  if (auto fa = dyn_cast<FloatAttr>(*a)) {
    APFloat result = fa.getValue();
    floatFn(result, cast<FloatAttr>(*b).getValue());
    return DenseElementsAttr::get(type, result);
  }
  auto ia = dyn_cast<IntegerAttr>(*a);
  if (!ia || ia.getType().getIntOrFloatBitWidth() == 1)
    return {};
  std::optional<APInt> result =
      intFn(ia.getValue(), cast<IntegerAttr>(*b).getValue());
  if (!result)
    return {};
  return DenseElementsAttr::get(type, *result);
}

/// `x op c` is `x` when c is the identity and x already has the result type.
static OpFoldResult foldIdentity(Operation *op, ArrayRef<Attribute> operands,
                                 double identity) {
  Value lhs = op->getOperand(0);
  if (lhs.getType() == op->getResult(0).getType() &&
      isSplatOf(operands[1], identity))
    return lhs;
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentity(*this, adaptor.getOperands(), -0.0))
    return r;
  if (getRhs().getType() == getType() && isSplatOf(adaptor.getLhs(), -0.0))
    return getRhs();
  return foldSplats(
      *this, adaptor.getOperands(),
      [](APFloat &a, const APFloat &b) {
        a.add(b, APFloat::rmNearestTiesToEven);
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a + b;
      });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentity(*this, adaptor.getOperands(), 0))
    return r;
  return foldSplats(
      *this, adaptor.getOperands(),
      [](APFloat &a, const APFloat &b) {
        a.subtract(b, APFloat::rmNearestTiesToEven);
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a - b;
      });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentity(*this, adaptor.getOperands(), 1))
    return r;
  if (getRhs().getType() == getType() && isSplatOf(adaptor.getLhs(), 1))
    return getRhs();
  return foldSplats(
      *this, adaptor.getOperands(),
      [](APFloat &a, const APFloat &b) {
        a.multiply(b, APFloat::rmNearestTiesToEven);
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a * b;
      });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldIdentity(*this, adaptor.getOperands(), 1))
    return r;
  return foldSplats(
      *this, adaptor.getOperands(),
      [](APFloat &a, const APFloat &b) {
        a.divide(b, APFloat::rmNearestTiesToEven);
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        // Division by zero (and INT_MIN / -1) is left to run time.
        if (b.isZero() || (b.isAllOnes() && a.isMinSignedValue()))
          return std::nullopt;
        return a.sdiv(b);
      });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return {};
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  for (auto [i, p] : llvm::enumerate(getPerm()))
    if ((int64_t)i != p)
      return {};
  return getInput();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() && getType().hasStaticShape())
    return getInput();
  // reshape(reshape(x)) is one reshape of x, when that one is valid on its
  // own (a dynamic middle step may hide what the outer one needs).
  auto inner = getInput().getDefiningOp<ReshapeOp>();
  if (inner &&
      isValidReshape(shapeOf(inner.getInput().getType()), shapeOf(getType()))) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  RankedTensorType input = cast<RankedTensorType>(getInput().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= input.getRank() || input.isDynamicDim(axis))
    return {};
  return DenseElementsAttr::get(getType(),
                                ArrayRef<int64_t>{input.getDimSize(axis)});
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  auto input = cast<RankedTensorType>(getInput().getType());
  if (input != getType() || !input.hasStaticShape())
    return {};
  for (int64_t i = 0; i < input.getRank(); ++i)
    if (getBegin()[i] != 0 || getStep()[i] != 1 ||
        getEnd()[i] != input.getDimSize(i))
      return {};
  return getInput();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
