//===- GraphBuilderShapeOps.cpp - ops that rearrange elements -------------===//
//
// transpose, reshape, broadcast_to, slice and concatenate: the GraphBuilder
// ops whose work is on shapes (their rules are in ShapeInference.cpp).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"

using namespace mlir;
using namespace tcc;
using tc::Shape;

TensorRef GraphBuilder::transpose(Location loc, TensorRef input,
                                  ArrayRef<int64_t> perm) {
  if (!input)
    return {};
  int64_t rank = input.shape.size();
  SmallVector<int64_t> p;
  if (perm.empty())
    p = llvm::to_vector(llvm::reverse(llvm::seq<int64_t>(0, rank)));
  for (int64_t axis : perm) {
    FailureOr<int64_t> a = normalizeAxis(loc, axis, rank);
    if (failed(a))
      return {};
    p.push_back(*a);
  }
  FailureOr<Shape> shape =
      tc::transposeShape(input.shape, p, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, input.elementType());
  return make(builder.create<tc::TransposeOp>(loc, type, input.value,
                                              builder.getDenseI64ArrayAttr(p)),
              *shape);
}

TensorRef GraphBuilder::reshape(Location loc, TensorRef input, Shape target) {
  if (!input)
    return {};
  FailureOr<Shape> shape =
      tc::inferReshape(input.shape, target, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, input.elementType());
  auto op = builder.create<tc::ReshapeOp>(loc, type, input.value);
  setReshapeDims(op, *shape);
  return make(op, *shape);
}

TensorRef GraphBuilder::broadcastTo(Location loc, TensorRef input,
                                    const Shape &target) {
  if (!input)
    return {};
  if (failed(tc::checkBroadcastTo(input.shape, target,
                                  [&] { return error(loc); })))
    return {};
  Type type = tensorType(target, input.elementType());
  return make(builder.create<tc::BroadcastToOp>(loc, type, input.value),
              target);
}

TensorRef GraphBuilder::slice(Location loc, TensorRef input,
                              ArrayRef<int64_t> begin, ArrayRef<int64_t> end,
                              ArrayRef<int64_t> step) {
  if (!input)
    return {};
  FailureOr<Shape> shape =
      tc::sliceShape(input.shape, begin, end, step, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, input.elementType());
  return make(builder.create<tc::SliceOp>(loc, type, input.value,
                                          builder.getDenseI64ArrayAttr(begin),
                                          builder.getDenseI64ArrayAttr(end),
                                          builder.getDenseI64ArrayAttr(step)),
              *shape);
}

TensorRef GraphBuilder::concat(Location loc, ArrayRef<TensorRef> inputs,
                               int64_t axis) {
  if (inputs.empty()) {
    error(loc) << "concatenate needs at least one input";
    return {};
  }
  if (llvm::any_of(inputs, [](const TensorRef &r) { return !r; }) ||
      failed(sameElementType(loc, "concatenate", inputs)))
    return {};
  FailureOr<int64_t> a = normalizeAxis(loc, axis, inputs[0].shape.size());
  if (failed(a))
    return {};
  SmallVector<Shape> shapes;
  SmallVector<Value> values;
  for (const TensorRef &r : inputs) {
    shapes.push_back(r.shape);
    values.push_back(r.value);
  }
  FailureOr<Shape> shape =
      tc::concatShape(shapes, *a, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, inputs[0].elementType());
  return make(builder.create<tc::ConcatOp>(loc, type, values,
                                           builder.getI64IntegerAttr(*a)),
              *shape);
}

TensorRef GraphBuilder::size(Location loc, TensorRef input, int64_t axis) {
  if (!input)
    return {};
  FailureOr<int64_t> a = normalizeAxis(loc, axis, input.shape.size());
  if (failed(a))
    return {};
  Type type = RankedTensorType::get({}, builder.getI64Type());
  return make(builder.create<tc::SizeOp>(loc, type, input.value,
                                         builder.getI64IntegerAttr(*a)),
              {});
}
