// Array element access and conversions to and from double (test helpers).
#include "runtime/core/Array.h"
#include "runtime/core/Half.h"

#include <cmath>

namespace tcc {
namespace {

double readElement(const char *p, DType dtype) {
  switch (dtype) {
  case DType::F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return double(v);
  }
  case DType::I1:
    return *p ? 1.0 : 0.0;
  case DType::F16:
  case DType::BF16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return dtype == DType::F16 ? halfToFloat(bits) : bf16ToFloat(bits);
  }
  }
  return 0.0;
}

/// Saturating conversion (NaN becomes 0) so no input is undefined behaviour.
template <class I> I toInteger(double v) {
  if (std::isnan(v))
    return 0;
  if (v <= double(std::numeric_limits<I>::min()))
    return std::numeric_limits<I>::min();
  if (v >= double(std::numeric_limits<I>::max()))
    return std::numeric_limits<I>::max();
  return I(v);
}

void writeElement(char *p, DType dtype, double v) {
  switch (dtype) {
  case DType::F32: {
    float f = float(v);
    std::memcpy(p, &f, 4);
    return;
  }
  case DType::F64:
    std::memcpy(p, &v, 8);
    return;
  case DType::I32: {
    int32_t i = toInteger<int32_t>(v);
    std::memcpy(p, &i, 4);
    return;
  }
  case DType::I64: {
    int64_t i = toInteger<int64_t>(v);
    std::memcpy(p, &i, 8);
    return;
  }
  case DType::I1:
    *p = v != 0.0 ? 1 : 0;
    return;
  case DType::F16:
  case DType::BF16: {
    uint16_t bits =
        dtype == DType::F16 ? floatToHalf(float(v)) : floatToBf16(float(v));
    std::memcpy(p, &bits, 2);
    return;
  }
  }
}

} // namespace

Result<int64_t> Array::elementOffset(const Index &index, DType want,
                                     bool checkType) const {
  if (!buffer_)
    return Status::error(ErrorCode::InvalidArgument,
                         "element access on a null array");
  if (checkType && want != dtype_)
    return Status::error(ErrorCode::DTypeMismatch,
                         std::string("element access as ") + dtypeName(want) +
                             " on an array of " + dtypeName(dtype_));
  if (index.size() != ndim())
    return Status::error(ErrorCode::InvalidArgument,
                         std::to_string(index.size()) + " indices for " +
                             describe());
  int64_t off = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i] < 0 || index[i] >= shape_[i])
      return Status::error(ErrorCode::InvalidArgument,
                           "index " + shapeToString(index) +
                               " out of range for " + describe());
    off += index[i] * strides_[i];
  }
  return off;
}

Result<double> Array::getDouble(const Index &index) const {
  TCC_ASSIGN_OR_RETURN(int64_t off, elementOffset(index, dtype_, false));
  return readElement(static_cast<const char *>(data()) + off, dtype_);
}

Status Array::setDouble(const Index &index, double value) {
  TCC_ASSIGN_OR_RETURN(int64_t off, elementOffset(index, dtype_, false));
  writeElement(static_cast<char *>(data()) + off, dtype_, value);
  return Status::success();
}

std::vector<double> Array::toDoubles() const {
  std::vector<double> out;
  auto c = contiguous();
  if (!c.ok() || c->isNull())
    return out;
  const char *p = static_cast<const char *>(c->data());
  out.reserve(size_t(numel_));
  for (int64_t i = 0; i < numel_; ++i)
    out.push_back(readElement(p + i * int64_t(itemsize()), dtype_));
  return out;
}

Result<Array> Array::fromDoubles(DType dtype, const std::vector<double> &values,
                                 const Shape &shape) {
  TCC_ASSIGN_OR_RETURN(Array a, empty(dtype, shape));
  if (int64_t(values.size()) != a.numel())
    return Status::error(ErrorCode::ShapeMismatch,
                         std::to_string(values.size()) +
                             " values do not fill shape " +
                             shapeToString(shape));
  char *p = static_cast<char *>(a.data());
  for (size_t i = 0; i < values.size(); ++i)
    writeElement(p + i * a.itemsize(), dtype, values[i]);
  return a;
}

Result<Array> Array::full(DType dtype, const Shape &shape, double value) {
  TCC_ASSIGN_OR_RETURN(Array a, empty(dtype, shape));
  char *p = static_cast<char *>(a.data());
  size_t n = a.itemsize();
  for (int64_t i = 0; i < a.numel(); ++i)
    writeElement(p + size_t(i) * n, dtype, value);
  return a;
}

} // namespace tcc
