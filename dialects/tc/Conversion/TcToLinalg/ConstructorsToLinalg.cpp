//===- ConstructorsToLinalg.cpp - iota, full and scans to linalg ----------===//
//
// iota -> a linalg.generic without inputs that yields linalg.index;
// full -> a linalg.generic that broadcasts the rank-0 value; cumsum and
// cumprod -> one linalg.generic with an extra reduction loop j over the
// axis that accumulates x[.., j, ..] where j <= i (identity elsewhere). The
// scan is quadratic in the axis length but needs no sequential loop, so the
// GPU runs it as one kernel, as any reduction; it adds in index order, as
// numpy's sequential scan does. The host lowers scans before this pass, as
// linear loops (convert-tc-to-host-loops, ScansToLoops.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

/// The index value of a size operand. A size made by tc.size (or sums,
/// differences, quotients, maxima, products and constants of them) becomes
/// tensor.dim and index arithmetic on the host, so that a size
/// never has to be read back from a tensor that may live in device memory;
/// anything else is read with tensor.extract.
Value sizeIndex(ConversionPatternRewriter &rewriter, Location loc,
                Value original, Value converted) {
  if (auto size = original.getDefiningOp<SizeOp>())
    return rewriter.create<tensor::DimOp>(
        loc, rewriter.getRemappedValue(size.getInput()), size.getAxis());
  // The arithmetic of sizes (products, and arange's count): index
  // arithmetic on the operands' sizes. Sizes are never negative, so the
  // truncating division of tc.div is arith.divsi's.
  // A quotient only by a positive constant: tc.div's x / 0 is 0.
  Operation *def = original.getDefiningOp();
  if (auto div = dyn_cast_or_null<DivOp>(def)) {
    auto divisor = div.getRhs().getDefiningOp<ConstantOp>();
    auto value = divisor ? dyn_cast<DenseElementsAttr>(divisor.getValue())
                         : DenseElementsAttr();
    if (!value || !value.isSplat() || !value.getElementType().isInteger(64) ||
        value.getSplatValue<APInt>().getSExtValue() <= 0)
      def = nullptr;
  }
  if (isa_and_nonnull<MulOp, AddOp, SubOp, DivOp, MaximumOp>(def) &&
      cast<RankedTensorType>(original.getType()).getRank() == 0) {
    Value lhs = sizeIndex(rewriter, loc, def->getOperand(0),
                          rewriter.getRemappedValue(def->getOperand(0)));
    Value rhs = sizeIndex(rewriter, loc, def->getOperand(1),
                          rewriter.getRemappedValue(def->getOperand(1)));
    if (isa<MulOp>(def))
      return rewriter.create<arith::MulIOp>(loc, lhs, rhs);
    if (isa<AddOp>(def))
      return rewriter.create<arith::AddIOp>(loc, lhs, rhs);
    if (isa<SubOp>(def))
      return rewriter.create<arith::SubIOp>(loc, lhs, rhs);
    if (isa<DivOp>(def))
      return rewriter.create<arith::DivSIOp>(loc, lhs, rhs);
    return rewriter.create<arith::MaxSIOp>(loc, lhs, rhs);
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

/// cumsum (`product` false) and cumprod.
template <typename OpTy, bool product>
struct ScanLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorType(input);
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis();
    Type elementType = type.getElementType();
    // f16 and bf16 accumulate in f32 and round once at the end.
    Type accType = elementType.getIntOrFloatBitWidth() < 32
                       ? Type(rewriter.getF32Type())
                       : elementType;
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
          Value acc = args[1];
          Value next;
          if (isa<FloatType>(accType))
            next = product ? b.create<arith::MulFOp>(l, acc, term).getResult()
                           : b.create<arith::AddFOp>(l, acc, term).getResult();
          else
            next = product ? b.create<arith::MulIOp>(l, acc, term).getResult()
                           : b.create<arith::AddIOp>(l, acc, term).getResult();
          b.create<linalg::YieldOp>(l, next);
        });
    Value result = generic.getResult(0);
    if (accType != elementType)
      result = buildElementwise(
          rewriter, loc, result, cast<RankedTensorType>(op.getType()),
          [&](OpBuilder &b, Location l, ValueRange args) {
            return convertScalar(b, l, args[0], elementType);
          });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tcc::tc::populateTcConstructorsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<IotaLowering, FullLowering, ScanLowering<CumsumOp, false>,
               ScanLowering<CumprodOp, true>>(patterns.getContext());
}
