//===- ElementwiseToLinalg.cpp - elementwise tc ops to linalg.generic -----===//
//
// Every elementwise op (unary, binary, logic, cmp, select, clip, cast) becomes
// exactly one `linalg.generic` whose indexing maps broadcast the operands to
// the result (see getBroadcastMap) and whose body is a few arith/math ops on
// scalars. `tc.constant` becomes `arith.constant` on the same tensor attribute.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

/// `FOp` on floats, `IOp` on integers, for the binary ops whose float and
/// integer forms take the same operands.
template <typename FOp, typename IOp>
Value floatOrInt(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isFloat(lhs))
    return b.create<FOp>(loc, lhs, rhs);
  return b.create<IOp>(loc, lhs, rhs);
}

//===----------------------------------------------------------------------===//
// Scalar bodies, one overload per op. `args` holds the operands' scalars.
//===----------------------------------------------------------------------===//

Value buildScalar(AddOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::AddFOp, arith::AddIOp>(b, loc, args[0], args[1]);
}
Value buildScalar(SubOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::SubFOp, arith::SubIOp>(b, loc, args[0], args[1]);
}
Value buildScalar(MulOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::MulFOp, arith::MulIOp>(b, loc, args[0], args[1]);
}
/// Integer division truncates toward zero (C semantics, not numpy's floor).
/// It never traps: x / 0 is 0 (numpy's result too) and INT_MIN / -1 wraps
/// to INT_MIN, since the hardware division would kill the process.
Value buildScalar(DivOp, OpBuilder &b, Location loc, ValueRange args) {
  Value lhs = args[0], rhs = args[1];
  if (isFloat(lhs))
    return b.create<arith::DivFOp>(loc, lhs, rhs);
  auto type = cast<IntegerType>(lhs.getType());
  auto constant = [&](const APInt &v) -> Value {
    return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(type, v));
  };
  unsigned width = type.getWidth();
  Value zero = constant(APInt::getZero(width));
  Value one = constant(APInt(width, 1));
  Value minusOne = constant(APInt::getAllOnes(width));
  Value minValue = constant(APInt::getSignedMinValue(width));
  Value byZero =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, rhs, zero);
  Value overflows = b.create<arith::AndIOp>(
      loc,
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lhs, minValue),
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, rhs, minusOne));
  Value unsafe = b.create<arith::OrIOp>(loc, byZero, overflows);
  Value divisor = b.create<arith::SelectOp>(loc, unsafe, one, rhs);
  Value quotient = b.create<arith::DivSIOp>(loc, lhs, divisor);
  return b.create<arith::SelectOp>(loc, byZero, zero, quotient);
}
Value buildScalar(PowOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<math::PowFOp, math::IPowIOp>(b, loc, args[0], args[1]);
}
/// maximumf/minimumf propagate NaN, like numpy's maximum/minimum.
Value buildScalar(MaximumOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(b, loc, args[0],
                                                       args[1]);
}
Value buildScalar(MinimumOp, OpBuilder &b, Location loc, ValueRange args) {
  return floatOrInt<arith::MinimumFOp, arith::MinSIOp>(b, loc, args[0],
                                                       args[1]);
}

Value buildScalar(NegOp, OpBuilder &b, Location loc, ValueRange args) {
  if (isFloat(args[0]))
    return b.create<arith::NegFOp>(loc, args[0]);
  Value zero = createScalar(b, loc, args[0].getType(), 0.0);
  return b.create<arith::SubIOp>(loc, zero, args[0]);
}
Value buildScalar(AbsOp, OpBuilder &b, Location loc, ValueRange args) {
  if (isFloat(args[0]))
    return b.create<math::AbsFOp>(loc, args[0]);
  return b.create<math::AbsIOp>(loc, args[0]);
}
/// `max(x, 0)`; a NaN input stays NaN.
Value buildScalar(ReluOp, OpBuilder &b, Location loc, ValueRange args) {
  Value zero = createScalar(b, loc, args[0].getType(), 0.0);
  return floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(b, loc, args[0], zero);
}
Value buildScalar(ExpOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::ExpOp>(loc, args[0]);
}
Value buildScalar(LogOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::LogOp>(loc, args[0]);
}
Value buildScalar(TanhOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::TanhOp>(loc, args[0]);
}
/// `1 / (1 + exp(-x))`: saturates to 0 and 1 without NaN, since exp(-x)
/// overflows to +inf and 1/inf is 0.
Value buildScalar(SigmoidOp, OpBuilder &b, Location loc, ValueRange args) {
  Value one = createScalar(b, loc, args[0].getType(), 1.0);
  Value negated = b.create<arith::NegFOp>(loc, args[0]);
  Value exp = b.create<math::ExpOp>(loc, negated);
  Value denominator = b.create<arith::AddFOp>(loc, one, exp);
  return b.create<arith::DivFOp>(loc, one, denominator);
}
Value buildScalar(SqrtOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::SqrtOp>(loc, args[0]);
}
Value buildScalar(RsqrtOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::RsqrtOp>(loc, args[0]);
}

