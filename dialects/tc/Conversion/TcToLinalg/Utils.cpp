//===- Utils.cpp - helpers shared by the tc-to-linalg patterns ------------===//

#include "dialects/tc/Conversion/TcToLinalg/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cassert>

using namespace mlir;

namespace tcc::tc::lowering {

AffineMap getBroadcastMap(RankedTensorType operandType,
                          RankedTensorType resultType) {
  MLIRContext *ctx = resultType.getContext();
  int64_t rank = resultType.getRank();
  int64_t offset = rank - operandType.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < operandType.getRank(); ++i) {
    int64_t dim = offset + i;
    bool stretched =
        operandType.getDimSize(i) == 1 && resultType.getDimSize(dim) != 1;
    exprs.push_back(stretched ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(dim, ctx));
  }
  return AffineMap::get(rank, /*symbolCount=*/0, exprs, ctx);
}

SmallVector<OpFoldResult> getBroadcastSizes(OpBuilder &b, Location loc,
                                            ValueRange operands,
                                            RankedTensorType resultType) {
  int64_t rank = resultType.getRank();
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!resultType.isDynamicDim(dim)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(dim)));
      continue;
    }
    Value size;
    for (Value operand : operands) {
      RankedTensorType type = tensorType(operand);
      int64_t i = dim - (rank - type.getRank());
      if (i >= 0 && type.isDynamicDim(i)) {
        size = b.create<tensor::DimOp>(loc, operand, i);
        break;
      }
    }
    // The shape rules make a result dimension dynamic only where an operand
    // has a dynamic dimension.
    assert(size && "dynamic result dimension without a dynamic operand");
    sizes.push_back(size);
  }
  return sizes;
}

Value buildElementwise(OpBuilder &b, Location loc, ValueRange inputs,
                       RankedTensorType resultType, ScalarFn fn) {
  SmallVector<OpFoldResult> sizes =
      getBroadcastSizes(b, loc, inputs, resultType);
  Value init =
      b.create<tensor::EmptyOp>(loc, sizes, resultType.getElementType());
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(getBroadcastMap(tensorType(input), resultType));
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = fn(nested, nestedLoc, args.drop_back());
        nested.create<linalg::YieldOp>(nestedLoc, result);
      });
  return generic.getResult(0);
}

Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                   Value value) {
  Value empty = b.create<tensor::EmptyOp>(loc, sizes, value.getType());
  return b.create<linalg::FillOp>(loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

SmallVector<OpFoldResult> getReducedSizes(OpBuilder &b, Location loc,
                                          Value input, ArrayRef<int64_t> axes) {
  RankedTensorType type = tensorType(input);
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    if (llvm::is_contained(axes, dim))
      continue;
    if (type.isDynamicDim(dim))
      sizes.push_back(b.create<tensor::DimOp>(loc, input, dim).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(dim)));
  }
  return sizes;
}

AffineMap getReducedMap(MLIRContext *ctx, int64_t rank,
                        ArrayRef<int64_t> axes) {
  SmallVector<AffineExpr> exprs;
  for (int64_t dim = 0; dim < rank; ++dim)
    if (!llvm::is_contained(axes, dim))
      exprs.push_back(getAffineDimExpr(dim, ctx));
  return AffineMap::get(rank, /*symbolCount=*/0, exprs, ctx);
}

SmallVector<utils::IteratorType> getReductionIterators(int64_t rank,
                                                       ArrayRef<int64_t> axes) {
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  for (int64_t axis : axes)
    iterators[axis] = utils::IteratorType::reduction;
  return iterators;
}

Value expandReducedDims(OpBuilder &b, Location loc, Value reduced,
                        RankedTensorType type, ArrayRef<int64_t> axes) {
  if (reduced.getType() == type)
    return reduced;
  // Each kept dimension starts a group; the size-1 dimensions that follow it
  // join its group, and leading ones join the first group. With no kept
  // dimension the source has rank 0 and the reassociation is empty.
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  SmallVector<OpFoldResult> reducedSizes =
      tensor::getMixedSizes(b, loc, reduced);
  SmallVector<OpFoldResult> outputShape;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    if (llvm::is_contained(axes, dim)) {
      outputShape.push_back(b.getIndexAttr(1));
      if (groups.empty())
        leading.push_back(dim);
      else
        groups.back().push_back(dim);
      continue;
    }
    outputShape.push_back(reducedSizes[groups.size()]);
    ReassociationIndices group = leading;
    group.push_back(dim);
    leading.clear();
    groups.push_back(group);
  }
  return b.create<tensor::ExpandShapeOp>(loc, type, reduced, groups,
                                         outputShape);
}

