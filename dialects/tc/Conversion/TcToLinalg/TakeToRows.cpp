//===- TakeToRows.cpp - take as one row copy per id (host) ----------------===//
//
// An embedding lookup `take(E[V, D], ids[N])` copies whole rows. As one
// linalg.generic over the result (IndexingToLinalg.cpp) the compiled loop
// reloads, wraps and clamps the id for every element, and since it cannot
// prove that the output does not alias the ids, LLVM neither hoists that
// nor vectorizes the copy. Here the loops over the result's leading
// dimensions (those before the axis, then the ids') are `scf.for`s that
// read each id once, and the row (the dimensions after the axis) is copied
// by an elementwise linalg.generic into the result's slice: a contiguous
// inner loop that vectorizes. A take along the last axis has no row and
// stays with convert-tc-to-linalg.
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

struct TakeToRows : OpConversionPattern<TakeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    Value ids = adaptor.getIds();
    RankedTensorType inputType = tensorType(input);
    int64_t axis = op.getAxis();
    int64_t inputRank = inputType.getRank();
    int64_t idsRank = tensorType(ids).getRank();
    // The loops: the dimensions before the axis, then the ids'.
    int64_t loops = axis + idsRank;
    if (axis == inputRank - 1 || loops == 0)
      return rewriter.notifyMatchFailure(op, "no row, or a single row");
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    int64_t rank = resultType.getRank();
    int64_t rowRank = inputRank - axis - 1;

    SmallVector<OpFoldResult> inputSizes =
        tensor::getMixedSizes(rewriter, loc, input);
    SmallVector<OpFoldResult> idSizes =
        tensor::getMixedSizes(rewriter, loc, ids);
    SmallVector<OpFoldResult> sizes(inputSizes.begin(),
                                    inputSizes.begin() + axis);
    sizes.append(idSizes.begin(), idSizes.end());
    SmallVector<OpFoldResult> rowSizes(inputSizes.begin() + axis + 1,
                                       inputSizes.end());
    sizes.append(rowSizes.begin(), rowSizes.end());
    Value init = createLoopDestination(rewriter, loc, sizes,
                                       resultType.getElementType());
    Value axisSize = rewriter.create<tensor::DimOp>(loc, input, axis);

    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
    SmallVector<Value> lbs(loops, zero), steps(loops, one), ubs;
    for (int64_t d = 0; d < loops; ++d)
      ubs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]));

    auto rowType = RankedTensorType::get(
        inputType.getShape().drop_front(axis + 1), resultType.getElementType());
    MLIRContext *ctx = rewriter.getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rowRank, ctx);
    SmallVector<utils::IteratorType> parallel(rowRank,
                                              utils::IteratorType::parallel);
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{init},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange dests) -> scf::ValueVector {
          SmallVector<Value> idAt(ivs.begin() + axis, ivs.end());
          Value id = b.create<tensor::ExtractOp>(l, ids, idAt);
          // input[ivs before the axis, id, :...] and result[ivs, :...].
          SmallVector<OpFoldResult> from(ivs.begin(), ivs.begin() + axis);
          from.push_back(wrapAndClampId(b, l, id, axisSize));
          from.append(rowRank, b.getIndexAttr(0));
          SmallVector<OpFoldResult> fromSizes(axis + 1, b.getIndexAttr(1));
          fromSizes.append(rowSizes.begin(), rowSizes.end());
          SmallVector<OpFoldResult> to(ivs.begin(), ivs.end());
          to.append(rowRank, b.getIndexAttr(0));
          SmallVector<OpFoldResult> toSizes(loops, b.getIndexAttr(1));
          toSizes.append(rowSizes.begin(), rowSizes.end());
          Value row = b.create<tensor::ExtractSliceOp>(
              l, rowType, input, from, fromSizes,
              SmallVector<OpFoldResult>(inputRank, b.getIndexAttr(1)));
          SmallVector<OpFoldResult> unitStrides(rank, b.getIndexAttr(1));
          Value slot = b.create<tensor::ExtractSliceOp>(
              l, rowType, dests[0], to, toSizes, unitStrides);
          Value copied =
              b.create<linalg::GenericOp>(
                   l, TypeRange{rowType}, ValueRange{row}, ValueRange{slot},
                   SmallVector<AffineMap>(2, identity), parallel,
                   [&](OpBuilder &b, Location l, ValueRange args) {
                     b.create<linalg::YieldOp>(l, args[0]);
                   })
                  .getResult(0);
          return {b.create<tensor::InsertSliceOp>(l, copied, dests[0], to,
                                                  toSizes, unitStrides)
                      .getResult()};
        });
    rewriter.replaceOp(op, nest.results.front());
    return success();
  }
};

} // namespace

void tcc::tc::populateTcTakeToRowsPatterns(RewritePatternSet &patterns) {
  patterns.add<TakeToRows>(patterns.getContext());
}
