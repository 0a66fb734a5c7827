//===- DataMovementToLinalg.cpp - tc data movement to linalg/tensor -------===//
//
// transpose -> linalg.transpose; broadcast_to -> a broadcasting
// linalg.generic (linalg.broadcast cannot stretch a size-1 dimension);
// slice -> tensor.extract_slice (SliceToTensor.cpp); concat -> tensor.empty and
// one tensor.insert_slice per input; reshape -> tensor.collapse_shape or
// tensor.expand_shape (views) when the dimensions group obviously, else
// tensor.reshape with a shape computed from the element count.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/SizeExpression.h"
#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

struct TransposeLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    ArrayRef<int64_t> perm = op.getPerm();
    SmallVector<OpFoldResult> inputSizes =
        tensor::getMixedSizes(rewriter, op.getLoc(), input);
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : perm)
      sizes.push_back(inputSizes[p]);
    Value init = rewriter.create<tensor::EmptyOp>(
        op.getLoc(), sizes, op.getType().getElementType());
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(op, input, init, perm);
    return success();
  }
};

struct BroadcastToLowering : OpConversionPattern<BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    if (input.getType() == op.getType()) {
      rewriter.replaceOp(op, input);
      return success();
    }
    rewriter.replaceOp(
        op, buildElementwise(rewriter, op.getLoc(), input, op.getType(),
                             [](OpBuilder &, Location, ValueRange args) {
                               return args[0];
                             }));
    return success();
  }
};

/// `a + b` on sizes, folded when both are static.
OpFoldResult addSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return b.getIndexAttr(*l + *r);
  if (l == 0)
    return rhs;
  if (r == 0)
    return lhs;
  return b
      .create<arith::AddIOp>(loc, getValueOrCreateConstantIndexOp(b, loc, lhs),
                             getValueOrCreateConstantIndexOp(b, loc, rhs))
      .getResult();
}

