//===- ConvToLinalg.cpp - convolution and pooling to linalg ---------------===//
//
// conv1d is conv2d with a spatial dimension of size 1 (tensor.expand_shape).
// Padding is a filled tensor with the input inserted (as concat does), so
// that the windows read only in-bounds elements. Then:
//   - channels first, one group: linalg.conv_2d_nchw_fchw;
//   - channels first, several groups: linalg.conv_2d_ngchw_gfchw on the
//     grouped views [N, G, C/G, H, W] and [G, O/G, C/G, KH, KW];
//   - channels last, one group: linalg.conv_2d_nhwc_hwcf;
//   - channels last, several groups: a linalg.generic over the grouped views
//     [N, H, W, G, C/G] and [KH, KW, C/G, G, O/G] (no named op has HWIO
//     groups).
// The named ops are what the CPU pipeline's tcc-conv-to-blas matches (f32,
// f64: im2col and GEMM in runtime/kernels/Conv.cpp); every other case, and
// nvptx, compiles the linalg op itself. Pooling pads with the lowest value
// (max) or zero (avg), then linalg.pooling_{nchw,nhwc}_{max,sum}; avg divides
// by the window size.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/ConvShapes.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

/// `x` padded by `low[d]`/`high[d]` elements of `value` in every dimension:
/// a filled tensor with `x` inserted; `x` itself when nothing is padded.
Value pad(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
          ArrayRef<int64_t> high, Value value) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return x;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  SmallVector<OpFoldResult> padded, offsets;
  for (auto [d, size] : llvm::enumerate(sizes)) {
    offsets.push_back(b.getIndexAttr(low[d]));
    if (auto attr = dyn_cast<Attribute>(size)) {
      padded.push_back(
          b.getIndexAttr(cast<IntegerAttr>(attr).getInt() + low[d] + high[d]));
      continue;
    }
    Value extra = b.create<arith::ConstantIndexOp>(loc, low[d] + high[d]);
    padded.push_back(
        b.create<arith::AddIOp>(loc, cast<Value>(size), extra).getResult());
  }
  Value filled = createFilled(b, loc, padded, value);
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  return b.create<tensor::InsertSliceOp>(loc, x, filled, offsets, sizes,
                                         strides);
}

/// The sizes of a windowed result: static ones from its type; a dynamic
/// batch is the input's; a dynamic spatial size `i` (at `first + i`) is
/// `(size + lo + hi - span) / stride + 1` of the input's (ConvShapes.h),
/// which tc-shape-checks made sure is at least 1.
SmallVector<OpFoldResult> resultSizes(OpBuilder &b, Location loc, Value input,
                                      RankedTensorType resultType,
                                      int64_t first, ArrayRef<int64_t> kernel,
                                      ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> padding,
                                      ArrayRef<int64_t> dilations) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    if (!resultType.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    Value size = b.create<tensor::DimOp>(loc, input, d);
    int64_t i = d - first;
    if (d < first || i >= (int64_t)kernel.size()) {
      sizes.push_back(size);
      continue;
    }
    int64_t span = dilations[i] * (kernel[i] - 1) + 1;
    int64_t extra = padding[2 * i] + padding[2 * i + 1] - span;
    auto constant = [&](int64_t c) -> Value {
      return b.create<arith::ConstantIndexOp>(loc, c);
    };
    Value windows = b.create<arith::DivUIOp>(
        loc, b.create<arith::AddIOp>(loc, size, constant(extra)),
        constant(strides[i]));
    sizes.push_back(
        b.create<arith::AddIOp>(loc, windows, constant(1)).getResult());
  }
  return sizes;
}

/// Splits dimension `dim` of `x` into [groups, size / groups].
Value splitDim(OpBuilder &b, Location loc, Value x, int64_t dim,
               int64_t groups) {
  RankedTensorType type = tensorType(x);
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] /= groups;
  shape.insert(shape.begin() + dim, groups);
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0, r = 0; d < type.getRank(); ++d) {
    ReassociationIndices group{r++};
    if (d == dim)
      group.push_back(r++);
    reassociation.push_back(group);
  }
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  sizes[dim] = b.getIndexAttr(shape[dim + 1]);
  sizes.insert(sizes.begin() + dim, b.getIndexAttr(groups));
  return b.create<tensor::ExpandShapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), x,
      reassociation, sizes);
}

/// Joins dimensions `dim` and `dim + 1` of `x` (the inverse of splitDim).
Value joinDims(OpBuilder &b, Location loc, Value x, int64_t dim) {
  RankedTensorType type = tensorType(x);
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == dim + 1)
      continue;
    ReassociationIndices group{d};
    if (d == dim)
      group.push_back(d + 1);
    reassociation.push_back(group);
  }
  return b.create<tensor::CollapseShapeOp>(loc, x, reassociation);
}