Value buildScalar(ErfOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::ErfOp>(loc, args[0]);
}
Value buildScalar(Log1pOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::Log1pOp>(loc, args[0]);
}
Value buildScalar(Expm1Op, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::ExpM1Op>(loc, args[0]);
}
/// `max(x, 0) + log1p(exp(-|x|))`: exp never overflows, large x gives x,
/// very negative x gives exp(x) without rounding to 0 early; NaN stays NaN.
Value buildScalar(SoftplusOp, OpBuilder &b, Location loc, ValueRange args) {
  Value x = args[0];
  Value zero = createScalar(b, loc, x.getType(), 0.0);
  Value positive = b.create<arith::MaximumFOp>(loc, x, zero);
  Value negAbs = b.create<arith::NegFOp>(loc, b.create<math::AbsFOp>(loc, x));
  Value tail = b.create<math::Log1pOp>(loc, b.create<math::ExpOp>(loc, negAbs));
  return b.create<arith::AddFOp>(loc, positive, tail);
}
Value buildScalar(SinOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::SinOp>(loc, args[0]);
}
Value buildScalar(CosOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::CosOp>(loc, args[0]);
}
Value buildScalar(FloorOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::FloorOp>(loc, args[0]);
}
Value buildScalar(CeilOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::CeilOp>(loc, args[0]);
}
/// Ties to even, as numpy's round (math.round would round ties away).
Value buildScalar(RoundOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<math::RoundEvenOp>(loc, args[0]);
}
/// Floats: 1 or -1 by comparison, else x itself (a zero keeps its sign, NaN
/// stays NaN). Integers: (x > 0) - (x < 0).
Value buildScalar(SignOp, OpBuilder &b, Location loc, ValueRange args) {
  Value x = args[0];
  Type type = x.getType();
  Value zero = createScalar(b, loc, type, 0.0);
  Value one = createScalar(b, loc, type, 1.0);
  Value minusOne = createScalar(b, loc, type, -1.0);
  if (isFloat(x)) {
    Value negative =
        b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x, zero);
    Value positive =
        b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT, x, zero);
    return b.create<arith::SelectOp>(
        loc, positive, one,
        b.create<arith::SelectOp>(loc, negative, minusOne, x));
  }
  Value negative =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, x, zero);
  Value positive =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, x, zero);
  return b.create<arith::SelectOp>(
      loc, positive, one,
      b.create<arith::SelectOp>(loc, negative, minusOne, zero));
}
Value buildScalar(NotOp, OpBuilder &b, Location loc, ValueRange args) {
  Value one = b.create<arith::ConstantOp>(loc, b.getBoolAttr(true));
  return b.create<arith::XOrIOp>(loc, args[0], one);
}
Value buildScalar(AndOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<arith::AndIOp>(loc, args[0], args[1]);
}
Value buildScalar(OrOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<arith::OrIOp>(loc, args[0], args[1]);
}
Value buildScalar(XorOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<arith::XOrIOp>(loc, args[0], args[1]);
}
/// `minimum(maximum(x, low), high)`: NaN propagates as in numpy's clip, and
/// `low > high` gives `high`.
Value buildScalar(ClipOp, OpBuilder &b, Location loc, ValueRange args) {
  if (isFloat(args[0]))
    return b.create<arith::MinimumFOp>(
        loc, b.create<arith::MaximumFOp>(loc, args[0], args[1]), args[2]);
  return b.create<arith::MinSIOp>(
      loc, b.create<arith::MaxSIOp>(loc, args[0], args[1]), args[2]);
}

