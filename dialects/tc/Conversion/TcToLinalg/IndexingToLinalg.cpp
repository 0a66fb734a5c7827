//===- IndexingToLinalg.cpp - take and its relatives to linalg ------------===//
//
// A gather is one `linalg.generic` over the result whose body reads the
// input with `tensor.extract` at the id: a loop, not a one-hot matmul, so an
// embedding lookup costs what it copies. Every id is wrapped (negative ids
// count from the end) and then clamped into the axis, so no read leaves the
// input even for a bad id; bad ids are refused before the function runs by
// the prologue that tc-index-checks builds, so the clamp never changes a
// result that a caller sees.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

struct TakeLowering : OpConversionPattern<TakeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value ids = adaptor.getIds();
    RankedTensorType resultType = op.getType();
    int64_t axis = op.getAxis();
    int64_t idsRank = tensorType(ids).getRank();
    int64_t inputRank = tensorType(input).getRank();
    int64_t rank = resultType.getRank();
    MLIRContext *ctx = rewriter.getContext();

    // Result sizes: the input's around the axis, the ids' in its place.
    SmallVector<OpFoldResult> inputSizes =
        tensor::getMixedSizes(rewriter, loc, input);
    SmallVector<OpFoldResult> idSizes =
        tensor::getMixedSizes(rewriter, loc, ids);
    SmallVector<OpFoldResult> sizes(inputSizes.begin(),
                                    inputSizes.begin() + axis);
    sizes.append(idSizes.begin(), idSizes.end());
    sizes.append(inputSizes.begin() + axis + 1, inputSizes.end());
    Value init = rewriter.create<tensor::EmptyOp>(loc, sizes,
                                                  resultType.getElementType());
    Value axisSize = rewriter.create<tensor::DimOp>(loc, input, axis);

    // The loops are the result's dimensions; the ids are read at the
    // loops [axis, axis + idsRank).
    SmallVector<AffineExpr> idExprs;
    for (int64_t d = 0; d < idsRank; ++d)
      idExprs.push_back(getAffineDimExpr(axis + d, ctx));
    AffineMap idMap = AffineMap::get(rank, 0, idExprs, ctx);
    AffineMap resultMap = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, resultType, ValueRange{ids}, ValueRange{init},
        ArrayRef<AffineMap>{idMap, resultMap}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < axis; ++d)
            at.push_back(b.create<linalg::IndexOp>(l, d));
          at.push_back(wrapAndClampId(b, l, args[0], axisSize));
          for (int64_t d = axis + 1; d < inputRank; ++d)
            at.push_back(b.create<linalg::IndexOp>(l, d - 1 + idsRank));
          Value v = b.create<tensor::ExtractOp>(l, input, at);
          b.create<linalg::YieldOp>(l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct TakeAlongAxisLowering : OpConversionPattern<TakeAlongAxisOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TakeAlongAxisOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value ids = adaptor.getIds();
    RankedTensorType resultType = op.getType();
    int64_t axis = op.getAxis();
    int64_t rank = resultType.getRank();
    MLIRContext *ctx = rewriter.getContext();
    Value init = rewriter.create<tensor::EmptyOp>(
        loc, tensor::getMixedSizes(rewriter, loc, ids),
        resultType.getElementType());
    Value axisSize = rewriter.create<tensor::DimOp>(loc, input, axis);
    SmallVector<Value> lastIndex;
    Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
    for (int64_t d = 0; d < rank; ++d)
      lastIndex.push_back(rewriter.create<arith::SubIOp>(
          loc, rewriter.create<tensor::DimOp>(loc, input, d), one));
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, resultType, ValueRange{ids}, ValueRange{init},
        ArrayRef<AffineMap>{identity, identity}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> at;
          // The other indices are clamped too: the runtime checks that the
          // ids' sizes are the input's, but anonymous `?` sizes (MLIR
          // input) have no symbol to check.
          for (int64_t d = 0; d < rank; ++d)
            at.push_back(d == axis ? wrapAndClampId(b, l, args[0], axisSize)
                                   : b.create<arith::MinSIOp>(
                                          l, b.create<linalg::IndexOp>(l, d),
                                          lastIndex[d])
                                         .getResult());
          b.create<linalg::YieldOp>(
              l, b.create<tensor::ExtractOp>(l, input, at).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// One loop nest over the updates that adds each into a copy of the input
/// at its (wrapped, clamped) id: `scf.for` with the tensor as iteration
/// argument, which bufferizes to stores in place.
struct ScatterAddLowering : OpConversionPattern<ScatterAddOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value ids = adaptor.getIds();
    Value updates = adaptor.getUpdates();
    int64_t axis = op.getAxis();
    int64_t idsRank = tensorType(ids).getRank();
    int64_t inputRank = tensorType(input).getRank();
    Type elementType = op.getType().getElementType();
    // A fresh copy of the input to accumulate into.
    Value empty = rewriter.create<tensor::EmptyOp>(
        loc, tensor::getMixedSizes(rewriter, loc, input), elementType);
    Value acc = rewriter.create<linalg::CopyOp>(loc, input, empty).getResult(0);
    Value axisSize = rewriter.create<tensor::DimOp>(loc, input, axis);
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
    SmallVector<Value> lbs, ubs, steps;
    // The loops run over the updates, but never past the ids or the input:
    // the runtime checks that the sizes agree, but anonymous `?` sizes
    // (MLIR input) have no symbol to check.
    for (int64_t d = 0; d < tensorType(updates).getRank(); ++d) {
      lbs.push_back(zero);
      Value bound = d >= axis && d < axis + idsRank
                        ? rewriter.create<tensor::DimOp>(loc, ids, d - axis)
                        : rewriter.create<tensor::DimOp>(
                              loc, input, d < axis ? d : d - idsRank + 1);
      ubs.push_back(rewriter.create<arith::MinSIOp>(
          loc, rewriter.create<tensor::DimOp>(loc, updates, d), bound));
      steps.push_back(one);
    }
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{acc},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iterArgs) -> scf::ValueVector {
          SmallVector<Value> idAt(ivs.begin() + axis,
                                  ivs.begin() + axis + idsRank);
          Value id = b.create<tensor::ExtractOp>(l, ids, idAt);
          SmallVector<Value> at(ivs.begin(), ivs.begin() + axis);
          at.push_back(wrapAndClampId(b, l, id, axisSize));
          for (int64_t d = axis + 1; d < inputRank; ++d)
            at.push_back(ivs[d - 1 + idsRank]);
          Value update = b.create<tensor::ExtractOp>(l, updates, ivs);
          Value old = b.create<tensor::ExtractOp>(l, iterArgs[0], at);
          Value sum = isa<FloatType>(elementType)
                          ? b.create<arith::AddFOp>(l, old, update).getResult()
                          : b.create<arith::AddIOp>(l, old, update).getResult();
          return {
              b.create<tensor::InsertOp>(l, sum, iterArgs[0], at).getResult()};
        });
    rewriter.replaceOp(op, nest.results.empty() ? acc : nest.results[0]);
    return success();
  }
};

