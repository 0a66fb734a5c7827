//===- RefTensor.h - values of the reference interpreter -------*- C++ -*-===//
//
// The reference interpreter keeps every tensor as float64 values in row-major
// order, whatever its element type: integers are stored exactly (|v| <= 2^53
// is checked), booleans as 0 or 1, and narrower floats as the float64 value of
// the rounded number. Nothing here depends on MLIR or on the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_REFERENCE_REFTENSOR_H
#define TCC_TEST_REFERENCE_REFTENSOR_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tcc::reference {

/// The element types of the tc dialect.
enum class DTypeKind { F16, BF16, F32, F64, I32, I64, I1 };

/// "f16", "bf16", "f32", "f64", "i32", "i64", "i1".
const char *dtypeKindName(DTypeKind dtype);
inline bool isFloat(DTypeKind d) {
  return d == DTypeKind::F16 || d == DTypeKind::BF16 || d == DTypeKind::F32 ||
         d == DTypeKind::F64;
}
inline bool isInteger(DTypeKind d) {
  return d == DTypeKind::I32 || d == DTypeKind::I64;
}

/// Thrown for anything the reference cannot or will not evaluate: an
/// unsupported op, a shape mismatch at run time, an integer overflow, a
/// division by zero. Tests must choose inputs that avoid these.
class ReferenceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Rounds an exact result to `dtype`: floats to the nearest representable
/// value (ties to even), i1 to `x != 0`. Integers must be integral and in
/// range (ReferenceError otherwise: the reference never wraps).
double roundTo(DTypeKind dtype, double value);

/// Row-major float64 values with a shape and the element type they stand for.
struct RefTensor {
  std::vector<double> data;
  std::vector<int64_t> shape;
  DTypeKind dtype = DTypeKind::F32;

  RefTensor() = default;
  RefTensor(DTypeKind dtype, std::vector<int64_t> shape,
            std::vector<double> data);
  /// A tensor of `shape` filled with `value` (rounded to dtype).
  static RefTensor filled(DTypeKind dtype, std::vector<int64_t> shape,
                          double value);
  /// A rank-0 tensor.
  static RefTensor scalar(DTypeKind dtype, double value) {
    return filled(dtype, {}, value);
  }

  int64_t numel() const { return int64_t(data.size()); }
  size_t rank() const { return shape.size(); }
  /// Row-major strides in elements.
  std::vector<int64_t> strides() const;
  /// The element at a multi-index.
  double at(const std::vector<int64_t> &index) const;
  /// "f32[2, 3]".
  std::string describe() const;
};

/// Number of elements of a shape (ReferenceError for a negative size).
int64_t numelOf(const std::vector<int64_t> &shape);
/// "[2, 3]".
std::string shapeToString(const std::vector<int64_t> &shape);

} // namespace tcc::reference

#endif // TCC_TEST_REFERENCE_REFTENSOR_H
