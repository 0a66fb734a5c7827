//===- DataMovement.cpp - layout ops and constants in the reference -------===//

#include "test/reference/Interpreter.h"
#include "test/reference/Kernels.h"

#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference::detail {

namespace {

RefTensor transpose(Operation &op, const RefTensor &x,
                    llvm::ArrayRef<int64_t> perm) {
  if (perm.size() != x.rank())
    fail(op, "has a permutation of the wrong length");
  std::vector<int64_t> inStrides = x.strides();
  std::vector<int64_t> outShape, strides;
  std::vector<bool> used(x.rank(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= int64_t(x.rank()) || used[size_t(p)])
      fail(op, "has a bad permutation");
    used[size_t(p)] = true;
    outShape.push_back(x.shape[size_t(p)]);
    strides.push_back(inStrides[size_t(p)]);
  }
  RefTensor result;
  result.dtype = x.dtype;
  result.shape = outShape;
  result.data.resize(x.data.size());
  forEachIndex(outShape, {strides},
               [&](int64_t linear, const std::vector<int64_t> &offsets) {
                 result.data[size_t(linear)] = x.data[size_t(offsets[0])];
               });
  return result;
}

RefTensor reshape(Operation &op, const RefTensor &x) {
  RankedTensorType type = tensorType(op.getResult(0));
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  int64_t known = 1;
  int dynamic = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (ShapedType::isDynamic(shape[i])) {
      if (dynamic >= 0)
        fail(op, "has more than one dynamic result dimension");
      dynamic = int(i);
    } else {
      known *= shape[i];
    }
  }
  if (dynamic >= 0) {
    if (known == 0 || x.numel() % known)
      fail(op,
           "cannot reshape " + x.describe() + " to " + shapeToString(shape));
    shape[size_t(dynamic)] = x.numel() / known;
  }
  if (numelOf(shape) != x.numel())
    fail(op, "cannot reshape " + x.describe() + " to " + shapeToString(shape));
  return RefTensor(x.dtype, shape, x.data);
}

RefTensor broadcastTo(Operation &op, const RefTensor &x) {
  RankedTensorType type = tensorType(op.getResult(0));
  RankedTensorType inType = tensorType(op.getOperand(0));
  if (x.rank() > size_t(type.getRank()))
    fail(op, "broadcasts to a lower rank");
  size_t offset = size_t(type.getRank()) - x.rank();
  std::vector<int64_t> shape;
  for (size_t i = 0; i < size_t(type.getRank()); ++i) {
    int64_t d = type.getDimSize(int64_t(i));
    if (!ShapedType::isDynamic(d)) {
      shape.push_back(d);
      continue;
    }
    // A dynamic result size comes from the input's aligned dimension, which
    // can only be the same dynamic size (or a static 1, which says nothing).
    if (i < offset || inType.getDimSize(int64_t(i - offset)) == 1)
      fail(op, "has a dynamic result dimension " + std::to_string(i) +
                   " that no input dimension sizes");
    shape.push_back(x.shape[i - offset]);
  }
  for (size_t i = 0; i < x.rank(); ++i)
    if (x.shape[i] != 1 && x.shape[i] != shape[offset + i])
      fail(op,
           "cannot broadcast " + x.describe() + " to " + shapeToString(shape));
  RefTensor result;
  result.dtype = x.dtype;
  result.shape = shape;
  result.data.resize(size_t(numelOf(shape)));
  forEachIndex(shape, {broadcastStrides(x.shape, shape)},
               [&](int64_t linear, const std::vector<int64_t> &offsets) {
                 result.data[size_t(linear)] = x.data[size_t(offsets[0])];
               });
  return result;
}

/// Python's slice.indices(n) for one axis, written from the language
/// reference rather than from SliceRules.cpp: the first index and the count.
std::pair<int64_t, int64_t> pythonSlice(int64_t n, int64_t begin, int64_t end,
                                        int64_t step) {
  auto clamp = [&](int64_t v) {
    // Open bounds are the int64 extremes; beyond [-n, n] they clamp anyway.
    if (v < 0)
      v = v < -n ? (step < 0 ? -1 : 0) : v + n;
    else if (v >= n)
      v = step < 0 ? n - 1 : n;
    return v;
  };
  int64_t b = clamp(begin), e = clamp(end), count = 0;
  for (int64_t k = b; step > 0 ? k < e : k > e;) {
    ++count;
    if (__builtin_add_overflow(k, step, &k))
      break;
  }
  return {b, count};
}

