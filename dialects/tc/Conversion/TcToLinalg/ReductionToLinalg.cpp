//===- ReductionToLinalg.cpp - tc reductions to linalg --------------------===//
//
// A reduction over `axes` becomes a `linalg.fill` of the combiner's identity
// into a tensor of the kept dimensions, and one `linalg.generic` whose loops
// are the input's dimensions, with reduction iterators at `axes`. `keepdims`
// then reinserts the reduced dimensions with a `tensor.expand_shape`, which
// is a view (no copy after bufferization). logsumexp, var and std are two
// such reductions each, the second reading the first's result.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/ErrorHandling.h"

#include <limits>

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

enum class ReduceKind { Sum, Mean, Max, Min, Prod };

/// The smallest value of `type`: -inf for floats (so that any element,
/// including -inf itself, is >= it), INT_MIN for integers.
Value createLowest(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(
        loc,
        b.getFloatAttr(floatType, -std::numeric_limits<double>::infinity()));
  unsigned width = type.getIntOrFloatBitWidth();
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, llvm::APInt::getSignedMinValue(width)));
}

/// The largest value of `type`: +inf or INT_MAX.
Value createHighest(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(
        loc,
        b.getFloatAttr(floatType, std::numeric_limits<double>::infinity()));
  unsigned width = type.getIntOrFloatBitWidth();
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, llvm::APInt::getSignedMaxValue(width)));
}

/// The identity of the combiner. A float sum starts at -0.0, the true
/// additive identity: -0.0 + x is x for every x, so the sum of [-0.0] stays
/// -0.0 as in numpy (+0.0 would turn it into +0.0).
Value createIdentity(OpBuilder &b, Location loc, Type type, ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return createScalar(b, loc, type, isa<FloatType>(type) ? -0.0 : 0.0);
  case ReduceKind::Prod:
    return createScalar(b, loc, type, 1.0);
  case ReduceKind::Max:
    return createLowest(b, loc, type);
  case ReduceKind::Min:
    return createHighest(b, loc, type);
  }
  llvm_unreachable("unknown reduction");
}

/// One step of the reduction. Float max/min propagate NaN (maximumf and
/// minimumf), as numpy's max/min do; integers compare signed. Float sums and
/// products may be reassociated: the loop then keeps several partial sums
/// in vector registers, which is faster and, like numpy's pairwise sum,
/// usually more accurate than one running sum.
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value element,
              Value acc) {
  bool isFloat = isa<FloatType>(element.getType());
  auto reassoc = arith::FastMathFlagsAttr::get(b.getContext(),
                                               arith::FastMathFlags::reassoc);
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return isFloat
               ? b.create<arith::AddFOp>(loc, element, acc, reassoc).getResult()
               : b.create<arith::AddIOp>(loc, element, acc).getResult();
  case ReduceKind::Prod:
    return isFloat
               ? b.create<arith::MulFOp>(loc, element, acc, reassoc).getResult()
               : b.create<arith::MulIOp>(loc, element, acc).getResult();
  case ReduceKind::Max:
    return isFloat ? b.create<arith::MaximumFOp>(loc, element, acc).getResult()
                   : b.create<arith::MaxSIOp>(loc, element, acc).getResult();
  case ReduceKind::Min:
    return isFloat ? b.create<arith::MinimumFOp>(loc, element, acc).getResult()
                   : b.create<arith::MinSIOp>(loc, element, acc).getResult();
  }
  llvm_unreachable("unknown reduction");
}

/// The number of reduced elements as a float of `type`: a constant when the
/// reduced dimensions are static, else the product of their `tensor.dim`s.
Value createCount(OpBuilder &b, Location loc, Value input,
                  ArrayRef<int64_t> axes, Type type) {
  RankedTensorType inputType = tensorType(input);
  if (llvm::none_of(
          axes, [&](int64_t axis) { return inputType.isDynamicDim(axis); })) {
    int64_t count = 1;
    for (int64_t axis : axes)
      count *= inputType.getDimSize(axis);
    return createScalar(b, loc, type, static_cast<double>(count));
  }
  Value count = createSizeProduct(b, loc, input, axes);
  Value count64 = b.create<arith::IndexCastOp>(loc, b.getI64Type(), count);
  return b.create<arith::SIToFPOp>(loc, type, count64);
}

