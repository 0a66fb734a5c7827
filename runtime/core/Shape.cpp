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
    return Status::error(ErrorCode::InvalidArgument, "element count of shape " +
                                                         shapeToString(shape) +
                                                         " overflows int64");
  return n;
}

Result<size_t> checkedNbytes(const Shape &shape, DType dtype) {
  TCC_ASSIGN_OR_RETURN(int64_t n, checkedNumel(shape));
  int64_t bytes;
  if (__builtin_mul_overflow(n, int64_t(dtypeSize(dtype)), &bytes))
    return Status::error(ErrorCode::InvalidArgument,
                         "byte size of shape " + shapeToString(shape) + " of " +
                             dtypeName(dtype) + " overflows");
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
