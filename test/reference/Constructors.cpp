//===- Constructors.cpp - reference evaluation of iota, full and scans ----===//

#include "test/reference/Kernels.h"

#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference::detail {

/// The run-time shape of a constructor's result: static sizes from its
/// type, dynamic ones from its size operands (rank-0 i64) in order.
static std::vector<int64_t> constructedShape(Operation &op, Operands sizes) {
  RankedTensorType type = tensorType(op.getResult(0));
  std::vector<int64_t> shape;
  size_t next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      shape.push_back(type.getDimSize(d));
      continue;
    }
    if (next >= sizes.size() || sizes[next]->numel() != 1)
      fail(op, "a dynamic dimension has no size operand");
    double size = sizes[next++]->data[0];
    if (size < 0)
      fail(op, "a size is negative");
    shape.push_back(int64_t(size));
  }
  return shape;
}

std::optional<RefTensor> evalConstructor(Operation &op, Operands operands) {
  DTypeKind dtype = resultDType(op);
  if (auto iota = dyn_cast<IotaOp>(op)) {
    std::vector<int64_t> shape = constructedShape(op, operands);
    RefTensor result = RefTensor::filled(dtype, shape, 0);
    int64_t axis = iota.getAxis();
    std::vector<int64_t> strides = result.strides();
    for (int64_t i = 0; i < result.numel(); ++i)
      result.data[size_t(i)] = roundTo(
          dtype, double((i / strides[size_t(axis)]) % shape[size_t(axis)]));
    return result;
  }
  if (isa<FullOp>(op)) {
    std::vector<int64_t> shape = constructedShape(op, operands.drop_front());
    return RefTensor::filled(dtype, shape, operands[0]->data.at(0));
  }
  bool sum = isa<CumsumOp>(op);
  if (!sum && !isa<CumprodOp>(op))
    return std::nullopt;
  int64_t axis =
      sum ? cast<CumsumOp>(op).getAxis() : cast<CumprodOp>(op).getAxis();
  const RefTensor &x = *operands[0];
  RefTensor result = x;
  std::vector<int64_t> strides = x.strides();
  int64_t stride = strides[size_t(axis)], n = x.shape[size_t(axis)];
  // Each element continues the exact running value of its predecessor
  // along the axis, then rounds once.
  std::vector<double> exact = x.data;
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t k = (i / stride) % n;
    if (k > 0)
      exact[size_t(i)] = sum ? exact[size_t(i - stride)] + x.data[size_t(i)]
                             : exact[size_t(i - stride)] * x.data[size_t(i)];
    double v = exact[size_t(i)];
    result.data[size_t(i)] = isInteger(dtype)
                                 ? checkedInteger(op, dtype, (__int128)v)
                                 : roundTo(dtype, v);
  }
  return result;
}

} // namespace tcc::reference::detail
