// Array construction, validation, layout queries and views.
#include "runtime/core/Array.h"

#include <algorithm>

namespace tcc {
namespace {

/// Bytes touched relative to element 0: [lo, hi); {0, 0} when empty.
struct Extent {
  int64_t lo = 0, hi = 0;
};

Result<Extent> extentOf(const Shape &shape, const Strides &strides,
                        size_t itemsize) {
  Extent e;
  for (int64_t d : shape)
    if (d == 0)
      return e;
  bool overflow = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t span;
    overflow |= __builtin_mul_overflow(shape[i] - 1, strides[i], &span);
    overflow |= __builtin_add_overflow(span > 0 ? e.hi : e.lo, span,
                                       span > 0 ? &e.hi : &e.lo);
  }
  overflow |= __builtin_add_overflow(e.hi, int64_t(itemsize), &e.hi);
  if (overflow)
    return Status::error(ErrorCode::InvalidArgument,
                         "strides of shape " + shapeToString(shape) +
                             " overflow the address space");
  return e;
}

} // namespace

Result<Array> Array::fromBuffer(std::shared_ptr<Buffer> buffer, DType dtype,
                                const Shape &shape, const Strides &strides,
                                int64_t offset) {
  if (!buffer)
    return Status::error(ErrorCode::InvalidArgument, "Array needs a buffer");
  if (!buffer->isHost())
    return Status::error(ErrorCode::InvalidArgument,
                         "Array needs host memory, not memory of " +
                             buffer->device().name() + " (use DeviceArray)");
  // The byte size first: its message names the dtype.
  TCC_RETURN_IF_ERROR(checkedNbytes(shape, dtype).status());
  TCC_ASSIGN_OR_RETURN(int64_t numel, checkedNumel(shape));
  Strides st = strides.empty() && !shape.empty()
                   ? contiguousStrides(shape, dtypeSize(dtype))
                   : strides;
  if (st.size() != shape.size())
    return Status::error(ErrorCode::InvalidArgument, std::to_string(st.size()) +
                                                         " strides for shape " +
                                                         shapeToString(shape));
  TCC_ASSIGN_OR_RETURN(Extent e, extentOf(shape, st, dtypeSize(dtype)));
  int64_t size = int64_t(buffer->size());
  bool inside = numel == 0 ? offset >= 0 && offset <= size
                           : offset >= -e.lo && e.hi <= size - offset;
  if (!inside)
    return Status::error(ErrorCode::InvalidArgument,
                         "array of shape " + shapeToString(shape) +
                             " at offset " + std::to_string(offset) +
                             " does not fit its buffer of " +
                             std::to_string(size) + " bytes");
  Array a;
  a.dtype_ = dtype;
  a.shape_ = shape;
  a.strides_ = std::move(st);
  a.offset_ = offset;
  a.numel_ = numel;
  a.buffer_ = std::move(buffer);
  return a;
}

Result<Array> Array::empty(DType dtype, const Shape &shape) {
  TCC_ASSIGN_OR_RETURN(size_t bytes, checkedNbytes(shape, dtype));
  TCC_ASSIGN_OR_RETURN(auto buffer, Buffer::allocate(hostDevice(), bytes));
  return fromBuffer(std::move(buffer), dtype, shape);
}

Result<Array> Array::zeros(DType dtype, const Shape &shape) {
  TCC_ASSIGN_OR_RETURN(Array a, empty(dtype, shape));
  std::memset(a.data(), 0, a.nbytes());
  return a;
}

Result<Array> Array::wrap(void *ptr, DType dtype, const Shape &shape,
                          const Strides &strides, Buffer::Deleter deleter) {
  TCC_RETURN_IF_ERROR(checkedNbytes(shape, dtype).status());
  TCC_ASSIGN_OR_RETURN(int64_t numel, checkedNumel(shape));
  Strides st = strides.empty() && !shape.empty()
                   ? contiguousStrides(shape, dtypeSize(dtype))
                   : strides;
  if (st.size() != shape.size())
    return Status::error(ErrorCode::InvalidArgument, std::to_string(st.size()) +
                                                         " strides for shape " +
                                                         shapeToString(shape));
  TCC_ASSIGN_OR_RETURN(Extent e, extentOf(shape, st, dtypeSize(dtype)));
  if (!ptr && numel > 0)
    return Status::error(ErrorCode::InvalidArgument, "wrap of a null pointer");
  auto base = reinterpret_cast<uintptr_t>(ptr) + uintptr_t(e.lo);
  Buffer::Deleter release;
  if (deleter)
    release = [deleter = std::move(deleter), ptr](void *) { deleter(ptr); };
  auto buffer = Buffer::adopt(reinterpret_cast<void *>(base),
                              size_t(e.hi - e.lo), std::move(release));
  return fromBuffer(std::move(buffer), dtype, shape, st, -e.lo);
}

void *Array::data() const {
  if (!buffer_)
    return nullptr;
  return static_cast<char *>(buffer_->data()) + offset_;
}

