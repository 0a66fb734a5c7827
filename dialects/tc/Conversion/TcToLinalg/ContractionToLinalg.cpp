//===- ContractionToLinalg.cpp - matmul and softmax to linalg -------------===//
//
// matmul uses the named ops where they fit (2-D: linalg.matmul; rank >= 3
// by a matrix: the rows collapsed into one 2-D linalg.matmul; rank 3 with
// the same batch size: linalg.batch_matmul), so that later passes can match
// them to library calls or tiled kernels, and elementwise fusion, which only
// fuses generics, leaves them whole; every other case (a 2-D operand
// against a batched one, broadcast batch dimensions, rank > 3) is one
// linalg.generic with broadcasting batch maps. softmax and log_softmax are a
// max reduction, a sum-of-exp reduction and one elementwise generic.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// The sizes of `[..., M, K] x [..., K, N]`: each dynamic batch dimension
/// from the operand where it is dynamic (never a stretched 1), M from the
/// lhs, N from the rhs.
SmallVector<OpFoldResult> getMatmulSizes(OpBuilder &b, Location loc, Value lhs,
                                         Value rhs,
                                         RankedTensorType resultType) {
  RankedTensorType lhsType = tensorType(lhs), rhsType = tensorType(rhs);
  int64_t batchRank = resultType.getRank() - 2;
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim = 0; dim < batchRank; ++dim) {
    if (!resultType.isDynamicDim(dim)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(dim)));
      continue;
    }
    int64_t lhsDim = dim - (batchRank - (lhsType.getRank() - 2));
    bool fromLhs = lhsDim >= 0 && lhsType.isDynamicDim(lhsDim);
    int64_t rhsDim = dim - (batchRank - (rhsType.getRank() - 2));
    sizes.push_back(b.create<tensor::DimOp>(loc, fromLhs ? lhs : rhs,
                                            fromLhs ? lhsDim : rhsDim)
                        .getResult());
  }
  auto sizeOf = [&](Value operand, int64_t dim) -> OpFoldResult {
    RankedTensorType type = tensorType(operand);
    if (!type.isDynamicDim(dim))
      return b.getIndexAttr(type.getDimSize(dim));
    return b.create<tensor::DimOp>(loc, operand, dim).getResult();
  };
  sizes.push_back(sizeOf(lhs, lhsType.getRank() - 2));
  sizes.push_back(sizeOf(rhs, rhsType.getRank() - 1));
  return sizes;
}

/// The map from the loops (batch..., m, n, k) to an operand's batch
/// dimensions followed by `inner` (m, k for the lhs; k, n for the rhs). The
/// batch dimensions align at the right like numpy's; a stretched 1 reads 0.
AffineMap getMatmulOperandMap(RankedTensorType type,
                              RankedTensorType resultType,
                              ArrayRef<AffineExpr> inner) {
  MLIRContext *ctx = type.getContext();
  int64_t batchRank = resultType.getRank() - 2;
  int64_t operandBatchRank = type.getRank() - 2;
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < operandBatchRank; ++i) {
    int64_t dim = batchRank - operandBatchRank + i;
    bool stretched = type.getDimSize(i) == 1 && resultType.getDimSize(dim) != 1;
    exprs.push_back(stretched ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(dim, ctx));
  }
  exprs.append(inner.begin(), inner.end());
  return AffineMap::get(batchRank + 3, /*symbolCount=*/0, exprs, ctx);
}