/// Floats use ordered predicates, so a NaN compares false, except `ne`, which
/// is unordered and true for NaN (IEEE and numpy).
arith::CmpFPredicate floatPredicate(ComparePredicate predicate) {
  switch (predicate) {
  case ComparePredicate::eq:
    return arith::CmpFPredicate::OEQ;
  case ComparePredicate::ne:
    return arith::CmpFPredicate::UNE;
  case ComparePredicate::lt:
    return arith::CmpFPredicate::OLT;
  case ComparePredicate::le:
    return arith::CmpFPredicate::OLE;
  case ComparePredicate::gt:
    return arith::CmpFPredicate::OGT;
  case ComparePredicate::ge:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown comparison predicate");
}

/// Integers compare signed; i1 compares unsigned so that false < true (as
/// signed, true would be -1).
arith::CmpIPredicate intPredicate(ComparePredicate predicate, bool isBool) {
  switch (predicate) {
  case ComparePredicate::eq:
    return arith::CmpIPredicate::eq;
  case ComparePredicate::ne:
    return arith::CmpIPredicate::ne;
  case ComparePredicate::lt:
    return isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  case ComparePredicate::le:
    return isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
  case ComparePredicate::gt:
    return isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  case ComparePredicate::ge:
    return isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  }
  llvm_unreachable("unknown comparison predicate");
}

Value buildScalar(CmpOp op, OpBuilder &b, Location loc, ValueRange args) {
  Value lhs = args[0], rhs = args[1];
  if (isFloat(lhs))
    return b.create<arith::CmpFOp>(loc, floatPredicate(op.getPredicate()), lhs,
                                   rhs);
  return b.create<arith::CmpIOp>(
      loc, intPredicate(op.getPredicate(), lhs.getType().isInteger(1)), lhs,
      rhs);
}

Value buildScalar(SelectOp, OpBuilder &b, Location loc, ValueRange args) {
  return b.create<arith::SelectOp>(loc, args[0], args[1], args[2]);
}

Value buildScalar(CastOp op, OpBuilder &b, Location loc, ValueRange args) {
  return convertScalar(b, loc, args[0], getElementTypeOrSelf(op.getType()));
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Lowers any elementwise op to one broadcasting `linalg.generic` whose body
/// is the op's buildScalar overload.
template <typename OpTy>
struct ElementwiseLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    ValueRange operands = adaptor.getOperands();
    // A cast to the same type is the identity; no loop needed.
    if (operands.size() == 1 && operands[0].getType() == resultType &&
        isa<CastOp>(op.getOperation())) {
      rewriter.replaceOp(op, operands[0]);
      return success();
    }
    Value result =
        buildElementwise(rewriter, op.getLoc(), operands, resultType,
                         [&](OpBuilder &b, Location loc, ValueRange args) {
                           return buildScalar(op, b, loc, args);
                         });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `tc.constant` is `arith.constant` of the same elements attribute, which
/// One-Shot Bufferize turns into a `memref.global`.
struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(Attribute(op.getValue()));
    if (!value)
      return rewriter.notifyMatchFailure(op, "constant without a type");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

} // namespace

void tcc::tc::populateTcElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<
      // Binary arithmetic.
      ElementwiseLowering<AddOp>, ElementwiseLowering<SubOp>,
      ElementwiseLowering<MulOp>, ElementwiseLowering<DivOp>,
      ElementwiseLowering<PowOp>, ElementwiseLowering<MaximumOp>,
      ElementwiseLowering<MinimumOp>,
      // Unary.
      ElementwiseLowering<NegOp>, ElementwiseLowering<AbsOp>,
      ElementwiseLowering<ReluOp>, ElementwiseLowering<ExpOp>,
      ElementwiseLowering<LogOp>, ElementwiseLowering<TanhOp>,
      ElementwiseLowering<SigmoidOp>, ElementwiseLowering<SqrtOp>,
      ElementwiseLowering<RsqrtOp>, ElementwiseLowering<ErfOp>,
      ElementwiseLowering<Log1pOp>, ElementwiseLowering<Expm1Op>,
      ElementwiseLowering<SoftplusOp>, ElementwiseLowering<SinOp>,
      ElementwiseLowering<CosOp>, ElementwiseLowering<FloorOp>,
      ElementwiseLowering<CeilOp>, ElementwiseLowering<RoundOp>,
      ElementwiseLowering<SignOp>,
      // Logic and clipping.
      ElementwiseLowering<NotOp>, ElementwiseLowering<AndOp>,
      ElementwiseLowering<OrOp>, ElementwiseLowering<XorOp>,
      ElementwiseLowering<ClipOp>,
      // Comparison, choice, conversion.
      ElementwiseLowering<CmpOp>, ElementwiseLowering<SelectOp>,
      ElementwiseLowering<CastOp>, ConstantLowering>(ctx);
}