/// Whether `shape`/`strides` are dense with the last dimension fastest
/// (C order) or, when `fortran`, the first (size-1 dimensions are free).
static bool isDense(const Shape &shape, const Strides &strides,
                    int64_t itemsize, bool fortran) {
  int64_t expected = itemsize;
  for (size_t k = 0; k < shape.size(); ++k) {
    size_t i = fortran ? k : shape.size() - 1 - k;
    if (shape[i] == 1)
      continue;
    if (strides[i] != expected)
      return false;
    expected *= shape[i];
  }
  return true;
}

bool Array::isContiguous() const {
  return numel_ == 0 || isDense(shape_, strides_, int64_t(itemsize()), false);
}

bool Array::isFortranContiguous() const {
  return numel_ == 0 || isDense(shape_, strides_, int64_t(itemsize()), true);
}

ByteRange Array::byteRange() const {
  auto base = reinterpret_cast<uintptr_t>(data());
  if (!buffer_ || numel_ == 0)
    return {base, base};
  // Validated at construction, so this cannot fail.
  Extent e = extentOf(shape_, strides_, itemsize()).value();
  return {base + uintptr_t(e.lo), base + uintptr_t(e.hi)};
}

bool Array::overlaps(const Array &other) const {
  return buffer_ && other.buffer_ &&
         &buffer_->device() == &other.buffer_->device() &&
         byteRange().overlaps(other.byteRange());
}

Result<Array> Array::transpose(const std::vector<int64_t> &perm) const {
  if (!buffer_)
    return Status::error(ErrorCode::InvalidArgument, "transpose of null array");
  std::vector<int64_t> p = perm;
  if (p.empty())
    for (size_t i = ndim(); i-- > 0;)
      p.push_back(int64_t(i));
  std::vector<bool> seen(ndim(), false);
  bool valid = p.size() == ndim();
  for (int64_t axis : p) {
    valid = valid && axis >= 0 && axis < int64_t(ndim()) && !seen[axis];
    if (valid)
      seen[axis] = true;
  }
  if (!valid)
    return Status::error(ErrorCode::InvalidArgument,
                         "bad permutation " + shapeToString(p) + " for " +
                             std::to_string(ndim()) + " axes");
  Array a = *this;
  for (size_t i = 0; i < p.size(); ++i) {
    a.shape_[i] = shape_[p[i]];
    a.strides_[i] = strides_[p[i]];
  }
  return a;
}

Result<Array> Array::slice(int64_t axis, int64_t begin, int64_t end,
                           int64_t step) const {
  int64_t nd = int64_t(ndim());
  if (!buffer_ || axis < -nd || axis >= nd || step == 0)
    return Status::error(ErrorCode::InvalidArgument,
                         "bad slice of axis " + std::to_string(axis) +
                             " with step " + std::to_string(step) + " of " +
                             describe());
  if (axis < 0)
    axis += nd;
  int64_t n = shape_[axis];
  // Python's PySlice_AdjustIndices.
  auto adjust = [&](int64_t v, int64_t omitted) {
    if (v == kOmit)
      return omitted;
    if (v < 0)
      v = std::max(v + n, step < 0 ? int64_t(-1) : int64_t(0));
    else if (v >= n)
      v = step < 0 ? n - 1 : n;
    return v;
  };
  int64_t b = adjust(begin, step < 0 ? n - 1 : 0);
  int64_t e = adjust(end, step < 0 ? -1 : n);
  int64_t len = 0;
  if (step > 0 && e > b)
    len = (e - b + step - 1) / step;
  else if (step < 0 && b > e)
    len = (b - e - step - 1) / -step;
  Array a = *this;
  a.shape_[axis] = len;
  a.strides_[axis] = strides_[axis] * step;
  if (len > 0)
    a.offset_ = offset_ + b * strides_[axis];
  a.numel_ = checkedNumel(a.shape_).value();
  return a;
}

Result<Array> Array::reshape(const Shape &shape) const {
  if (!buffer_)
    return Status::error(ErrorCode::InvalidArgument, "reshape of null array");
  if (!isContiguous())
    return Status::error(ErrorCode::InvalidArgument,
                         "reshape of non-contiguous " + describe() +
                             " (call contiguous() first)");
  Shape s = shape;
  int64_t known = 1, inferred = -1;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == -1 && inferred < 0)
      inferred = int64_t(i);
    else if (s[i] < 0 || __builtin_mul_overflow(known, s[i], &known))
      return Status::error(ErrorCode::InvalidArgument,
                           "bad reshape target " + shapeToString(shape));
  }
  if (inferred >= 0) {
    if (known == 0 || numel_ % known != 0)
      return Status::error(ErrorCode::ShapeMismatch, "cannot reshape " +
                                                         describe() + " to " +
                                                         shapeToString(shape));
    s[inferred] = numel_ / known;
  }
  TCC_ASSIGN_OR_RETURN(int64_t n, checkedNumel(s));
  if (n != numel_)
    return Status::error(ErrorCode::ShapeMismatch, "cannot reshape " +
                                                       describe() + " to " +
                                                       shapeToString(shape));
  return fromBuffer(buffer_, dtype_, s, {}, offset_);
}

std::string Array::describe() const {
  if (!buffer_)
    return "null array";
  return std::string(dtypeName(dtype_)) + shapeToString(shape_) +
         (isContiguous() ? "" : " [non-contiguous]");
}

} // namespace tcc