/// Inserts each input at its running offset along the axis into one
/// `tensor.empty`; bufferization then writes every input straight into the
/// result buffer.
struct ConcatLowering : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange inputs = adaptor.getInputs();
    RankedTensorType resultType = op.getType();
    int64_t axis = op.getAxis();
    if (inputs.size() == 1) {
      rewriter.replaceOp(op, inputs.front());
      return success();
    }
    // Every dimension but the axis is the first input's; the axis is the
    // sum of the inputs' sizes there.
    SmallVector<SmallVector<OpFoldResult>> inputSizes;
    for (Value input : inputs)
      inputSizes.push_back(tensor::getMixedSizes(rewriter, loc, input));
    SmallVector<OpFoldResult> sizes = inputSizes.front();
    if (resultType.isDynamicDim(axis)) {
      for (const auto &s : llvm::drop_begin(inputSizes))
        sizes[axis] = addSizes(rewriter, loc, sizes[axis], s[axis]);
    } else {
      sizes[axis] = rewriter.getIndexAttr(resultType.getDimSize(axis));
    }
    Value result = rewriter.create<tensor::EmptyOp>(
        loc, sizes, resultType.getElementType());

    OpFoldResult zero = rewriter.getIndexAttr(0);
    SmallVector<OpFoldResult> strides(resultType.getRank(),
                                      rewriter.getIndexAttr(1));
    OpFoldResult offset = zero;
    for (auto [i, input] : llvm::enumerate(inputs)) {
      SmallVector<OpFoldResult> offsets(resultType.getRank(), zero);
      offsets[axis] = offset;
      result = rewriter.create<tensor::InsertSliceOp>(
          loc, input, result, offsets, inputSizes[i], strides);
      if (i + 1 < inputs.size())
        offset = addSizes(rewriter, loc, offset, inputSizes[i][axis]);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

/// Groups the dimensions of `high` so that each group multiplies to one
/// dimension of the lower-rank `low`, or returns std::nullopt when that is
/// not obvious. Static dimensions of `low` take the fewest static dimensions
/// of `high` with that product (from the left before the dynamic dimension of
/// `low`, from the right after it); the one dynamic dimension of `low`, if
/// any, takes whatever is left between, which must hold a dynamic dimension.
/// Without one, trailing 1s of `high` join the last group.
std::optional<SmallVector<ReassociationIndices>>
getReassociation(ArrayRef<int64_t> high, ArrayRef<int64_t> low) {
  int64_t lowDynamic = llvm::count_if(low, ShapedType::isDynamic);
  if (lowDynamic > 1)
    return std::nullopt;
  // To or from rank 0: only 1s, and no groups at all.
  if (low.empty()) {
    if (!llvm::all_of(high, [](int64_t size) { return size == 1; }))
      return std::nullopt;
    return SmallVector<ReassociationIndices>();
  }
  int64_t begin = 0, end = high.size();
  // The group of the fewest dimensions at the front (or back) of
  // [begin, end) whose product is `size`.
  auto take = [&](int64_t size,
                  bool fromFront) -> std::optional<ReassociationIndices> {
    ReassociationIndices group;
    int64_t product = 1;
    while (begin < end) {
      int64_t dim = fromFront ? begin++ : --end;
      if (ShapedType::isDynamic(high[dim]))
        return std::nullopt;
      product *= high[dim];
      group.push_back(dim);
      if (product == size) {
        llvm::sort(group);
        return group;
      }
    }
    return std::nullopt;
  };

  SmallVector<ReassociationIndices> front, back;
  int64_t dynamicIndex =
      lowDynamic ? llvm::find_if(low, ShapedType::isDynamic) - low.begin()
                 : static_cast<int64_t>(low.size());
  for (int64_t j = 0; j < dynamicIndex; ++j) {
    std::optional<ReassociationIndices> group = take(low[j], true);
    if (!group)
      return std::nullopt;
    front.push_back(*group);
  }
  for (int64_t j = low.size() - 1; j > dynamicIndex; --j) {
    std::optional<ReassociationIndices> group = take(low[j], false);
    if (!group)
      return std::nullopt;
    back.insert(back.begin(), *group);
  }
  ReassociationIndices rest;
  bool restIsDynamic = false;
  bool restIsOnes = true;
  for (int64_t dim = begin; dim < end; ++dim) {
    rest.push_back(dim);
    restIsDynamic |= ShapedType::isDynamic(high[dim]);
    restIsOnes &= high[dim] == 1;
  }
  if (lowDynamic) {
    if (!restIsDynamic)
      return std::nullopt;
    front.push_back(rest);
  } else if (!rest.empty()) {
    if (!restIsOnes)
      return std::nullopt;
    front.back().append(rest.begin(), rest.end());
  }
  front.append(back.begin(), back.end());
  return front;
}

/// The shape that both `from` and `to` collapse to with obvious groups: the
/// products of the shortest runs of static dimensions that match, scanned
/// from the left and then from the right, and one dynamic dimension for what
/// is left between when both sides have a dynamic dimension there. For
/// example [?, 4, 3] and [?, 2, 6] give [?, 12]; [4, 6] and [6, 4] give [24].
std::optional<SmallVector<int64_t>> getCommonShape(ArrayRef<int64_t> from,
                                                   ArrayRef<int64_t> to) {
  int64_t i = 0, j = 0, iEnd = from.size(), jEnd = to.size();
  // Matches one run at the front (or back); leaves the bounds unchanged
  // and returns std::nullopt when a dynamic or zero size comes first.
  auto matchRun = [&](bool front) -> std::optional<int64_t> {
    int64_t a = i, b = j, aEnd = iEnd, bEnd = jEnd;
    auto next = [&](ArrayRef<int64_t> shape, int64_t &lo,
                    int64_t &hi) -> std::optional<int64_t> {
      if (lo >= hi)
        return std::nullopt;
      int64_t size = front ? shape[lo++] : shape[--hi];
      if (ShapedType::isDynamic(size) || size == 0)
        return std::nullopt;
      return size;
    };
    std::optional<int64_t> p = next(from, a, aEnd), q = next(to, b, bEnd);
    while (p && q && *p != *q) {
      if (*p < *q) {
        std::optional<int64_t> size = next(from, a, aEnd);
        p = size ? std::optional<int64_t>(*p * *size) : std::nullopt;
      } else {
        std::optional<int64_t> size = next(to, b, bEnd);
        q = size ? std::optional<int64_t>(*q * *size) : std::nullopt;
      }
    }
    if (!p || !q)
      return std::nullopt;
    i = a, j = b, iEnd = aEnd, jEnd = bEnd;
    return *p;
  };
  SmallVector<int64_t> front, back;
  while (std::optional<int64_t> size = matchRun(true))
    front.push_back(*size);
  while (std::optional<int64_t> size = matchRun(false))
    back.insert(back.begin(), *size);
  auto hasDynamic = [](ArrayRef<int64_t> sizes) {
    return llvm::any_of(sizes, ShapedType::isDynamic);
  };
  ArrayRef<int64_t> fromRest = from.slice(i, iEnd - i);
  ArrayRef<int64_t> toRest = to.slice(j, jEnd - j);
  auto allOnes = [](ArrayRef<int64_t> sizes) {
    return llvm::all_of(sizes, [](int64_t size) { return size == 1; });
  };
  // Leftover 1s join a neighbouring group; anything else needs a dynamic
  // dimension on both sides.
  if (!allOnes(fromRest) || !allOnes(toRest)) {
    if (!hasDynamic(fromRest) || !hasDynamic(toRest))
      return std::nullopt;
    front.push_back(ShapedType::kDynamic);
  }
  front.append(back.begin(), back.end());
  return front;
}

/// The sizes a reshape's `tc.dims` names, as values: a product of integers
/// and symbols, each symbol read (`tensor.dim`) from the first argument of
/// the enclosing function that declares it as a whole dimension, and
/// parenthesized expressions of symbols. Null for a static size and for
/// what cannot be computed so (a symbol no argument declares), which the
/// lowering then derives from the element count.
SmallVector<Value> namedSizes(OpBuilder &b, Location loc, Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Value> sizes(type.getRank());
  auto dims = op->getAttrOfType<ArrayAttr>(TcDialect::kDimsAttr);
  auto func = op->getParentOfType<func::FuncOp>();
  if (!dims || !func || (int64_t)dims.size() != type.getRank())
    return sizes;
  auto lookup = [&](StringRef symbol) -> Value {
    for (BlockArgument arg : func.getArguments()) {
      auto argDims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                      TcDialect::kDimsAttr);
      if (!argDims || !isa<RankedTensorType>(arg.getType()))
        continue;
      for (auto [i, d] : llvm::enumerate(argDims))
        if (auto name = dyn_cast<StringAttr>(d); name && name == symbol)
          return b.create<tensor::DimOp>(loc, arg, i);
    }
    return {};
  };
  for (auto [i, d] : llvm::enumerate(dims)) {
    auto text = dyn_cast<StringAttr>(d);
    if (!text || !type.isDynamicDim(i))
      continue;
    std::optional<DimProduct> product =
        productOf(Dim::dynamic(text.getValue()));
    if (!product)
      continue;
    // A factor is a symbol or a parenthesized expression of symbols (a
    // windowed size `((H-2)/2+1)`, a slice's `(max(N-1,0))`): computed
    // from the symbols, since with two such sizes the element count
    // alone does not tell them apart.
    Value size = b.create<arith::ConstantIndexOp>(loc, product->coef);
    for (const std::string &f : product->factors) {
      Value factor =
          f.front() == '(' ? buildSizeExpression(b, loc, f, lookup) : lookup(f);
      if (!factor) {
        size = {};
        break;
      }
      size = b.create<arith::MulIOp>(loc, size, factor);
    }
    sizes[i] = size;
  }
  return sizes;
}

