// Shape and stride helpers: checked element counts, C/Fortran strides.
#ifndef TCC_RUNTIME_CORE_SHAPE_H
#define TCC_RUNTIME_CORE_SHAPE_H

#include "runtime/core/DType.h"
#include "runtime/core/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {

/// Dimensions of an n-d array (a scalar has an empty shape).
using Shape = std::vector<int64_t>;
/// Per-dimension strides in BYTES (numpy convention; may be negative).
using Strides = std::vector<int64_t>;
/// A multi-index into an array.
using Index = std::vector<int64_t>;

/// "(2, 3)", "(4,)", "()".
std::string shapeToString(const Shape &shape);
/// Number of elements; InvalidArgument for a negative dimension or when the
/// product overflows int64.
Result<int64_t> checkedNumel(const Shape &shape);
/// numel * dtypeSize, with the same checks plus byte-count overflow.
Result<size_t> checkedNbytes(const Shape &shape, DType dtype);
/// C-order (row-major) strides in bytes. The shape must be valid.
Strides contiguousStrides(const Shape &shape, size_t itemsize);
/// Fortran-order (column-major) strides in bytes. The shape must be valid.
Strides fortranStrides(const Shape &shape, size_t itemsize);

} // namespace tcc

#endif // TCC_RUNTIME_CORE_SHAPE_H