/// Lowers sum, mean, max, min and prod. A sum or mean of f16 or bf16
/// accumulates (and divides) in f32 and rounds once, as numpy's pairwise sum
/// of float16 does: a running f16 sum would lose every term below its ulp,
/// and neither the sum nor the count may overflow the narrow type.
template <typename OpTy, ReduceKind kind>
struct ReductionLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inputType = tensorType(input);
    auto resultType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> axes = op.getAxes();
    int64_t rank = inputType.getRank();
    Type elementType = inputType.getElementType();
    Type accType = elementType;
    if ((kind == ReduceKind::Sum || kind == ReduceKind::Mean) &&
        isa<FloatType>(elementType) && elementType.getIntOrFloatBitWidth() < 32)
      accType = rewriter.getF32Type();

    SmallVector<OpFoldResult> sizes =
        getReducedSizes(rewriter, loc, input, axes);
    Value init = createFilled(rewriter, loc, sizes,
                              createIdentity(rewriter, loc, accType, kind));
    SmallVector<AffineMap> maps = {
        rewriter.getMultiDimIdentityMap(rank),
        getReducedMap(rewriter.getContext(), rank, axes)};
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{init.getType()}, ValueRange{input}, ValueRange{init},
        maps, getReductionIterators(rank, axes),
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          Value element = convertScalar(b, nestedLoc, args[0], accType);
          b.create<linalg::YieldOp>(
              nestedLoc, combine(b, nestedLoc, kind, element, args[1]));
        });
    Value reduced = generic.getResult(0);

    if (kind == ReduceKind::Mean || accType != elementType) {
      Value count = kind == ReduceKind::Mean
                        ? createCount(rewriter, loc, input, axes, accType)
                        : Value();
      auto resultType =
          RankedTensorType::get(tensorType(reduced).getShape(), elementType);
      reduced = buildElementwise(
          rewriter, loc, reduced, resultType,
          [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
            Value value = args[0];
            if (count)
              value = b.create<arith::DivFOp>(nestedLoc, value, count);
            return convertScalar(b, nestedLoc, value, elementType);
          });
    }
    rewriter.replaceOp(
        op, expandReducedDims(rewriter, loc, reduced, resultType, axes));
    return success();
  }
};

/// The element type a reduction of `type` computes in: f32 for f16/bf16.
Type accumulationType(OpBuilder &b, Type type) {
  return type.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : type;
}

/// One reducing `linalg.generic` over `axes` of `inputs` (the first has the
/// full shape; the others have the reduced shape and are read through the
/// reduced map) into a tensor filled with `init`; `body(b, loc, elements,
/// acc)` is the new accumulator.
Value buildReduction(
    OpBuilder &rewriter, Location loc, ValueRange inputs,
    ArrayRef<int64_t> axes, Value init,
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange, Value)> body) {
  Value input = inputs.front();
  int64_t rank = tensorType(input).getRank();
  SmallVector<OpFoldResult> sizes = getReducedSizes(rewriter, loc, input, axes);
  Value filled = createFilled(rewriter, loc, sizes, init);
  AffineMap reduced = getReducedMap(rewriter.getContext(), rank, axes);
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
  maps.append(inputs.size(), reduced); // the other inputs and the output
  return rewriter
      .create<linalg::GenericOp>(
          loc, TypeRange{filled.getType()}, inputs, ValueRange{filled}, maps,
          getReductionIterators(rank, axes),
          [&](OpBuilder &b, Location l, ValueRange args) {
            b.create<linalg::YieldOp>(
                l, body(b, l, args.drop_back(), args.back()));
          })
      .getResult(0);
}

