//===- TcFolds.cpp - folders of the tc operations -------------------------===//
//
// Only folds that are obviously right: identities (x + 0, x * 1, casts and
// reshapes to the same type), double negation, rounding what is already
// rounded, logic with a constant, and exact arithmetic on splat constants
// (+ - * /, rounding, sign; not the transcendental functions, whose folded
// value could differ from the compiled one in the last place).
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/SliceRules.h"
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

/// Rounding an integer-valued float again changes nothing: `floor`, `ceil`
/// and `round` of any of the three is its input.
static OpFoldResult foldRoundingOfRounded(Value input) {
  if (input.getDefiningOp<FloorOp>() || input.getDefiningOp<CeilOp>() ||
      input.getDefiningOp<RoundOp>())
    return input;
  return {};
}

/// A splat float constant rounded with `mode` (exact in every float type),
/// for a static result type.
static OpFoldResult foldRounding(Operation *op, Attribute input,
                                 APFloat::roundingMode mode) {
  if (OpFoldResult r = foldRoundingOfRounded(op->getOperand(0)))
    return r;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  std::optional<Attribute> splat = splatOf(input);
  auto f = splat ? dyn_cast<FloatAttr>(*splat) : FloatAttr();
  if (!f || !type.hasStaticShape())
    return {};
  APFloat value = f.getValue();
  value.roundToIntegral(mode);
  return DenseElementsAttr::get(type, value);
}

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  return foldRounding(*this, adaptor.getInput(), APFloat::rmTowardNegative);
}
OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  return foldRounding(*this, adaptor.getInput(), APFloat::rmTowardPositive);
}
OpFoldResult RoundOp::fold(FoldAdaptor adaptor) {
  return foldRounding(*this, adaptor.getInput(), APFloat::rmNearestTiesToEven);
}

/// sign(sign(x)) = sign(x); the sign of a splat constant (a float zero or
/// NaN is its own sign).
OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  if (getInput().getDefiningOp<SignOp>())
    return getInput();
  auto type = cast<RankedTensorType>(getType());
  std::optional<Attribute> splat = splatOf(adaptor.getInput());
  if (!splat || !type.hasStaticShape())
    return {};
  if (auto f = dyn_cast<FloatAttr>(*splat)) {
    APFloat value = f.getValue();
    if (!value.isNaN() && !value.isZero()) {
      // Not APFloat::getOne(semantics, true): LLVM 19 makes it from the
      // unsigned -1, 2**64 - 1.
      bool negative = value.isNegative();
      value = APFloat::getOne(value.getSemantics());
      if (negative)
        value.changeSign();
    }
    return DenseElementsAttr::get(type, value);
  }
  APInt value = cast<IntegerAttr>(*splat).getValue();
  unsigned width = value.getBitWidth();
  APInt sign = value.isNegative() ? APInt::getAllOnes(width)
               : value.isZero()   ? APInt::getZero(width)
                                  : APInt(width, 1);
  return DenseElementsAttr::get(type, sign);
}

/// The value of a splat `i1` constant, if `attr` is one.
static std::optional<bool> boolSplat(Attribute attr) {
  std::optional<Attribute> splat = splatOf(attr);
  auto i = splat ? dyn_cast<IntegerAttr>(*splat) : IntegerAttr();
  if (!i || i.getType().getIntOrFloatBitWidth() != 1)
    return std::nullopt;
  return !i.getValue().isZero();
}

/// not(not x) = x; not of a splat constant.
OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NotOp>())
    return inner.getInput();
  auto type = cast<RankedTensorType>(getType());
  if (std::optional<bool> c = boolSplat(adaptor.getInput());
      c && type.hasStaticShape())
    return DenseElementsAttr::get(type, ArrayRef<bool>{!*c});
  return {};
}

/// Logical ops on a splat constant right operand (Commutative puts constants
/// there): the identity (`x and true`, `x or false`, `x xor false`) is `x`,
/// and the absorbing value (`x and false`, `x or true`) is that constant,
/// each only where the result type is the operand's. Two splats fold.
template <typename Fn>
static OpFoldResult foldLogical(Operation *op, ArrayRef<Attribute> operands,
                                std::optional<bool> absorbing, bool identity,
                                Fn fn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  std::optional<bool> a = boolSplat(operands[0]);
  std::optional<bool> b = boolSplat(operands[1]);
  if (a && b && type.hasStaticShape())
    return DenseElementsAttr::get(type, ArrayRef<bool>{fn(*a, *b)});
  if (b && *b == identity && lhs.getType() == type)
    return lhs;
  if (b && absorbing && *b == *absorbing && rhs.getType() == type)
    return rhs;
  return {};
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldLogical(*this, adaptor.getOperands(), false, true,
                     [](bool a, bool b) { return a && b; });
}
OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldLogical(*this, adaptor.getOperands(), true, false,
                     [](bool a, bool b) { return a || b; });
}
OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  return foldLogical(*this, adaptor.getOperands(), std::nullopt, false,
                     [](bool a, bool b) { return a != b; });
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
  // The whole input, in order: every dimension from 0 to its end.
  auto input = cast<RankedTensorType>(getInput().getType());
  if (input != getType())
    return {};
  for (int64_t i = 0; i < input.getRank(); ++i) {
    if (getStep()[i] != 1)
      return {};
    int64_t size = input.getDimSize(i);
    if (input.isDynamicDim(i)
            ? getBegin()[i] != 0 || getEnd()[i] != kSliceOpenHigh
            : adjustSlice(size, getBegin()[i], getEnd()[i], 1).start != 0)
      return {};
  }
  return getInput();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
