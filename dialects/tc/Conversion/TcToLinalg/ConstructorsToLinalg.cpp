//===- ConstructorsToLinalg.cpp - iota, full and scans to linalg ----------===//
//
// iota -> a linalg.generic without inputs that yields linalg.index;
// full -> a linalg.generic that broadcasts the rank-0 value; cumsum and
// cumprod -> on a CPU (sequential-scans) an scf.for along the axis that
// adds slice k-1 of the result into slice k, linear work; on a GPU one
// linalg.generic with an extra reduction loop j over the axis that
// accumulates x[.., j, ..] where j <= i (identity elsewhere), quadratic work
// but all parallel. Both add in index order, as numpy's sequential scan.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

/// The index value of a size operand. A size made by tc.size (or products
/// and constants of them) becomes tensor.dim on the host, so that a size
/// never has to be read back from a tensor that may live in device memory;
/// anything else is read with tensor.extract.
Value sizeIndex(ConversionPatternRewriter &rewriter, Location loc,
                Value original, Value converted) {
  if (auto size = original.getDefiningOp<SizeOp>())
    return rewriter.create<tensor::DimOp>(
        loc, rewriter.getRemappedValue(size.getInput()), size.getAxis());
  if (auto mul = original.getDefiningOp<MulOp>();
      mul && mul.getType().getRank() == 0) {
    Value lhs = sizeIndex(rewriter, loc, mul.getLhs(),
                          rewriter.getRemappedValue(mul.getLhs()));
    Value rhs = sizeIndex(rewriter, loc, mul.getRhs(),
                          rewriter.getRemappedValue(mul.getRhs()));
    return rewriter.create<arith::MulIOp>(loc, lhs, rhs);
  }
  if (auto constant = original.getDefiningOp<ConstantOp>()) {
    auto value = cast<DenseElementsAttr>(constant.getValue());
    return rewriter.create<arith::ConstantIndexOp>(
        loc, value.getSplatValue<APInt>().getSExtValue());
  }
  Value scalar = rewriter.create<tensor::ExtractOp>(loc, converted);
  return rewriter.create<arith::IndexCastOp>(loc, rewriter.getIndexType(),
                                             scalar);
}

/// The result sizes of a constructor: static ones from its type, dynamic
/// ones from its size operands in order.
SmallVector<OpFoldResult> constructorSizes(ConversionPatternRewriter &rewriter,
                                           Location loc, RankedTensorType type,
                                           ValueRange original,
                                           ValueRange converted) {
  SmallVector<OpFoldResult> sizes;
  unsigned next = 0;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    if (!type.isDynamicDim(dim)) {
      sizes.push_back(rewriter.getIndexAttr(type.getDimSize(dim)));
      continue;
    }
    sizes.push_back(sizeIndex(rewriter, loc, original[next], converted[next]));
    ++next;
  }
  return sizes;
}

struct IotaLowering : OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<OpFoldResult> sizes = constructorSizes(
        rewriter, loc, type, op.getSizes(), adaptor.getSizes());
    Value init =
        rewriter.create<tensor::EmptyOp>(loc, sizes, type.getElementType());
    int64_t axis = op.getAxis();
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(type.getRank())},
        iterators, [&](OpBuilder &b, Location l, ValueRange) {
          Value index = b.create<linalg::IndexOp>(l, axis);
          Value i64 = b.create<arith::IndexCastOp>(l, b.getI64Type(), index);
          b.create<linalg::YieldOp>(
              l, convertScalar(b, l, i64, type.getElementType()));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct FullLowering : OpConversionPattern<FullOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<OpFoldResult> sizes = constructorSizes(
        rewriter, loc, type, op.getSizes(), adaptor.getSizes());
    Value init =
        rewriter.create<tensor::EmptyOp>(loc, sizes, type.getElementType());
    int64_t rank = type.getRank();
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, {}, rewriter.getContext()),
        rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{type}, ValueRange{adaptor.getValue()}, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          b.create<linalg::YieldOp>(l, args[0]);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// `acc + x` (cumsum) or `acc * x` (cumprod) of scalars.
Value combineScan(OpBuilder &b, Location l, bool product, Value acc, Value x) {
  if (isa<FloatType>(acc.getType()))
    return product ? b.create<arith::MulFOp>(l, acc, x).getResult()
                   : b.create<arith::AddFOp>(l, acc, x).getResult();
  return product ? b.create<arith::MulIOp>(l, acc, x).getResult()
                 : b.create<arith::AddIOp>(l, acc, x).getResult();
}