/// Inserts a size-1 dimension at `dim` (conv1d as conv2d).
Value insertUnitDim(OpBuilder &b, Location loc, Value x, int64_t dim) {
  RankedTensorType type = tensorType(x);
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + dim, 1);
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0, r = 0; d < type.getRank(); ++d) {
    ReassociationIndices group;
    if (d == dim)
      group.push_back(r++);
    group.push_back(r++);
    reassociation.push_back(group);
  }
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, x);
  sizes.insert(sizes.begin() + dim, b.getIndexAttr(1));
  return b.create<tensor::ExpandShapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), x,
      reassociation, sizes);
}

/// The 2-D convolution of `input` (already padded) by `filter` into a zero
/// `init` of the result's shape.
Value conv2d(OpBuilder &b, Location loc, Value input, Value filter, Value init,
             bool channelsLast, ArrayRef<int64_t> strides,
             ArrayRef<int64_t> dilations, int64_t groups) {
  auto stridesAttr = b.getI64TensorAttr(strides);
  auto dilationsAttr = b.getI64TensorAttr(dilations);
  RankedTensorType initType = tensorType(init);
  // One group: the plain named op, so that the result can be the output's
  // buffer (a grouped view's collapse costs the CPU a copy of it).
  if (!channelsLast && groups == 1)
    return b
        .create<linalg::Conv2DNchwFchwOp>(
            loc, TypeRange{initType}, ValueRange{input, filter},
            ValueRange{init}, stridesAttr, dilationsAttr)
        .getResult(0);
  if (!channelsLast) {
    Value x = splitDim(b, loc, input, 1, groups);
    Value w = splitDim(b, loc, filter, 0, groups);
    Value out = splitDim(b, loc, init, 1, groups);
    Value conv = b.create<linalg::Conv2DNgchwGfchwOp>(
                      loc, TypeRange{out.getType()}, ValueRange{x, w},
                      ValueRange{out}, stridesAttr, dilationsAttr)
                     .getResult(0);
    return joinDims(b, loc, conv, 1);
  }
  if (groups == 1)
    return b
        .create<linalg::Conv2DNhwcHwcfOp>(
            loc, TypeRange{initType}, ValueRange{input, filter},
            ValueRange{init}, stridesAttr, dilationsAttr)
        .getResult(0);
  Value x = splitDim(b, loc, input, 3, groups);
  Value w = splitDim(b, loc, filter, 3, groups);
  Value out = splitDim(b, loc, init, 3, groups);
  // Loops (n, oh, ow, g, f, kh, kw, c).
  MLIRContext *ctx = b.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = {
      AffineMap::get(8, 0,
                     {d(0), d(1) * strides[0] + d(5) * dilations[0],
                      d(2) * strides[1] + d(6) * dilations[1], d(3), d(7)},
                     ctx),
      AffineMap::get(8, 0, {d(5), d(6), d(7), d(3), d(4)}, ctx),
      AffineMap::get(8, 0, {d(0), d(1), d(2), d(3), d(4)}, ctx)};
  SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
  iterators.append(3, utils::IteratorType::reduction);
  bool isFloat = isa<FloatType>(initType.getElementType());
  Value conv =
      b.create<linalg::GenericOp>(
           loc, TypeRange{out.getType()}, ValueRange{x, w}, ValueRange{out},
           maps, iterators,
           [&](OpBuilder &nb, Location l, ValueRange args) {
             Value sum;
             if (isFloat)
               sum = nb.create<arith::AddFOp>(
                   l, args[2], nb.create<arith::MulFOp>(l, args[0], args[1]));
             else
               sum = nb.create<arith::AddIOp>(
                   l, args[2], nb.create<arith::MulIOp>(l, args[0], args[1]));
             nb.create<linalg::YieldOp>(l, sum);
           })
          .getResult(0);
  return joinDims(b, loc, conv, 3);
}