/// numpy's `x[begin:end:step]`. Where the op's type has a static length for
/// a dimension, the slice assumed its bounds fit: a run-time size that
/// gives another count is a call that must be refused.
RefTensor slice(Operation &op, const RefTensor &x,
                llvm::ArrayRef<int64_t> begin, llvm::ArrayRef<int64_t> end,
                llvm::ArrayRef<int64_t> step) {
  if (begin.size() != x.rank() || end.size() != x.rank() ||
      step.size() != x.rank())
    fail(op, "has bounds of the wrong length");
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  std::vector<int64_t> inStrides = x.strides();
  std::vector<int64_t> shape, strides;
  int64_t base = 0;
  for (size_t i = 0; i < x.rank(); ++i) {
    if (step[i] == 0)
      fail(op, "has a zero step");
    auto [first, count] = pythonSlice(x.shape[i], begin[i], end[i], step[i]);
    if (!type.isDynamicDim(i) && type.getDimSize(i) != count)
      fail(op, "takes " + std::to_string(count) + " elements of dimension " +
                   std::to_string(i) + " of " + x.describe() +
                   ", but its type says " + std::to_string(type.getDimSize(i)));
    shape.push_back(count);
    strides.push_back(inStrides[i] * step[i]);
    if (count)
      base += first * inStrides[i];
  }
  RefTensor result;
  result.dtype = x.dtype;
  result.shape = shape;
  result.data.resize(size_t(numelOf(shape)));
  forEachIndex(shape, {strides},
               [&](int64_t linear, const std::vector<int64_t> &offsets) {
                 result.data[size_t(linear)] =
                     x.data[size_t(base + offsets[0])];
               });
  return result;
}

RefTensor concat(Operation &op, Operands inputs, int64_t axis) {
  if (inputs.empty())
    fail(op, "has no inputs");
  const RefTensor &first = *inputs[0];
  if (axis < 0 || axis >= int64_t(first.rank()))
    fail(op, "has a bad axis");
  std::vector<int64_t> shape = first.shape;
  shape[size_t(axis)] = 0;
  for (const RefTensor *t : inputs) {
    if (t->rank() != first.rank())
      fail(op, "joins tensors of different ranks");
    for (size_t i = 0; i < t->rank(); ++i)
      if (int64_t(i) != axis && t->shape[i] != first.shape[i])
        fail(op, "joins " + first.describe() + " and " + t->describe());
    shape[size_t(axis)] += t->shape[size_t(axis)];
  }
  // Row-major: for each outer index, the inputs' blocks one after another.
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i)
    outer *= shape[size_t(i)];
  for (size_t i = size_t(axis) + 1; i < shape.size(); ++i)
    inner *= shape[i];
  RefTensor result;
  result.dtype = first.dtype;
  result.shape = shape;
  result.data.reserve(size_t(numelOf(shape)));
  for (int64_t o = 0; o < outer; ++o)
    for (const RefTensor *t : inputs) {
      int64_t block = t->shape[size_t(axis)] * inner;
      for (int64_t i = 0; i < block; ++i)
        result.data.push_back(t->data[size_t(o * block + i)]);
    }
  return result;
}

RefTensor constant(Operation &op, ElementsAttr value) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    fail(op, "holds a constant that is not a DenseElementsAttr");
  auto type = cast<RankedTensorType>(dense.getType());
  DTypeKind dtype = dtypeKindOf(type.getElementType());
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  std::vector<double> data;
  data.reserve(size_t(dense.getNumElements()));
  if (isFloat(dtype)) {
    for (llvm::APFloat f : dense.getValues<llvm::APFloat>()) {
      bool losesInfo = false;
      f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
      data.push_back(f.convertToDouble());
    }
  } else if (dtype == DTypeKind::I1) {
    for (bool b : dense.getValues<bool>())
      data.push_back(b ? 1.0 : 0.0);
  } else {
    for (const llvm::APInt &i : dense.getValues<llvm::APInt>())
      data.push_back(double(i.getSExtValue()));
  }
  return RefTensor(dtype, shape, data);
}

} // namespace

std::optional<RefTensor> evalDataMovement(Operation &op, Operands operands) {
  if (auto t = dyn_cast<TransposeOp>(op))
    return transpose(op, *operands[0], t.getPerm());
  if (isa<ReshapeOp>(op))
    return reshape(op, *operands[0]);
  if (isa<BroadcastToOp>(op))
    return broadcastTo(op, *operands[0]);
  if (auto s = dyn_cast<SliceOp>(op))
    return slice(op, *operands[0], s.getBegin(), s.getEnd(), s.getStep());
  if (auto c = dyn_cast<ConcatOp>(op))
    return concat(op, operands, int64_t(c.getAxis()));
  if (auto c = dyn_cast<ConstantOp>(op))
    return constant(op, c.getValue());
  return std::nullopt;
}

} // namespace tcc::reference::detail