/// The sequential scan of `input` (already in the accumulation type) along
/// `axis`: r = input; for k in [1, n): r[.., k, ..] = r[.., k-1, ..] op
/// r[.., k, ..]. One-Shot Bufferize makes it in place (on a copy where the
/// input must not change).
Value buildSequentialScan(OpBuilder &b, Location loc, Value input, int64_t axis,
                          bool product) {
  RankedTensorType type = tensorType(input);
  int64_t rank = type.getRank();
  SmallVector<int64_t> sliceShape(type.getShape());
  sliceShape[axis] = 1;
  auto sliceType = RankedTensorType::get(sliceShape, type.getElementType());
  Value n = b.create<tensor::DimOp>(loc, input, axis);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  auto loop = b.create<scf::ForOp>(
      loc, one, n, one, ValueRange{input},
      [&](OpBuilder &nb, Location l, Value k, ValueRange iter) {
        Value r = iter[0];
        SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(nb, l, r);
        sizes[axis] = nb.getIndexAttr(1);
        SmallVector<OpFoldResult> strides(rank, nb.getIndexAttr(1));
        SmallVector<OpFoldResult> prevOffsets(rank, nb.getIndexAttr(0));
        SmallVector<OpFoldResult> curOffsets(rank, nb.getIndexAttr(0));
        prevOffsets[axis] = nb.create<arith::SubIOp>(l, k, one).getResult();
        curOffsets[axis] = k;
        Value prev = nb.create<tensor::ExtractSliceOp>(
            l, sliceType, r, prevOffsets, sizes, strides);
        Value cur = nb.create<tensor::ExtractSliceOp>(
            l, sliceType, r, curOffsets, sizes, strides);
        Value next = buildElementwise(
            nb, l, ValueRange{prev, cur}, sliceType,
            [&](OpBuilder &eb, Location el, ValueRange args) {
              return combineScan(eb, el, product, args[0], args[1]);
            });
        Value updated = nb.create<tensor::InsertSliceOp>(l, next, r, curOffsets,
                                                         sizes, strides);
        nb.create<scf::YieldOp>(l, updated);
      });
  return loop.getResult(0);
}

/// cumsum (`product` false) and cumprod.
template <typename OpTy, bool product>
struct ScanLowering : OpConversionPattern<OpTy> {
  ScanLowering(MLIRContext *context, bool sequential)
      : OpConversionPattern<OpTy>(context), sequential(sequential) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorType(input);
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis();
    Type elementType = type.getElementType();
    auto resultType = cast<RankedTensorType>(op.getType());
    // f16 and bf16 accumulate in f32 and round once at the end.
    Type accType = elementType.getIntOrFloatBitWidth() < 32
                       ? Type(rewriter.getF32Type())
                       : elementType;
    auto convert = [&](Value v, Type to) {
      if (tensorType(v).getElementType() == to)
        return v;
      return buildElementwise(rewriter, loc, v,
                              RankedTensorType::get(type.getShape(), to),
                              [&](OpBuilder &b, Location l, ValueRange args) {
                                return convertScalar(b, l, args[0], to);
                              });
    };
    if (sequential) {
      Value scanned = buildSequentialScan(
          rewriter, loc, convert(input, accType), axis, product);
      rewriter.replaceOp(op, convert(scanned, resultType.getElementType()));
      return success();
    }
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, input);
    Value init = createFilled(
        rewriter, loc, sizes,
        createScalar(rewriter, loc, accType, product ? 1.0 : -0.0));
    // Loops: the result's dimensions, then j (the reduction over the axis).
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> inputExprs;
    for (int64_t d = 0; d < rank; ++d)
      inputExprs.push_back(getAffineDimExpr(d == axis ? rank : d, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, inputExprs, ctx),
        AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{init.getType()}, ValueRange{input}, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = b.create<linalg::IndexOp>(l, axis);
          Value j = b.create<linalg::IndexOp>(l, rank);
          Value inPrefix =
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ule, j, i);
          Value x = convertScalar(b, l, args[0], accType);
          Value identity = createScalar(b, l, accType, product ? 1.0 : -0.0);
          Value term = b.create<arith::SelectOp>(l, inPrefix, x, identity);
          b.create<linalg::YieldOp>(l,
                                    combineScan(b, l, product, args[1], term));
        });
    rewriter.replaceOp(op, convert(generic.getResult(0), elementType));
    return success();
  }

private:
  bool sequential;
};

} // namespace

void tcc::tc::populateTcConstructorsToLinalgPatterns(
    RewritePatternSet &patterns, bool sequentialScans) {
  patterns.add<IotaLowering, FullLowering>(patterns.getContext());
  patterns.add<ScanLowering<CumsumOp, false>, ScanLowering<CumprodOp, true>>(
      patterns.getContext(), sequentialScans);
}
