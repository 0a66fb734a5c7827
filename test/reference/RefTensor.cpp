//===- RefTensor.cpp - values of the reference interpreter ----------------===//

#include "test/reference/RefTensor.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>

namespace tcc::reference {

const char *dtypeKindName(DTypeKind dtype) {
  switch (dtype) {
  case DTypeKind::F16:
    return "f16";
  case DTypeKind::BF16:
    return "bf16";
  case DTypeKind::F32:
    return "f32";
  case DTypeKind::F64:
    return "f64";
  case DTypeKind::I32:
    return "i32";
  case DTypeKind::I64:
    return "i64";
  case DTypeKind::I1:
    return "i1";
  }
  return "?";
}

/// Rounds `value` to a narrower IEEE-style format in one step (no detour
/// through f32, so there is no double rounding).
static double roundToSemantics(const llvm::fltSemantics &semantics,
                               double value) {
  llvm::APFloat f(value);
  bool losesInfo = false;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToDouble();
}

double roundTo(DTypeKind dtype, double value) {
  switch (dtype) {
  case DTypeKind::F64:
    return value;
  case DTypeKind::F32:
    return double(float(value));
  case DTypeKind::F16:
    return roundToSemantics(llvm::APFloat::IEEEhalf(), value);
  case DTypeKind::BF16:
    return roundToSemantics(llvm::APFloat::BFloat(), value);
  case DTypeKind::I1:
    return value != 0 ? 1.0 : 0.0;
  case DTypeKind::I32:
  case DTypeKind::I64: {
    if (!std::isfinite(value) || std::trunc(value) != value)
      throw ReferenceError("value " + std::to_string(value) +
                           " is not an integer of " + dtypeKindName(dtype));
    double limit = dtype == DTypeKind::I32 ? 2147483648.0 : 9007199254740992.0;
    if (value >= limit || value < -limit)
      throw ReferenceError("value " + std::to_string(value) + " does not fit " +
                           dtypeKindName(dtype) +
                           (dtype == DTypeKind::I64
                                ? " exactly in the reference (|v| > 2^53)"
                                : " (the reference does not wrap)"));
    return value;
  }
  }
  return value;
}

RefTensor::RefTensor(DTypeKind dtype, std::vector<int64_t> shape,
                     std::vector<double> data)
    : data(std::move(data)), shape(std::move(shape)), dtype(dtype) {
  if (numelOf(this->shape) != int64_t(this->data.size()))
    throw ReferenceError(std::to_string(this->data.size()) +
                         " values do not fill shape " +
                         shapeToString(this->shape));
  for (double &v : this->data)
    v = roundTo(dtype, v);
}

RefTensor RefTensor::filled(DTypeKind dtype, std::vector<int64_t> shape,
                            double value) {
  int64_t n = numelOf(shape);
  return RefTensor(dtype, std::move(shape),
                   std::vector<double>(size_t(n), value));
}

std::vector<int64_t> RefTensor::strides() const {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    s[i - 1] = s[i] * shape[i];
  return s;
}

double RefTensor::at(const std::vector<int64_t> &index) const {
  if (index.size() != shape.size())
    throw ReferenceError("index of rank " + std::to_string(index.size()) +
                         " into " + describe());
  std::vector<int64_t> s = strides();
  int64_t offset = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i] < 0 || index[i] >= shape[i])
      throw ReferenceError("index out of range of " + describe());
    offset += index[i] * s[i];
  }
  return data[size_t(offset)];
}

std::string RefTensor::describe() const {
  return std::string(dtypeKindName(dtype)) + shapeToString(shape);
}

int64_t numelOf(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      throw ReferenceError("negative size in shape " + shapeToString(shape));
    n *= d;
  }
  return n;
}

std::string shapeToString(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

} // namespace tcc::reference
