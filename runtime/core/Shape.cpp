// Shape helpers: formatting, overflow-checked sizes, default strides.
#include "runtime/core/Shape.h"

namespace tcc {

std::string shapeToString(const Shape &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

Result<int64_t> checkedNumel(const Shape &shape) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : shape) {
    if (d < 0)
      return Status::error(ErrorCode::InvalidArgument,
                           "negative dimension in shape " +
                               shapeToString(shape));
    if (__builtin_mul_overflow(n, d, &n))
      overflow = true; // keep scanning: a later 0 does not make it valid
  }
  if (overflow)
    return Status::error(ErrorCode::InvalidArgument,
                         "shape " + shapeToString(shape) +
                             " has too many elements: their count overflows "
                             "int64");
  return n;
}

Result<size_t> checkedNbytes(const Shape &shape, DType dtype) {
  // Every call checks its outputs' sizes: the message is built only when
  // the check fails.
  auto type = [&] { return dtypeName(dtype) + shapeToString(shape); };
  for (int64_t d : shape)
    if (d < 0)
      return Status::error(ErrorCode::InvalidArgument,
                           "negative dimension in shape " + type());
  // Compiled code computes byte sizes and strides with int64, so every
  // partial product must fit, even when a later dimension is 0.
  int64_t bytes = int64_t(dtypeSize(dtype));
  bool overflow = false;
  for (int64_t d : shape)
    overflow |= __builtin_mul_overflow(bytes, d, &bytes);
  if (overflow)
    return Status::error(ErrorCode::InvalidArgument,
                         "shape " + type() +
                             " has too many elements: its size in bytes "
                             "overflows int64");
  return size_t(bytes);
}

Strides contiguousStrides(const Shape &shape, size_t itemsize) {
  Strides strides(shape.size());
  int64_t s = int64_t(itemsize);
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i] > 0 ? shape[i] : 1;
  }
  return strides;
}

Strides fortranStrides(const Shape &shape, size_t itemsize) {
  Strides strides(shape.size());
  int64_t s = int64_t(itemsize);
  for (size_t i = 0; i < shape.size(); ++i) {
    strides[i] = s;
    s *= shape[i] > 0 ? shape[i] : 1;
  }
  return strides;
}

} // namespace tcc
