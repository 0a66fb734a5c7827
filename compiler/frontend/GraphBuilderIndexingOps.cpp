//===- GraphBuilderIndexingOps.cpp - gathers at integer ids ---------------===//
//
// take (gather): the GraphBuilder ops whose positions come from data. The
// ids' values are checked when the function runs (tc-index-checks); here
// only their dtype and the shapes.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"
#include "dialects/tc/IR/IndexingShapes.h"

using namespace mlir;
using namespace tcc;
using tc::Shape;

/// Why `ids` cannot be ids of `op` (they are i32 or i64), or nothing.
static std::optional<std::string> badIdsOf(const TensorRef &ids, StringRef op);

LogicalResult GraphBuilder::checkIds(Location loc, const TensorRef &ids,
                                     StringRef op) {
  if (std::optional<std::string> why = badIdsOf(ids, op))
    return error(loc) << *why;
  return success();
}

TensorRef GraphBuilder::take(Location loc, TensorRef input, TensorRef ids,
                             int64_t axis) {
  if (!input || !ids)
    return {};
  if (failed(checkIds(loc, ids, "take")))
    return {};
  if (input.shape.empty()) {
    error(loc) << "'take' needs a tensor of rank at least 1 to take from, "
                  "got a scalar";
    return {};
  }
  FailureOr<int64_t> a = normalizeAxis(loc, axis, input.shape.size());
  if (failed(a))
    return {};
  FailureOr<Shape> shape =
      tc::takeShape(input.shape, ids.shape, *a, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, input.elementType());
  return make(builder.create<tc::TakeOp>(loc, type, input.value, ids.value,
                                         builder.getI64IntegerAttr(*a)),
              *shape);
}

/// Why `ids` cannot be ids of `op` (they are i32 or i64), or nothing.
static std::optional<std::string> badIdsOf(const TensorRef &ids, StringRef op) {
  Type t = ids.elementType();
  if (t.isInteger(32) || t.isInteger(64))
    return std::nullopt;
  return "the ids of '" + op.str() + "' must be i32 or i64, got " +
         elementTypeName(t) + tc::formatShape(ids.shape) +
         "; use cast(ids, dtype=i32)";
}

TensorRef GraphBuilder::takeAlongAxis(Location loc, TensorRef input,
                                      TensorRef ids, int64_t axis) {
  if (!input || !ids || failed(checkIds(loc, ids, "take_along_axis")))
    return {};
  if (input.shape.empty()) {
    error(loc) << "'take_along_axis' needs a tensor of rank at least 1, got "
                  "a scalar";
    return {};
  }
  FailureOr<int64_t> a = normalizeAxis(loc, axis, input.shape.size());
  if (failed(a))
    return {};
  FailureOr<Shape> shape = tc::takeAlongAxisShape(input.shape, ids.shape, *a,
                                                  [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, input.elementType());
  return make(
      builder.create<tc::TakeAlongAxisOp>(loc, type, input.value, ids.value,
                                          builder.getI64IntegerAttr(*a)),
      *shape);
}

TensorRef GraphBuilder::scatterAdd(Location loc, TensorRef input, TensorRef ids,
                                   TensorRef updates, int64_t axis) {
  if (!input || !ids || !updates || failed(checkIds(loc, ids, "scatter_add")) ||
      failed(sameElementType(loc, "scatter_add", {input, updates})))
    return {};
  if (input.elementType().isInteger(1)) {
    error(loc) << "'scatter_add' needs numbers, got "
               << elementTypeName(input.elementType())
               << tc::formatShape(input.shape);
    return {};
  }
  if (input.shape.empty()) {
    error(loc) << "'scatter_add' needs a tensor of rank at least 1, got a "
                  "scalar";
    return {};
  }
  FailureOr<int64_t> a = normalizeAxis(loc, axis, input.shape.size());
  if (failed(a))
    return {};
  FailureOr<Shape> taken =
      tc::takeShape(input.shape, ids.shape, *a, [&] { return error(loc); });
  if (failed(taken))
    return {};
  if (updates.shape != *taken) {
    error(loc) << "the updates of 'scatter_add' must have the shape that "
                  "take(x, ids) has, "
               << tc::formatShape(*taken) << ", got "
               << tc::formatShape(updates.shape);
    return {};
  }
  return make(builder.create<tc::ScatterAddOp>(loc, input.type(), input.value,
                                               ids.value, updates.value,
                                               builder.getI64IntegerAttr(*a)),
              input.shape);
}

TensorRef GraphBuilder::oneHot(Location loc, TensorRef ids, int64_t depth,
                               Type elementType) {
  if (!ids || failed(checkIds(loc, ids, "one_hot")))
    return {};
  FailureOr<Shape> shape =
      tc::oneHotShape(ids.shape, depth, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, elementType);
  return make(builder.create<tc::OneHotOp>(loc, type, ids.value,
                                           builder.getI64IntegerAttr(depth)),
              *shape);
}

TensorRef GraphBuilder::dynamicSlice(Location loc, TensorRef input,
                                     ArrayRef<TensorRef> starts,
                                     ArrayRef<int64_t> sizes) {
  if (!input || llvm::any_of(starts, [](const TensorRef &s) { return !s; }))
    return {};
  if (starts.size() != input.shape.size()) {
    error(loc) << "'dynamic_slice' of " << tc::formatShape(input.shape)
               << " needs " << input.shape.size()
               << " starts, one per dimension, got " << starts.size();
    return {};
  }
  SmallVector<Value> values;
  for (const TensorRef &s : starts) {
    Type t = s.elementType();
    if (!s.shape.empty() || !(t.isInteger(32) || t.isInteger(64))) {
      error(loc) << "each start of 'dynamic_slice' is an i32 or i64 scalar, "
                    "got "
                 << elementTypeName(t) << tc::formatShape(s.shape);
      return {};
    }
    values.push_back(s.value);
  }
  FailureOr<Shape> shape =
      tc::dynamicSliceShape(input.shape, sizes, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, input.elementType());
  return make(
      builder.create<tc::DynamicSliceOp>(loc, type, input.value, values,
                                         builder.getDenseI64ArrayAttr(sizes)),
      *shape);
}