Value createSizeProduct(OpBuilder &b, Location loc, Value tensor,
                        ArrayRef<int64_t> dims) {
  RankedTensorType type = tensorType(tensor);
  int64_t staticProduct = 1;
  Value product;
  for (int64_t dim : dims) {
    if (!type.isDynamicDim(dim)) {
      staticProduct *= type.getDimSize(dim);
      continue;
    }
    Value size = b.create<tensor::DimOp>(loc, tensor, dim);
    product = product ? b.create<arith::MulIOp>(loc, product, size) : size;
  }
  if (!product)
    return b.create<arith::ConstantIndexOp>(loc, staticProduct);
  if (staticProduct == 1)
    return product;
  Value factor = b.create<arith::ConstantIndexOp>(loc, staticProduct);
  return b.create<arith::MulIOp>(loc, product, factor);
}

Value createScalar(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(floatType, value));
  auto intType = cast<IntegerType>(type);
  int64_t intValue =
      intType.getWidth() == 1 ? value != 0.0 : static_cast<int64_t>(value);
  return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(intType, intValue));
}

Value convertScalar(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  // Any number to i1 is `x != 0`; NaN is true, as in numpy.
  if (to.isInteger(1)) {
    Value zero = createScalar(b, loc, from, 0.0);
    if (fromFloat)
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, value,
                                     zero);
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, value, zero);
  }
  // i1 is unsigned: true becomes 1, not -1.
  if (from.isInteger(1)) {
    if (toFloat)
      return b.create<arith::UIToFPOp>(loc, to, value);
    return b.create<arith::ExtUIOp>(loc, to, value);
  }
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return b.create<arith::ExtFOp>(loc, to, value);
    // Narrowing rounds once, to nearest even: f64 -> bf16 or f16 too (on
    // x86 tcc-expand-half-floats rounds to odd in f32 first, which is exact;
    // NVPTX has the instruction or does the same).
    if (fromFloat.getWidth() > toFloat.getWidth())
      return b.create<arith::TruncFOp>(loc, to, value);
    // f16 <-> bf16: same width, neither contains the other; go through f32,
    // which holds both exactly.
    Value wide = b.create<arith::ExtFOp>(loc, b.getF32Type(), value);
    return b.create<arith::TruncFOp>(loc, to, wide);
  }
  if (fromFloat)
    return b.create<arith::FPToSIOp>(loc, to, value);
  if (toFloat)
    return b.create<arith::SIToFPOp>(loc, to, value);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return b.create<arith::ExtSIOp>(loc, to, value);
  return b.create<arith::TruncIOp>(loc, to, value);
}

Value createLoopDestination(OpBuilder &b, Location loc,
                            ArrayRef<OpFoldResult> sizes, Type elementType) {
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamic;
  for (OpFoldResult size : sizes) {
    std::optional<int64_t> fixed = getConstantIntValue(size);
    shape.push_back(fixed ? *fixed : ShapedType::kDynamic);
    if (!fixed)
      dynamic.push_back(cast<Value>(size));
  }
  return b.create<bufferization::AllocTensorOp>(
      loc, RankedTensorType::get(shape, elementType), dynamic);
}

Value clampIndex(OpBuilder &b, Location loc, Value i, Value low, Value high) {
  Value atLeastLow = b.create<arith::MaxSIOp>(loc, i, low);
  return b.create<arith::MinSIOp>(loc, atLeastLow, high);
}

Value wrapAndClampId(OpBuilder &b, Location loc, Value id, Value size) {
  Value i = b.create<arith::IndexCastOp>(loc, b.getIndexType(), id);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value negative =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, i, zero);
  Value wrapped = b.create<arith::SelectOp>(
      loc, negative, b.create<arith::AddIOp>(loc, i, size), i);
  Value last = b.create<arith::SubIOp>(loc, size, one);
  return clampIndex(b, loc, wrapped, zero, last);
}

} // namespace tcc::tc::lowering