template <typename OpTy> struct ConvLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), filter = adaptor.getFilter();
    RankedTensorType resultType = op.getType();
    int64_t spatialRank = resultType.getRank() - 2;
    bool last = *channelsLastOf(op.getLayout(), spatialRank);
    Type element = resultType.getElementType();
    SmallVector<int64_t> strides(op.getStrides()), dilations(op.getDilations()),
        padding(op.getPadding());
    int64_t first = last ? 1 : 2;
    auto filterType = cast<RankedTensorType>(filter.getType());
    SmallVector<int64_t> kernel;
    for (int64_t i = 0; i < spatialRank; ++i)
      kernel.push_back(filterType.getDimSize(last ? i : 2 + i));
    Value init =
        createFilled(rewriter, loc,
                     resultSizes(rewriter, loc, input, resultType, first,
                                 kernel, strides, padding, dilations),
                     createScalar(rewriter, loc, element, 0.0));
    // conv1d: a spatial dimension of size 1 before the one there is.
    int64_t unitAt = last ? 1 : 2;
    if (spatialRank == 1) {
      input = insertUnitDim(rewriter, loc, input, unitAt);
      filter = insertUnitDim(rewriter, loc, filter, last ? 0 : 2);
      init = insertUnitDim(rewriter, loc, init, unitAt);
      strides.insert(strides.begin(), 1);
      dilations.insert(dilations.begin(), 1);
      padding.insert(padding.begin(), {0, 0});
    }
    SmallVector<int64_t> low(4, 0), high(4, 0);
    first = last ? 1 : 2;
    for (int64_t i = 0; i < 2; ++i) {
      low[first + i] = padding[2 * i];
      high[first + i] = padding[2 * i + 1];
    }
    input = pad(rewriter, loc, input, low, high,
                createScalar(rewriter, loc, element, 0.0));
    Value result = conv2d(rewriter, loc, input, filter, init, last, strides,
                          dilations, op.getGroups());
    if (spatialRank == 1)
      result = joinDims(rewriter, loc, result, unitAt);
    rewriter.replaceOp(op, result);
    return success();
  }
};

template <typename OpTy, bool isMax>
struct PoolLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType resultType = op.getType();
    Type element = resultType.getElementType();
    bool last = *channelsLastOf(op.getLayout(), 2);
    ArrayRef<int64_t> kernel = op.getKernel(), padding = op.getPadding();
    double lowest = -std::numeric_limits<double>::infinity();
    if (auto integer = dyn_cast<IntegerType>(element))
      lowest =
          double(APInt::getSignedMinValue(integer.getWidth()).getSExtValue());
    Value identity = createScalar(rewriter, loc, element, isMax ? lowest : 0.0);
    SmallVector<int64_t> low(4, 0), high(4, 0);
    int64_t first = last ? 1 : 2;
    for (int64_t i = 0; i < 2; ++i) {
      low[first + i] = padding[2 * i];
      high[first + i] = padding[2 * i + 1];
    }
    input = pad(rewriter, loc, input, low, high, identity);
    Value init = createFilled(rewriter, loc,
                              resultSizes(rewriter, loc, adaptor.getInput(),
                                          resultType, first, kernel,
                                          op.getStrides(), padding, {1, 1}),
                              identity);
    Value window = rewriter.create<tensor::EmptyOp>(loc, kernel, element);
    auto stridesAttr = rewriter.getI64TensorAttr(op.getStrides());
    auto dilationsAttr = rewriter.getI64TensorAttr({1, 1});
    SmallVector<Value, 2> ins{input, window};
    Value pooled;
    if (isMax && last)
      pooled = rewriter
                   .create<linalg::PoolingNhwcMaxOp>(loc, TypeRange{resultType},
                                                     ins, ValueRange{init},
                                                     stridesAttr, dilationsAttr)
                   .getResult(0);
    else if (isMax)
      pooled = rewriter
                   .create<linalg::PoolingNchwMaxOp>(loc, TypeRange{resultType},
                                                     ins, ValueRange{init},
                                                     stridesAttr, dilationsAttr)
                   .getResult(0);
    else if (last)
      pooled = rewriter
                   .create<linalg::PoolingNhwcSumOp>(loc, TypeRange{resultType},
                                                     ins, ValueRange{init},
                                                     stridesAttr, dilationsAttr)
                   .getResult(0);
    else
      pooled = rewriter
                   .create<linalg::PoolingNchwSumOp>(loc, TypeRange{resultType},
                                                     ins, ValueRange{init},
                                                     stridesAttr, dilationsAttr)
                   .getResult(0);
    if (!isMax) {
      // The mean of the window, padding counted (count_include_pad).
      Value count =
          createScalar(rewriter, loc, element, double(kernel[0] * kernel[1]));
      pooled = buildElementwise(
          rewriter, loc, ValueRange{pooled}, resultType,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            return b.create<arith::DivFOp>(l, args[0], count);
          });
    }
    rewriter.replaceOp(op, pooled);
    return success();
  }
};

} // namespace

void tcc::tc::populateTcConvToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<ConvLowering<Conv1DOp>, ConvLowering<Conv2DOp>,
           PoolLowering<MaxPool2DOp, true>, PoolLowering<AvgPool2DOp, false>>(
          patterns.getContext());
}