/// `tensor.collapse_shape` of `input` to `type`, or null without obvious
/// groups.
Value createCollapse(OpBuilder &b, Location loc, Value input,
                     RankedTensorType type) {
  auto groups = getReassociation(tensorType(input).getShape(), type.getShape());
  if (!groups)
    return {};
  return b.create<tensor::CollapseShapeOp>(loc, type, input, *groups);
}

/// `tensor.expand_shape` of `input` to `type`, or null without obvious
/// groups or with a group of several dynamic sizes (which MLIR 19's
/// bufferization of expand_shape cannot infer: tensor.reshape takes them).
/// The one dynamic result dimension of a group is the input's size divided
/// by the group's static sizes.
Value createExpand(OpBuilder &b, Location loc, Value input,
                   RankedTensorType type) {
  auto groups = getReassociation(type.getShape(), tensorType(input).getShape());
  if (!groups)
    return {};
  for (const ReassociationIndices &group : *groups)
    if (llvm::count_if(group, [&](int64_t d) { return type.isDynamicDim(d); }) >
        1)
      return {};
  // From rank 0 there are no groups, and every result dimension is 1.
  SmallVector<OpFoldResult> outputShape;
  if (groups->empty())
    outputShape.assign(type.getRank(), b.getIndexAttr(1));
  for (auto [inputDim, group] : llvm::enumerate(*groups)) {
    int64_t known = 1;
    for (int64_t dim : group)
      if (!type.isDynamicDim(dim))
        known *= type.getDimSize(dim);
    for (int64_t dim : group) {
      if (!type.isDynamicDim(dim)) {
        outputShape.push_back(b.getIndexAttr(type.getDimSize(dim)));
        continue;
      }
      // A value even when it is the constant 0: the dimension is dynamic.
      Value size;
      if (known == 0) {
        size = b.create<arith::ConstantIndexOp>(loc, 0);
      } else {
        size = b.create<tensor::DimOp>(loc, input, inputDim);
        if (known != 1)
          size = b.create<arith::DivUIOp>(
              loc, size, b.create<arith::ConstantIndexOp>(loc, known));
      }
      outputShape.push_back(size);
    }
  }
  return b.create<tensor::ExpandShapeOp>(loc, type, input, *groups,
                                         outputShape);
}