/// `[..., M, K] x [K, N]` as the 2-D product `[(... * M), K] x [K, N]` of the
/// rows, expanded back to `[..., M, N]`: the code a user's hand-written
/// reshapes give. As a generic contraction it took elementwise producers
/// into its body (`matmul(x * 2, W)`) or was cut into panels around an
/// epilogue (`matmul(x, W) + b`), and left BLAS for loops 100x slower.
Value lowerRowsProduct(OpBuilder &b, Location loc, Value lhs, Value rhs,
                       RankedTensorType resultType) {
  int64_t rank = tensorType(lhs).getRank();
  ReassociationIndices rows;
  for (int64_t d = 0; d < rank - 1; ++d)
    rows.push_back(d);
  SmallVector<ReassociationIndices> groups = {rows, {rank - 1}};
  Value collapsed = b.create<tensor::CollapseShapeOp>(loc, lhs, groups);
  Value zero = createScalar(b, loc, resultType.getElementType(), 0.0);
  Value init = createFilled(b, loc,
                            {tensor::getMixedSize(b, loc, collapsed, 0),
                             tensor::getMixedSize(b, loc, rhs, 1)},
                            zero);
  Value product =
      b.create<linalg::MatmulOp>(loc, TypeRange{init.getType()},
                                 ValueRange{collapsed, rhs}, ValueRange{init})
          .getResult(0);
  // tensor.reshape, as a hand-written reshape gives: MLIR 19 bufferizes a
  // tensor.expand_shape of several dynamic sizes in one group by inferring
  // them, which it cannot, and crashes.
  SmallVector<Value> shape;
  for (int64_t d = 0; d < rank - 1; ++d)
    shape.push_back(b.createOrFold<tensor::DimOp>(loc, lhs, d));
  shape.push_back(b.createOrFold<tensor::DimOp>(loc, rhs, 1));
  Value shapeTensor = b.create<tensor::FromElementsOp>(loc, shape);
  return b.create<tensor::ReshapeOp>(loc, resultType, product, shapeTensor);
}

