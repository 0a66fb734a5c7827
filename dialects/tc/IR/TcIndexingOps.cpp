//===- TcIndexingOps.cpp - verifiers and shape rules of indexing ops ------===//
//
// take and its relatives (TcIndexingOps.td): the result shape follows from
// the operands' shapes; the ids' values are checked at run time
// (tc-index-checks), not here.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/IndexingShapes.h"
#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc::tc;

FailureOr<Shape> tcc::tc::takeShape(const Shape &input, const Shape &ids,
                                    int64_t axis, EmitErrorFn emitError) {
  if (input.empty())
    return emitError() << "take needs a tensor of rank at least 1 to take "
                          "from, got a scalar";
  if (failed(checkAxis(axis, input.size(), emitError)))
    return failure();
  Shape result(input.begin(), input.begin() + axis);
  result.append(ids.begin(), ids.end());
  result.append(input.begin() + axis + 1, input.end());
  return result;
}

bool tcc::tc::mayBeEqual(const Dim &a, const Dim &b) {
  if (a.isDynamic() != b.isDynamic())
    return false;
  if (!a.isDynamic())
    return a.size == b.size;
  return a.symbol.empty() || b.symbol.empty() || a.symbol == b.symbol;
}

FailureOr<Shape> tcc::tc::takeAlongAxisShape(const Shape &input,
                                             const Shape &ids, int64_t axis,
                                             EmitErrorFn emitError) {
  if (input.empty())
    return emitError() << "take_along_axis needs a tensor of rank at least "
                          "1, got a scalar";
  if (failed(checkAxis(axis, input.size(), emitError)))
    return failure();
  if (ids.size() != input.size())
    return emitError() << "the ids of take_along_axis must have the rank of "
                          "the input: "
                       << formatShape(ids) << " vs " << formatShape(input);
  for (size_t d = 0; d < ids.size(); ++d)
    if ((int64_t)d != axis && !mayBeEqual(ids[d], input[d]))
      return emitError() << "the ids of take_along_axis must have the sizes "
                            "of the input but along the axis: "
                         << formatShape(ids) << " vs " << formatShape(input)
                         << " differ in dimension " << d;
  return ids;
}

FailureOr<Shape> tcc::tc::oneHotShape(const Shape &ids, int64_t depth,
                                      EmitErrorFn emitError) {
  if (depth < 1)
    return emitError() << "the depth of one_hot must be at least 1, got "
                       << depth;
  Shape result = ids;
  result.push_back(Dim::fixed(depth));
  return result;
}

FailureOr<Shape> tcc::tc::dynamicSliceShape(const Shape &input,
                                            ArrayRef<int64_t> sizes,
                                            EmitErrorFn emitError) {
  if (sizes.size() != input.size())
    return emitError() << "dynamic_slice needs " << input.size()
                       << " sizes (the rank), got " << sizes.size();
  Shape result;
  for (size_t d = 0; d < sizes.size(); ++d) {
    bool fits = input[d].isDynamic() || sizes[d] <= input[d].size;
    if (sizes[d] < 0 || !fits)
      return emitError() << "dynamic_slice of size " << sizes[d]
                         << " does not fit in dimension " << d << " of "
                         << formatShape(input);
    result.push_back(Dim::fixed(sizes[d]));
  }
  return result;
}

static LogicalResult checkResultType(Operation *op, const Shape &shape,
                                     Type elementType) {
  auto declared = cast<RankedTensorType>(op->getResult(0).getType());
  auto inferred = RankedTensorType::get(sizesOf(shape), elementType);
  if (declared != inferred)
    return op->emitOpError()
           << "result type " << declared << " does not match the inferred type "
           << inferred;
  return success();
}

static RankedTensorType typeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

LogicalResult TakeOp::verify() {
  FailureOr<Shape> shape =
      takeShape(shapeOf(typeOf(getInput())), shapeOf(typeOf(getIds())),
                getAxis(), [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResultType(*this, *shape, typeOf(getInput()).getElementType());
}

LogicalResult TakeAlongAxisOp::verify() {
  FailureOr<Shape> shape =
      takeAlongAxisShape(shapeOf(typeOf(getInput())), shapeOf(typeOf(getIds())),
                         getAxis(), [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResultType(*this, *shape, typeOf(getInput()).getElementType());
}

LogicalResult ScatterAddOp::verify() {
  Shape input = shapeOf(typeOf(getInput()));
  FailureOr<Shape> taken = takeShape(input, shapeOf(typeOf(getIds())),
                                     getAxis(), [&] { return emitOpError(); });
  if (failed(taken))
    return failure();
  Shape updates = shapeOf(typeOf(getUpdates()));
  if (typeOf(getUpdates()).getElementType() !=
      typeOf(getInput()).getElementType())
    return emitOpError() << "updates must have the input's element type, got "
                         << typeOf(getUpdates()) << " and "
                         << typeOf(getInput());
  bool same = updates.size() == taken->size();
  for (size_t d = 0; same && d < updates.size(); ++d)
    same = mayBeEqual(updates[d], (*taken)[d]);
  if (!same)
    return emitOpError() << "updates must have the shape that take gives, "
                         << formatShape(*taken) << ", got "
                         << formatShape(updates);
  return checkResultType(*this, input, typeOf(getInput()).getElementType());
}

LogicalResult OneHotOp::verify() {
  FailureOr<Shape> shape = oneHotShape(shapeOf(typeOf(getIds())), getDepth(),
                                       [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResultType(*this, *shape, typeOf(getResult()).getElementType());
}

LogicalResult DynamicSliceOp::verify() {
  for (Value s : getStarts())
    if (typeOf(s).getRank() != 0)
      return emitOpError() << "each start must be a rank-0 tensor, got "
                           << typeOf(s);
  if (getStarts().size() != (size_t)typeOf(getInput()).getRank())
    return emitOpError() << "dynamic_slice needs "
                         << typeOf(getInput()).getRank()
                         << " starts (the rank), got " << getStarts().size();
  FailureOr<Shape> shape = dynamicSliceShape(
      shapeOf(typeOf(getInput())), getSizes(), [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResultType(*this, *shape, typeOf(getInput()).getElementType());
}
