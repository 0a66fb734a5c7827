//===- ScansToLoops.cpp - cumsum and cumprod as sequential loops ----------===//
//
// The host's scans: one sequential `scf.for` along the axis that carries
// the running sum or product, so a scan costs one pass over its input
// (convert-tc-to-linalg's quadratic linalg.generic stays for the GPU, which
// needs one kernel per op). The loops thread the result tensor as an
// iteration argument and write it with tensor.insert / insert_slice, which
// One-Shot Bufferize turns into stores in place; they never read the
// result, only the carry, so bufferization sees no read-after-write.
//
// Two forms, by what lies after the axis:
// - the axis is the last dimension: for each row, a scalar carry in a
//   register (`acc += x[.., i]; y[.., i] = acc`), contiguous reads;
// - otherwise: for each i, the carry is the slice of the inner dimensions
//   (a temporary), updated by one elementwise linalg.generic that also
//   writes y[.., i, :]: contiguous and vectorizable.
// Elements are combined in index order, as numpy's sequential scan does;
// f16 and bf16 accumulate in f32 and round each result once.
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

/// What one scan needs to build its loops.
struct Scan {
  Value input;
  int64_t axis;
  bool product;
  Type elementType;
  /// f32 for f16 and bf16, the element type otherwise.
  Type accType;

  Value identity(OpBuilder &b, Location loc) const {
    return createScalar(b, loc, accType, product ? 1.0 : -0.0);
  }
  /// `acc` combined with the input element `x` (converted to accType).
  Value combine(OpBuilder &b, Location loc, Value acc, Value x) const {
    Value term = convertScalar(b, loc, x, accType);
    if (isa<FloatType>(accType))
      return product ? b.create<arith::MulFOp>(loc, acc, term).getResult()
                     : b.create<arith::AddFOp>(loc, acc, term).getResult();
    return product ? b.create<arith::MulIOp>(loc, acc, term).getResult()
                   : b.create<arith::AddIOp>(loc, acc, term).getResult();
  }
};

/// Loops over the dimensions before the axis with `iterArgs`; `body`
/// receives their induction variables.
scf::LoopNest
buildOuterLoops(OpBuilder &b, Location loc, const Scan &scan,
                ValueRange iterArgs,
                function_ref<scf::ValueVector(OpBuilder &, Location, ValueRange,
                                              ValueRange)>
                    body) {
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d = 0; d < scan.axis; ++d) {
    lbs.push_back(zero);
    ubs.push_back(b.create<tensor::DimOp>(loc, scan.input, d));
    steps.push_back(one);
  }
  return scf::buildLoopNest(b, loc, lbs, ubs, steps, iterArgs, body);
}

/// The axis is the last dimension: one scalar carry per row.
Value buildRowScan(OpBuilder &b, Location loc, const Scan &scan, Value init) {
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value length = b.create<tensor::DimOp>(loc, scan.input, scan.axis);
  scf::LoopNest outer = buildOuterLoops(
      b, loc, scan, ValueRange{init},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange dests) -> scf::ValueVector {
        auto row = b.create<scf::ForOp>(
            loc, zero, length, one, ValueRange{dests[0], scan.identity(b, loc)},
            [&](OpBuilder &b, Location loc, Value i, ValueRange carried) {
              SmallVector<Value> at(ivs.begin(), ivs.end());
              at.push_back(i);
              Value x = b.create<tensor::ExtractOp>(loc, scan.input, at);
              Value acc = scan.combine(b, loc, carried[1], x);
              Value y = convertScalar(b, loc, acc, scan.elementType);
              Value dest = b.create<tensor::InsertOp>(loc, y, carried[0], at);
              b.create<scf::YieldOp>(loc, ValueRange{dest, acc});
            });
        return {row.getResult(0)};
      });
  return outer.results.front();
}

