//===- GraphBuilderConvOps.cpp - convolution and pooling ------------------===//
//
// conv1d, conv2d, max_pool2d and avg_pool2d: the GraphBuilder ops with a
// window (their rules are in tc/IR/ConvShapes.cpp, shared with the
// verifiers, so a mistake is reported here at its source location).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"
#include "dialects/tc/IR/ConvShapes.h"
#include "dialects/tc/IR/SliceRules.h"

using namespace mlir;
using namespace tcc;
using tc::Shape;

TensorRef GraphBuilder::conv(Location loc, TensorRef input, TensorRef filter,
                             StringRef layout, ArrayRef<int64_t> strides,
                             ArrayRef<int64_t> padding,
                             ArrayRef<int64_t> dilations, int64_t groups) {
  if (!input || !filter)
    return {};
  const char *name = input.shape.size() == 3 ? "conv1d" : "conv2d";
  if (failed(sameElementType(loc, name, {input, filter})))
    return {};
  if (input.elementType().isInteger(1)) {
    error(loc) << name << " needs a numeric tensor, got bool";
    return {};
  }
  FailureOr<Shape> shape =
      tc::convShape(input.shape, filter.shape, layout, strides, padding,
                    dilations, groups, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, input.elementType());
  Operation *op;
  if (input.shape.size() == 3)
    op = builder.create<tc::Conv1DOp>(loc, type, input.value, filter.value,
                                      layout, strides, padding, dilations,
                                      groups);
  else
    op = builder.create<tc::Conv2DOp>(loc, type, input.value, filter.value,
                                      layout, strides, padding, dilations,
                                      groups);
  return make(op, *shape);
}

TensorRef GraphBuilder::pool(Location loc, bool isMax, TensorRef input,
                             StringRef layout, ArrayRef<int64_t> kernel,
                             ArrayRef<int64_t> strides,
                             ArrayRef<int64_t> padding) {
  if (!input)
    return {};
  Type element = input.elementType();
  const char *name = isMax ? "max_pool2d" : "avg_pool2d";
  if (element.isInteger(1) || (!isMax && !isa<FloatType>(element))) {
    error(loc) << name << " needs a " << (isMax ? "numeric" : "floating-point")
               << " tensor, got " << elementTypeName(element);
    return {};
  }
  FailureOr<Shape> shape = tc::poolShape(input.shape, layout, kernel, strides,
                                         padding, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, element);
  Operation *op;
  if (isMax)
    op = builder.create<tc::MaxPool2DOp>(loc, type, input.value, layout, kernel,
                                         strides, padding);
  else
    op = builder.create<tc::AvgPool2DOp>(loc, type, input.value, layout, kernel,
                                         strides, padding);
  return make(op, *shape);
}

TensorRef GraphBuilder::steppedPositions(Location loc, TensorRef input,
                                         int64_t axis, int64_t step) {
  if (!input)
    return {};
  Type i64 = builder.getI64Type();
  const tc::Dim &in = input.shape[axis];
  tc::Dim count =
      tc::Dim::fixed(in.isDynamic() ? 0 : (in.size + step - 1) / step);
  SmallVector<Value> sizes;
  if (in.isDynamic()) {
    std::optional<tc::DimProduct> named = tc::productOf(in);
    count =
        named
            ? tc::Dim::dynamic("(" +
                               tc::slicedLengthExpr(named->str(), 0,
                                                    tc::kSliceOpenHigh, step) +
                               ")")
            : tc::Dim::dynamic();
    if (named && step == 1)
      count = in;
    // The same arithmetic as the expression, on the run-time size.
    TensorRef n = size(loc, input, axis);
    if (n && step != 1)
      n = binary(loc, BinaryKind::Div,
                 binary(loc, BinaryKind::Add, n,
                        constant(loc, builder.getIntegerAttr(i64, step - 1))),
                 constant(loc, builder.getIntegerAttr(i64, step)));
    if (!n)
      return {};
    sizes.push_back(n.value);
  }
  TensorRef r =
      make(builder.create<tc::IotaOp>(loc, tensorType({count}, i64), sizes,
                                      builder.getI64IntegerAttr(0)),
           {count});
  if (r && step != 1)
    r = binary(loc, BinaryKind::Mul, r,
               constant(loc, builder.getIntegerAttr(i64, step)));
  return r;
}