struct OneHotLowering : OpConversionPattern<OneHotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value ids = adaptor.getIds();
    RankedTensorType resultType = op.getType();
    int64_t rank = resultType.getRank();
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, ids);
    sizes.push_back(rewriter.getIndexAttr(op.getDepth()));
    Value init = rewriter.create<tensor::EmptyOp>(loc, sizes,
                                                  resultType.getElementType());
    AffineMap idMap =
        AffineMap::getMultiDimIdentityMap(rank, ctx).dropResult(rank - 1);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Type elementType = resultType.getElementType();
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, resultType, ValueRange{ids}, ValueRange{init},
        ArrayRef<AffineMap>{idMap, identity}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value c = b.create<linalg::IndexOp>(l, rank - 1);
          Value id = b.create<arith::IndexCastOp>(l, b.getIndexType(), args[0]);
          Value hit =
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, id, c);
          Value r = elementType.isInteger(1)
                        ? hit
                        : b.create<arith::SelectOp>(
                               l, hit, createScalar(b, l, elementType, 1),
                               createScalar(b, l, elementType, 0))
                              .getResult();
          b.create<linalg::YieldOp>(l, r);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// `tensor.extract_slice` at the starts, each clamped into
/// `[0, size - sizes[d]]` so that the view never leaves the input.
struct DynamicSliceLowering : OpConversionPattern<DynamicSliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DynamicSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    MLIRContext *ctx = rewriter.getContext();
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    SmallVector<OpFoldResult> offsets;
    for (auto [d, start] : llvm::enumerate(adaptor.getStarts())) {
      Value s = rewriter.create<tensor::ExtractOp>(loc, start, ValueRange{});
      s = rewriter.create<arith::IndexCastOp>(loc, rewriter.getIndexType(), s);
      Value dim = rewriter.create<tensor::DimOp>(loc, input, d);
      Value size =
          rewriter.create<arith::ConstantIndexOp>(loc, op.getSizes()[d]);
      // A size larger than the dimension (anonymous `?` sizes of MLIR
      // input) makes `last` negative: the offset is 0 all the same.
      Value last = rewriter.create<arith::SubIOp>(loc, dim, size);
      offsets.push_back(
          rewriter
              .create<arith::MaxSIOp>(
                  loc, clampIndex(rewriter, loc, s, zero, last), zero)
              .getResult());
    }
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(ctx, op.getSizes());
    SmallVector<OpFoldResult> strides(op.getSizes().size(),
                                      rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, op.getType(), input, offsets, sizes, strides);
    return success();
  }
};

} // namespace

void tcc::tc::populateTcIndexingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<TakeLowering, TakeAlongAxisLowering, ScatterAddLowering,
               OneHotLowering, DynamicSliceLowering>(patterns.getContext());
}