/// The axis has dimensions after it: the carry is a tensor of them.
Value buildPlaneScan(OpBuilder &b, Location loc, const Scan &scan, Value init) {
  auto type = cast<RankedTensorType>(scan.input.getType());
  int64_t rank = type.getRank();
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value length = b.create<tensor::DimOp>(loc, scan.input, scan.axis);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, scan.input);
  SmallVector<OpFoldResult> innerSizes(sizes.begin() + scan.axis + 1,
                                       sizes.end());
  ArrayRef<int64_t> innerShape = type.getShape().drop_front(scan.axis + 1);
  auto innerType = RankedTensorType::get(innerShape, scan.elementType);
  int64_t innerRank = innerShape.size();
  // The carry is an iteration argument of every loop, so that it
  // bufferizes to one temporary written in place.
  Value carry = b.create<tensor::EmptyOp>(loc, innerSizes, scan.accType);
  MLIRContext *ctx = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(innerRank, ctx);
  SmallVector<utils::IteratorType> parallel(innerRank,
                                            utils::IteratorType::parallel);
  scf::LoopNest outer = buildOuterLoops(
      b, loc, scan, ValueRange{init, carry},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        Value start =
            b.create<linalg::FillOp>(loc, scan.identity(b, loc), args[1])
                .getResult(0);
        auto plane = b.create<scf::ForOp>(
            loc, zero, length, one, ValueRange{args[0], start},
            [&](OpBuilder &b, Location loc, Value i, ValueRange carried) {
              // The slice [ivs..., i, :, ..., :], without its unit
              // dimensions.
              SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
              offsets.push_back(i);
              offsets.append(innerRank, b.getIndexAttr(0));
              SmallVector<OpFoldResult> sliceSizes(scan.axis + 1,
                                                   b.getIndexAttr(1));
              sliceSizes.append(innerSizes);
              SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
              auto inType =
                  RankedTensorType::get(innerShape, type.getElementType());
              Value x = b.create<tensor::ExtractSliceOp>(
                  loc, inType, scan.input, offsets, sliceSizes, strides);
              Value ySlice = b.create<tensor::ExtractSliceOp>(
                  loc, innerType, carried[0], offsets, sliceSizes, strides);
              auto step = b.create<linalg::GenericOp>(
                  loc, TypeRange{carried[1].getType(), innerType},
                  ValueRange{x}, ValueRange{carried[1], ySlice},
                  SmallVector<AffineMap>(3, identity), parallel,
                  [&](OpBuilder &b, Location loc, ValueRange args) {
                    Value acc = scan.combine(b, loc, args[1], args[0]);
                    Value y = convertScalar(b, loc, acc, scan.elementType);
                    b.create<linalg::YieldOp>(loc, ValueRange{acc, y});
                  });
              Value dest = b.create<tensor::InsertSliceOp>(
                  loc, step.getResult(1), carried[0], offsets, sliceSizes,
                  strides);
              b.create<scf::YieldOp>(loc, ValueRange{dest, step.getResult(0)});
            });
        return {plane.getResult(0), plane.getResult(1)};
      });
  return outer.results.front();
}

template <typename OpTy, bool product>
struct ScanToLoops : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Scan scan;
    scan.input = adaptor.getInput();
    scan.axis = op.getAxis();
    scan.product = product;
    scan.elementType = op.getType().getElementType();
    scan.accType = scan.elementType.getIntOrFloatBitWidth() < 32
                       ? Type(rewriter.getF32Type())
                       : scan.elementType;
    Value init = createLoopDestination(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, scan.input),
        scan.elementType);
    bool lastAxis = scan.axis == op.getType().getRank() - 1;
    rewriter.replaceOp(op, lastAxis
                               ? buildRowScan(rewriter, loc, scan, init)
                               : buildPlaneScan(rewriter, loc, scan, init));
    return success();
  }
};

} // namespace

void tcc::tc::populateTcScansToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<ScanToLoops<CumsumOp, false>, ScanToLoops<CumprodOp, true>>(
      patterns.getContext());
}