struct MatmulLowering : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    RankedTensorType lhsType = tensorType(lhs), rhsType = tensorType(rhs);
    RankedTensorType resultType = op.getType();
    Type elementType = resultType.getElementType();

    if (lhsType.getRank() >= 3 && rhsType.getRank() == 2) {
      rewriter.replaceOp(op,
                         lowerRowsProduct(rewriter, loc, lhs, rhs, resultType));
      return success();
    }
    Value zero = createScalar(rewriter, loc, elementType, 0.0);
    Value init =
        createFilled(rewriter, loc,
                     getMatmulSizes(rewriter, loc, lhs, rhs, resultType), zero);

    if (lhsType.getRank() == 2 && rhsType.getRank() == 2) {
      rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
          op, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init});
      return success();
    }
    // Same batch size: both static and equal, or both dynamic (then equal
    // at run time by the broadcasting rule).
    if (lhsType.getRank() == 3 && rhsType.getRank() == 3 &&
        lhsType.getDimSize(0) == rhsType.getDimSize(0)) {
      rewriter.replaceOpWithNewOp<linalg::BatchMatmulOp>(
          op, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init});
      return success();
    }

    MLIRContext *ctx = rewriter.getContext();
    int64_t batchRank = resultType.getRank() - 2;
    AffineExpr m = getAffineDimExpr(batchRank, ctx);
    AffineExpr n = getAffineDimExpr(batchRank + 1, ctx);
    AffineExpr k = getAffineDimExpr(batchRank + 2, ctx);
    SmallVector<AffineExpr> outExprs;
    for (int64_t dim = 0; dim < batchRank + 2; ++dim)
      outExprs.push_back(getAffineDimExpr(dim, ctx));
    SmallVector<AffineMap> maps = {
        getMatmulOperandMap(lhsType, resultType, {m, k}),
        getMatmulOperandMap(rhsType, resultType, {k, n}),
        AffineMap::get(batchRank + 3, /*symbolCount=*/0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(batchRank + 2,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    bool isFloat = isa<FloatType>(elementType);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value sum;
          if (isFloat) {
            // Reassociable, so the k loop vectorizes (see combine() in
            // ReductionToLinalg.cpp).
            auto fast = arith::FastMathFlagsAttr::get(
                b.getContext(),
                arith::FastMathFlags::reassoc | arith::FastMathFlags::contract);
            Value product = b.create<arith::MulFOp>(l, args[0], args[1], fast);
            sum = b.create<arith::AddFOp>(l, args[2], product, fast);
          } else {
            Value product = b.create<arith::MulIOp>(l, args[0], args[1]);
            sum = b.create<arith::AddIOp>(l, args[2], product);
          }
          b.create<linalg::YieldOp>(l, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// softmax, log_softmax
//===----------------------------------------------------------------------===//

/// Three generics along `axis`: m = max(x); s = sum(exp(x - m)); then
/// exp(x - m) / s (softmax) or (x - m) - log(s) (log_softmax). Subtracting
/// the maximum keeps exp from overflowing. f16 and bf16 are computed in f32
/// and truncated at the end, so that the sum keeps its precision.
template <typename OpTy, bool isLog>
struct NormalizeLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorType(input);
    Type elementType = type.getElementType();
    Type accType = elementType.getIntOrFloatBitWidth() < 32
                       ? rewriter.getF32Type()
                       : elementType;
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap reduced = getReducedMap(ctx, rank, {axis});
    SmallVector<OpFoldResult> sizes =
        getReducedSizes(rewriter, loc, input, {axis});
    SmallVector<utils::IteratorType> reduction =
        getReductionIterators(rank, {axis});

    // m = max(x) along the axis, in the element type (exact).
    Value lowest = createScalar(rewriter, loc, elementType,
                                -std::numeric_limits<double>::infinity());
    Value maxInit = createFilled(rewriter, loc, sizes, lowest);
    Value max =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{maxInit.getType()}, ValueRange{input},
                ValueRange{maxInit}, ArrayRef<AffineMap>{identity, reduced},
                reduction,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  b.create<linalg::YieldOp>(
                      l, b.create<arith::MaximumFOp>(l, args[0], args[1])
                             .getResult());
                })
            .getResult(0);

    // x - m in the accumulation type (the conversions in a fixed order).
    auto shifted = [&](OpBuilder &b, Location l, Value x, Value m) -> Value {
      Value wideX = convertScalar(b, l, x, accType);
      Value wideM = convertScalar(b, l, m, accType);
      return b.create<arith::SubFOp>(l, wideX, wideM);
    };

    // s = sum(exp(x - m)) along the axis.
    Value sumInit = createFilled(rewriter, loc, sizes,
                                 createScalar(rewriter, loc, accType, 0.0));
    Value sum =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{sumInit.getType()}, ValueRange{input, max},
                ValueRange{sumInit},
                ArrayRef<AffineMap>{identity, reduced, reduced}, reduction,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value e =
                      b.create<math::ExpOp>(l, shifted(b, l, args[0], args[1]));
                  auto reassoc = arith::FastMathFlagsAttr::get(
                      b.getContext(), arith::FastMathFlags::reassoc);
                  b.create<linalg::YieldOp>(
                      l, b.create<arith::AddFOp>(l, e, args[2], reassoc)
                             .getResult());
                })
            .getResult(0);

    // The elementwise result.
    Value empty = rewriter.create<tensor::EmptyOp>(
        loc, tensor::getMixedSizes(rewriter, loc, input), elementType);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    auto result = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{type}, ValueRange{input, max, sum}, ValueRange{empty},
        ArrayRef<AffineMap>{identity, reduced, reduced, identity}, parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value d = shifted(b, l, args[0], args[1]);
          Value value;
          if (isLog)
            value = b.create<arith::SubFOp>(l, d,
                                            b.create<math::LogOp>(l, args[2]));
          else
            value = b.create<arith::DivFOp>(l, b.create<math::ExpOp>(l, d),
                                            args[2]);
          b.create<linalg::YieldOp>(l, convertScalar(b, l, value, elementType));
        });
    rewriter.replaceOp(op, result.getResult(0));
    return success();
  }
};

} // namespace

void tcc::tc::populateTcContractionToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MatmulLowering, NormalizeLowering<SoftmaxOp, false>,
               NormalizeLowering<LogSoftmaxOp, true>>(patterns.getContext());
}