/// `tensor.reshape` with a shape tensor: each static size, and the one
/// dynamic size as `element count / product(static sizes)` (0 when that
/// product is 0).
Value createReshape(OpBuilder &b, Location loc, Value input,
                    RankedTensorType type, ArrayRef<Value> named = {}) {
  int64_t known = 1;
  for (int64_t size : type.getShape())
    if (!ShapedType::isDynamic(size))
      known *= size;
  // Named sizes (at most one dynamic size is not) divide the count too.
  Value knownNamed;
  for (Value size : named)
    if (size)
      knownNamed =
          knownNamed ? b.create<arith::MulIOp>(loc, knownNamed, size) : size;
  SmallVector<Value> sizes;
  for (auto [i, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size)) {
      sizes.push_back(b.create<arith::ConstantIndexOp>(loc, size));
      continue;
    }
    if (i < named.size() && named[i]) {
      sizes.push_back(named[i]);
      continue;
    }
    if (known == 0) {
      sizes.push_back(b.create<arith::ConstantIndexOp>(loc, 0));
      continue;
    }
    RankedTensorType inputType = tensorType(input);
    if (inputType.hasStaticShape()) {
      sizes.push_back(b.create<arith::ConstantIndexOp>(
          loc, inputType.getNumElements() / known));
      continue;
    }
    Value count = createSizeProduct(
        b, loc, input,
        llvm::to_vector(llvm::seq<int64_t>(0, inputType.getRank())));
    Value divisor = b.create<arith::ConstantIndexOp>(loc, known);
    if (knownNamed)
      divisor = b.create<arith::MulIOp>(loc, divisor, knownNamed);
    sizes.push_back(b.create<arith::DivUIOp>(loc, count, divisor));
  }
  auto shapeType = RankedTensorType::get({type.getRank()}, b.getIndexType());
  Value shape = b.create<tensor::FromElementsOp>(loc, shapeType, sizes);
  return b.create<tensor::ReshapeOp>(loc, type, input, shape);
}

/// In order of preference: one collapse_shape or expand_shape; a collapse to
/// the common shape of both sides followed by an expand (two views, no
/// copy); tensor.reshape.
struct ReshapeLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inputType = tensorType(input);
    RankedTensorType resultType = op.getType();
    if (inputType == resultType) {
      rewriter.replaceOp(op, input);
      return success();
    }
    int64_t fromRank = inputType.getRank(), toRank = resultType.getRank();
    Value result;
    if (fromRank > toRank)
      result = createCollapse(rewriter, loc, input, resultType);
    else if (fromRank < toRank)
      result = createExpand(rewriter, loc, input, resultType);
    if (!result) {
      std::optional<SmallVector<int64_t>> common =
          getCommonShape(inputType.getShape(), resultType.getShape());
      // Both steps must have obvious groups before anything is created.
      if (common && static_cast<int64_t>(common->size()) < fromRank &&
          static_cast<int64_t>(common->size()) < toRank &&
          getReassociation(inputType.getShape(), *common) &&
          getReassociation(resultType.getShape(), *common) &&
          llvm::count_if(resultType.getShape(), ShapedType::isDynamic) <= 1) {
        auto commonType =
            RankedTensorType::get(*common, resultType.getElementType());
        Value collapsed = createCollapse(rewriter, loc, input, commonType);
        result = createExpand(rewriter, loc, collapsed, resultType);
      }
    }
    if (!result)
      result = createReshape(rewriter, loc, input, resultType,
                             namedSizes(rewriter, loc, op));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// size -> tensor.dim as i64, filled into a rank-0 tensor (a fill, not a
/// store, so that it also runs where tensors live in device memory).
struct SizeLowering : OpConversionPattern<SizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value size =
        rewriter.create<tensor::DimOp>(loc, adaptor.getInput(), op.getAxis());
    Value value =
        rewriter.create<arith::IndexCastOp>(loc, rewriter.getI64Type(), size);
    rewriter.replaceOp(op, createFilled(rewriter, loc, {}, value));
    return success();
  }
};

} // namespace

void tcc::tc::populateTcDataMovementToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<TransposeLowering, BroadcastToLowering, ConcatLowering,
               ReshapeLowering, SizeLowering>(patterns.getContext());
  populateTcSliceToTensorPatterns(patterns);
}
