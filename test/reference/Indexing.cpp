//===- Indexing.cpp - gathers in the reference interpreter ----------------===//
//
// take, take_along_axis, scatter_add, one_hot, dynamic_slice as plain loops
// with numpy's semantics: a negative id counts from the end, and an id
// outside [-n, n) (one_hot: [0, depth); a start that leaves no room) is an
// error, as tcc's compiled code refuses it too.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/TcOps.h"
#include "test/reference/Kernels.h"

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference::detail {

namespace {

/// The position an id denotes along an axis of `n` (negative ids count from
/// the end); a ReferenceError outside [-n, n).
int64_t wrapped(Operation &op, double value, int64_t n, int64_t element) {
  int64_t id = asInteger(value);
  if (id < -n || id >= n)
    fail(op, "id " + std::to_string(id) + " (element " +
                 std::to_string(element) + ") is out of range for an axis of " +
                 std::to_string(n));
  return id < 0 ? id + n : id;
}

RefTensor take(Operation &op, const RefTensor &input, const RefTensor &ids,
               int64_t axis) {
  int64_t n = input.shape[axis];
  std::vector<int64_t> outer(input.shape.begin(), input.shape.begin() + axis);
  std::vector<int64_t> inner(input.shape.begin() + axis + 1, input.shape.end());
  int64_t outerCount = numelOf(outer), innerCount = numelOf(inner);
  int64_t idCount = numelOf(ids.shape);
  std::vector<int64_t> shape = outer;
  shape.insert(shape.end(), ids.shape.begin(), ids.shape.end());
  shape.insert(shape.end(), inner.begin(), inner.end());
  std::vector<double> data;
  data.reserve(outerCount * idCount * innerCount);
  for (int64_t o = 0; o < outerCount; ++o)
    for (int64_t k = 0; k < idCount; ++k) {
      int64_t at = wrapped(op, ids.data[k], n, k);
      for (int64_t i = 0; i < innerCount; ++i)
        data.push_back(input.data[(o * n + at) * innerCount + i]);
    }
  return RefTensor(input.dtype, shape, std::move(data));
}

RefTensor takeAlongAxis(Operation &op, const RefTensor &input,
                        const RefTensor &ids, int64_t axis) {
  std::vector<int64_t> strides = input.strides();
  for (size_t d = 0; d < ids.shape.size(); ++d)
    if ((int64_t)d != axis && ids.shape[d] != input.shape[d])
      fail(op, "ids of shape " + shapeToString(ids.shape) +
                   " do not match the input's " + shapeToString(input.shape));
  std::vector<double> data(ids.data.size());
  forEachIndex(ids.shape, {ids.strides()},
               [&](int64_t linear, const std::vector<int64_t> &) {
                 // Row-major index of `linear` in the ids' shape.
                 int64_t rest = linear, offset = 0;
                 for (size_t d = ids.shape.size(); d-- > 0;) {
                   int64_t i = rest % ids.shape[d];
                   rest /= ids.shape[d];
                   if ((int64_t)d == axis)
                     i = wrapped(op, ids.data[linear], input.shape[axis],
                                 linear);
                   offset += i * strides[d];
                 }
                 data[linear] = input.data[offset];
               });
  return RefTensor(input.dtype, ids.shape, std::move(data));
}

RefTensor scatterAdd(Operation &op, const RefTensor &input,
                     const RefTensor &ids, const RefTensor &updates,
                     int64_t axis) {
  int64_t n = input.shape[axis];
  std::vector<int64_t> outer(input.shape.begin(), input.shape.begin() + axis);
  std::vector<int64_t> inner(input.shape.begin() + axis + 1, input.shape.end());
  int64_t outerCount = numelOf(outer), innerCount = numelOf(inner);
  int64_t idCount = numelOf(ids.shape);
  if (numelOf(updates.shape) != outerCount * idCount * innerCount)
    fail(op, "updates of shape " + shapeToString(updates.shape) +
                 " do not match take(input, ids)");
  // Every id first: a bad one changes nothing.
  for (int64_t k = 0; k < idCount; ++k)
    wrapped(op, ids.data[k], n, k);
  RefTensor result = input;
  int64_t u = 0;
  for (int64_t o = 0; o < outerCount; ++o)
    for (int64_t k = 0; k < idCount; ++k) {
      int64_t at = wrapped(op, ids.data[k], n, k);
      for (int64_t i = 0; i < innerCount; ++i, ++u) {
        double &r = result.data[(o * n + at) * innerCount + i];
        r = isFloat(input.dtype)
                ? r + updates.data[u]
                : checkedInteger(op, input.dtype,
                                 (__int128)asInteger(r) +
                                     asInteger(updates.data[u]));
      }
    }
  // Floats: each sum rounded to the dtype once per addition would differ by
  // order; the float64 sum is the reference, rounded once.
  if (isFloat(input.dtype))
    for (double &v : result.data)
      v = roundTo(input.dtype, v);
  return result;
}

RefTensor oneHot(Operation &op, const RefTensor &ids, int64_t depth,
                 DTypeKind dtype) {
  std::vector<int64_t> shape = ids.shape;
  shape.push_back(depth);
  std::vector<double> data(ids.data.size() * depth, 0.0);
  for (size_t k = 0; k < ids.data.size(); ++k) {
    int64_t id = asInteger(ids.data[k]);
    if (id < 0 || id >= depth)
      fail(op, "id " + std::to_string(id) + " (element " + std::to_string(k) +
                   ") is out of range [0, " + std::to_string(depth) + ")");
    data[k * depth + id] = 1.0;
  }
  return RefTensor(dtype, shape, std::move(data));
}

RefTensor dynamicSlice(Operation &op, const RefTensor &input, Operands starts,
                       llvm::ArrayRef<int64_t> sizes) {
  std::vector<int64_t> begin;
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t s = asInteger(starts[d]->data[0]);
    if (s < 0 || s > input.shape[d] - sizes[d])
      fail(op, "start " + std::to_string(s) + " of dimension " +
                   std::to_string(d) + " does not leave room for " +
                   std::to_string(sizes[d]) + " of " +
                   std::to_string(input.shape[d]));
    begin.push_back(s);
  }
  std::vector<int64_t> shape(sizes.begin(), sizes.end());
  std::vector<int64_t> strides = input.strides();
  std::vector<double> data(numelOf(shape));
  for (int64_t linear = 0; linear < (int64_t)data.size(); ++linear) {
    int64_t rest = linear, offset = 0;
    for (size_t d = shape.size(); d-- > 0;) {
      offset += (begin[d] + rest % shape[d]) * strides[d];
      rest /= shape[d];
    }
    data[linear] = input.data[offset];
  }
  return RefTensor(input.dtype, shape, std::move(data));
}

} // namespace

std::optional<RefTensor> evalIndexing(Operation &op, Operands operands) {
  if (auto t = dyn_cast<TakeOp>(op))
    return take(op, *operands[0], *operands[1], t.getAxis());
  if (auto t = dyn_cast<TakeAlongAxisOp>(op))
    return takeAlongAxis(op, *operands[0], *operands[1], t.getAxis());
  if (auto s = dyn_cast<ScatterAddOp>(op))
    return scatterAdd(op, *operands[0], *operands[1], *operands[2],
                      s.getAxis());
  if (auto o = dyn_cast<OneHotOp>(op))
    return oneHot(op, *operands[0], o.getDepth(), resultDType(op));
  if (auto d = dyn_cast<DynamicSliceOp>(op))
    return dynamicSlice(op, *operands[0], operands.drop_front(), d.getSizes());
  return std::nullopt;
}

} // namespace tcc::reference::detail