/// `m` where it is finite, else 0: logsumexp subtracts it, and an infinite
/// or NaN maximum must not turn exp(x - m) into NaN.
Value finiteOrZero(OpBuilder &b, Location loc, Value m) {
  Value inf = createScalar(b, loc, m.getType(),
                           std::numeric_limits<double>::infinity());
  Value finite = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::ONE,
                                         b.create<math::AbsFOp>(loc, m), inf);
  return b.create<arith::SelectOp>(loc, finite, m,
                                   createScalar(b, loc, m.getType(), 0.0));
}

/// logsumexp: m = max(x) in the element type (exact), s = sum(exp(x - m'))
/// in the accumulation type with m' = m where finite, else 0; then
/// log(s) + m'. All -inf gives log(0) = -inf, a +inf gives +inf, a NaN NaN.
struct LogSumExpLowering : OpConversionPattern<LogSumExpOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LogSumExpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type elementType = tensorType(input).getElementType();
    Type accType = accumulationType(rewriter, elementType);
    ArrayRef<int64_t> axes = op.getAxes();
    auto reassoc = arith::FastMathFlagsAttr::get(rewriter.getContext(),
                                                 arith::FastMathFlags::reassoc);

    Value max = buildReduction(
        rewriter, loc, {input}, axes, createLowest(rewriter, loc, elementType),
        [](OpBuilder &b, Location l, ValueRange x, Value acc) -> Value {
          return b.create<arith::MaximumFOp>(l, x[0], acc);
        });
    Value sum = buildReduction(
        rewriter, loc, {input, max}, axes,
        createScalar(rewriter, loc, accType, 0.0),
        [&](OpBuilder &b, Location l, ValueRange x, Value acc) -> Value {
          Value shift = finiteOrZero(b, l, convertScalar(b, l, x[1], accType));
          Value d = b.create<arith::SubFOp>(
              l, convertScalar(b, l, x[0], accType), shift);
          Value e = b.create<math::ExpOp>(l, d);
          return b.create<arith::AddFOp>(l, e, acc, reassoc);
        });
    auto reducedType =
        RankedTensorType::get(tensorType(sum).getShape(), elementType);
    Value result =
        buildElementwise(rewriter, loc, ValueRange{sum, max}, reducedType,
                         [&](OpBuilder &b, Location l, ValueRange args) {
                           Value shift = finiteOrZero(
                               b, l, convertScalar(b, l, args[1], accType));
                           Value value = b.create<arith::AddFOp>(
                               l, b.create<math::LogOp>(l, args[0]), shift);
                           return convertScalar(b, l, value, elementType);
                         });
    rewriter.replaceOp(
        op, expandReducedDims(rewriter, loc, result, op.getType(), axes));
    return success();
  }
};

/// var and std, two passes as numpy: the mean, then the sum of squared
/// deviations from it, divided by max(n - ddof, 0); std takes the square
/// root. f16 and bf16 compute in f32 and round once at the end.
template <typename OpTy, bool isStd>
struct MomentLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type elementType = tensorType(input).getElementType();
    Type accType = accumulationType(rewriter, elementType);
    ArrayRef<int64_t> axes = op.getAxes();
    auto reassoc = arith::FastMathFlagsAttr::get(rewriter.getContext(),
                                                 arith::FastMathFlags::reassoc);

    Value sum = buildReduction(
        rewriter, loc, {input}, axes,
        createScalar(rewriter, loc, accType, -0.0),
        [&](OpBuilder &b, Location l, ValueRange x, Value acc) -> Value {
          return b.create<arith::AddFOp>(l, convertScalar(b, l, x[0], accType),
                                         acc, reassoc);
        });
    Value count = createCount(rewriter, loc, input, axes, accType);
    Value mean = buildElementwise(
        rewriter, loc, ValueRange{sum}, tensorType(sum),
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return b.create<arith::DivFOp>(l, args[0], count);
        });
    Value squares = buildReduction(
        rewriter, loc, {input, mean}, axes,
        createScalar(rewriter, loc, accType, 0.0),
        [&](OpBuilder &b, Location l, ValueRange x, Value acc) -> Value {
          Value d = b.create<arith::SubFOp>(
              l, convertScalar(b, l, x[0], accType), x[1]);
          return b.create<arith::AddFOp>(l, b.create<arith::MulFOp>(l, d, d),
                                         acc, reassoc);
        });
    Value ddof = createScalar(rewriter, loc, accType,
                              static_cast<double>(int64_t(op.getDdof())));
    Value divisor = rewriter.create<arith::MaximumFOp>(
        loc, rewriter.create<arith::SubFOp>(loc, count, ddof),
        createScalar(rewriter, loc, accType, 0.0));
    auto reducedType =
        RankedTensorType::get(tensorType(sum).getShape(), elementType);
    Value result =
        buildElementwise(rewriter, loc, ValueRange{squares}, reducedType,
                         [&](OpBuilder &b, Location l, ValueRange args) {
                           Value value =
                               b.create<arith::DivFOp>(l, args[0], divisor);
                           if (isStd)
                             value = b.create<math::SqrtOp>(l, value);
                           return convertScalar(b, l, value, elementType);
                         });
    rewriter.replaceOp(
        op, expandReducedDims(rewriter, loc, result, op.getType(), axes));
    return success();
  }
};

