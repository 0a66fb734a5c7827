// Array: the user-space host n-d array (byte strides, shared Buffer).
#ifndef TCC_RUNTIME_CORE_ARRAY_H
#define TCC_RUNTIME_CORE_ARRAY_H

#include "runtime/core/Buffer.h"
#include "runtime/core/Counters.h"
#include "runtime/core/DType.h"
#include "runtime/core/Shape.h"
#include "runtime/core/Status.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace tcc {

/// A strided view of host memory, like a numpy ndarray. Copying an Array
/// copies the handle, not the data (both share the Buffer). Every Array is
/// validated on construction: all its elements lie inside its Buffer.
class Array {
public:
  /// As `begin` or `end` of slice(): the bound is omitted (Python's `a[:]`).
  static constexpr int64_t kOmit = std::numeric_limits<int64_t>::max();

  /// The null array (no buffer). Factories never return it.
  Array() = default;

  /// Uninitialised C-contiguous array; errors for bad shapes or OutOfMemory.
  static Result<Array> empty(DType dtype, const Shape &shape);
  /// Zero-filled C-contiguous array.
  static Result<Array> zeros(DType dtype, const Shape &shape);
  /// C-contiguous array with every element `value` (converted to dtype).
  static Result<Array> full(DType dtype, const Shape &shape, double value);
  /// C-contiguous array from values in C order; T is float, double, int32_t,
  /// int64_t or bool. ShapeMismatch when the count does not fit the shape.
  template <class T>
  static Result<Array> fromVector(const std::vector<T> &values,
                                  const Shape &shape);
  /// Like fromVector, converting doubles to any dtype (f16/bf16 included).
  static Result<Array> fromDoubles(DType dtype,
                                   const std::vector<double> &values,
                                   const Shape &shape);
  /// Views external memory without copying. `ptr` is element 0; `strides`
  /// are in bytes (empty: C order). With a deleter the array owns the memory
  /// and calls `deleter(ptr)` when the last holder goes away.
  static Result<Array> wrap(void *ptr, DType dtype, const Shape &shape,
                            const Strides &strides = {},
                            Buffer::Deleter deleter = nullptr);
  /// Views an existing host Buffer; `offset` is the byte offset of element 0
  /// (empty strides: C order). InvalidArgument when elements fall outside.
  static Result<Array> fromBuffer(std::shared_ptr<Buffer> buffer, DType dtype,
                                  const Shape &shape,
                                  const Strides &strides = {},
                                  int64_t offset = 0);

  /// True for the default-constructed array.
  bool isNull() const { return !buffer_; }
  DType dtype() const { return dtype_; }
  const Shape &shape() const { return shape_; }
  /// Strides in bytes.
  const Strides &strides() const { return strides_; }
  /// Byte offset of element 0 from the start of the buffer.
  int64_t offset() const { return offset_; }
  const std::shared_ptr<Buffer> &buffer() const { return buffer_; }
  size_t ndim() const { return shape_.size(); }
  /// Number of elements (checked for overflow when the array was built).
  int64_t numel() const { return numel_; }
  size_t itemsize() const { return dtypeSize(dtype_); }
  /// numel() * itemsize(): the bytes of the elements (not of the buffer).
  size_t nbytes() const { return size_t(numel_) * itemsize(); }
  /// Address of element 0 (null for the null array).
  void *data() const;

  /// True when the elements are laid out in C order with no gaps.
  bool isContiguous() const;
  /// True when the elements are laid out in Fortran order with no gaps.
  bool isFortranContiguous() const;
  /// Lowest byte touched and one past the highest (empty when numel()==0).
  ByteRange byteRange() const;
  /// True when the byte ranges of both arrays intersect (by address, not by
  /// object identity; conservative for interleaved strided views).
  bool overlaps(const Array &other) const;