/// argmax: one `linalg.generic` with two outputs, the running maximum and
/// its index. An element replaces the current maximum only when it is
/// strictly greater, so ties keep the first index; a NaN counts as the
/// largest value and the first NaN wins, as in numpy.
struct ArgmaxLowering : OpConversionPattern<ArgmaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ArgmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inputType = tensorType(input);
    Type elementType = inputType.getElementType();
    int64_t rank = inputType.getRank();
    int64_t axis = op.getAxis();
    Type i64 = rewriter.getI64Type();

    SmallVector<OpFoldResult> sizes =
        getReducedSizes(rewriter, loc, input, {axis});
    Value maxInit = createFilled(rewriter, loc, sizes,
                                 createLowest(rewriter, loc, elementType));
    Value indexInit = createFilled(rewriter, loc, sizes,
                                   createScalar(rewriter, loc, i64, 0.0));
    AffineMap reducedMap = getReducedMap(rewriter.getContext(), rank, {axis});
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   reducedMap, reducedMap};
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{maxInit.getType(), indexInit.getType()},
        ValueRange{input}, ValueRange{maxInit, indexInit}, maps,
        getReductionIterators(rank, {axis}),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value element = args[0], best = args[1], bestIndex = args[2];
          Value index = b.create<arith::IndexCastOp>(
              l, i64, b.create<linalg::IndexOp>(l, axis));
          Value take;
          if (isa<FloatType>(elementType)) {
            Value greater = b.create<arith::CmpFOp>(
                l, arith::CmpFPredicate::OGT, element, best);
            Value isNan = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO,
                                                  element, element);
            Value bestIsNumber = b.create<arith::CmpFOp>(
                l, arith::CmpFPredicate::ORD, best, best);
            Value firstNan = b.create<arith::AndIOp>(l, isNan, bestIsNumber);
            take = b.create<arith::OrIOp>(l, greater, firstNan);
          } else {
            take = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt,
                                           element, best);
          }
          Value newBest = b.create<arith::SelectOp>(l, take, element, best);
          Value newIndex = b.create<arith::SelectOp>(l, take, index, bestIndex);
          b.create<linalg::YieldOp>(l, ValueRange{newBest, newIndex});
        });
    rewriter.replaceOp(op,
                       expandReducedDims(rewriter, loc, generic.getResult(1),
                                         op.getType(), {axis}));
    return success();
  }
};

} // namespace

void tcc::tc::populateTcReductionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ReductionLowering<SumOp, ReduceKind::Sum>,
               ReductionLowering<MeanOp, ReduceKind::Mean>,
               ReductionLowering<MaxOp, ReduceKind::Max>,
               ReductionLowering<MinOp, ReduceKind::Min>,
               ReductionLowering<ProdOp, ReduceKind::Prod>, ArgmaxLowering,
               LogSumExpLowering, MomentLowering<VarOp, false>,
               MomentLowering<StdOp, true>>(patterns.getContext());
}