  /// Permutes the axes (empty `perm`: reverse them). A view, no copy.
  Result<Array> transpose(const std::vector<int64_t> &perm = {}) const;
  /// Python-style slice [begin:end:step] of one axis (negative indices count
  /// from the end; out-of-range bounds are clamped; kOmit leaves a bound
  /// out, so slice(0, kOmit, kOmit, -1) is a[::-1]). A view, no copy.
  Result<Array> slice(int64_t axis, int64_t begin, int64_t end = kOmit,
                      int64_t step = 1) const;
  /// Same elements, new shape (one dimension may be -1). A view; only for
  /// C-contiguous arrays (others: InvalidArgument, use contiguous() first).
  Result<Array> reshape(const Shape &shape) const;

  /// Itself when C-contiguous (no copy), otherwise exactly one copy.
  Result<Array> contiguous(MemoryCounters *counters = nullptr) const;
  /// A deep C-contiguous copy. With `counters`, records one allocation and
  /// one copy of nbytes().
  Result<Array> copy(MemoryCounters *counters = nullptr) const;
  /// Copies `src`'s elements into this array's (same dtype and shape; any
  /// strides; overlapping source and destination are handled).
  Status copyFrom(const Array &src, MemoryCounters *counters = nullptr);

  /// Element at `index`; DTypeMismatch unless T matches dtype().
  template <class T> Result<T> at(const Index &index) const;
  /// Stores an element; DTypeMismatch unless T matches dtype().
  template <class T> Status setAt(const Index &index, T value);
  /// Element at `index` converted to double (any dtype).
  Result<double> getDouble(const Index &index) const;
  /// Stores `value` converted to dtype() (any dtype).
  Status setDouble(const Index &index, double value);
  /// All elements in C order as doubles.
  std::vector<double> toDoubles() const;
  /// Same dtype, same shape and the same bytes element by element.
  bool bitwiseEqual(const Array &other) const;
  /// "f32(2, 3)" plus "[non-contiguous]" when that applies.
  std::string describe() const;

private:
  Result<int64_t> elementOffset(const Index &index, DType want,
                                bool checkType) const;

  DType dtype_ = DType::F32;
  Shape shape_;
  Strides strides_;
  int64_t offset_ = 0;
  int64_t numel_ = 0;
  std::shared_ptr<Buffer> buffer_;
};

/// Copies elements between two equally shaped strided layouts (host memory,
/// byte strides); merges dimensions and uses memcpy for contiguous runs.
/// The ranges must not overlap.
void stridedCopy(void *dst, const Strides &dstStrides, const void *src,
                 const Strides &srcStrides, const Shape &shape,
                 size_t itemsize);

template <class T>
Result<Array> Array::fromVector(const std::vector<T> &values,
                                const Shape &shape) {
  TCC_ASSIGN_OR_RETURN(Array a, empty(DTypeOf<T>::value, shape));
  if (int64_t(values.size()) != a.numel())
    return Status::error(ErrorCode::ShapeMismatch,
                         std::to_string(values.size()) +
                             " values do not fill shape " +
                             shapeToString(shape));
  char *p = static_cast<char *>(a.data());
  for (size_t i = 0; i < values.size(); ++i) {
    T v = values[i];
    std::memcpy(p + i * sizeof(T), &v, sizeof(T));
  }
  return a;
}

template <class T> Result<T> Array::at(const Index &index) const {
  TCC_ASSIGN_OR_RETURN(int64_t off,
                       elementOffset(index, DTypeOf<T>::value, true));
  T v;
  std::memcpy(&v, static_cast<const char *>(data()) + off, sizeof(T));
  return v;
}

template <class T> Status Array::setAt(const Index &index, T value) {
  TCC_ASSIGN_OR_RETURN(int64_t off,
                       elementOffset(index, DTypeOf<T>::value, true));
  std::memcpy(static_cast<char *>(data()) + off, &value, sizeof(T));
  return Status::success();
}

} // namespace tcc

#endif // TCC_RUNTIME_CORE_ARRAY_H
