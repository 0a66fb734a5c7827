// Array data movement: strided copies, deep copies, copyFrom, comparison.
#include "runtime/core/Array.h"

namespace tcc {

void stridedCopy(void *dst, const Strides &dstStrides, const void *src,
                 const Strides &srcStrides, const Shape &shape,
                 size_t itemsize) {
  struct Dim {
    int64_t n, d, s;
  };
  // Innermost first; size-1 dimensions dropped; mergeable dimensions merged.
  std::vector<Dim> dims;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 0)
      return;
    if (shape[i] == 1)
      continue;
    Dim next{shape[i], dstStrides[i], srcStrides[i]};
    if (!dims.empty() && next.d == dims.back().d * dims.back().n &&
        next.s == dims.back().s * dims.back().n)
      dims.back().n *= next.n;
    else
      dims.push_back(next);
  }
  size_t chunk = itemsize;
  size_t first = 0;
  if (!dims.empty() && dims[0].d == int64_t(itemsize) &&
      dims[0].s == int64_t(itemsize)) {
    chunk = size_t(dims[0].n) * itemsize;
    first = 1;
  }
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  if (first == dims.size()) {
    std::memcpy(d, s, chunk);
    return;
  }
  const Dim inner = dims[first];
  std::vector<int64_t> idx(dims.size(), 0);
  while (true) {
    for (int64_t k = 0; k < inner.n; ++k)
      std::memcpy(d + k * inner.d, s + k * inner.s, chunk);
    size_t j = first + 1;
    for (; j < dims.size(); ++j) {
      if (++idx[j] < dims[j].n) {
        d += dims[j].d;
        s += dims[j].s;
        break;
      }
      d -= dims[j].d * (dims[j].n - 1);
      s -= dims[j].s * (dims[j].n - 1);
      idx[j] = 0;
    }
    if (j == dims.size())
      return;
  }
}

Result<Array> Array::copy(MemoryCounters *counters) const {
  if (!buffer_)
    return Status::error(ErrorCode::InvalidArgument, "copy of a null array");
  TCC_ASSIGN_OR_RETURN(Array out, empty(dtype_, shape_));
  stridedCopy(out.data(), out.strides_, data(), strides_, shape_, itemsize());
  if (counters) {
    counters->recordAllocation(nbytes());
    counters->recordCopy(nbytes());
  }
  return out;
}

Result<Array> Array::contiguous(MemoryCounters *counters) const {
  if (!buffer_ || isContiguous())
    return *this;
  return copy(counters);
}

Status Array::copyFrom(const Array &src, MemoryCounters *counters) {
  if (!buffer_ || !src.buffer_)
    return Status::error(ErrorCode::InvalidArgument, "copy with a null array");
  if (src.dtype_ != dtype_)
    return Status::error(ErrorCode::DTypeMismatch,
                         std::string("copy from ") + dtypeName(src.dtype_) +
                             " into " + dtypeName(dtype_));
  if (src.shape_ != shape_)
    return Status::error(ErrorCode::ShapeMismatch,
                         "copy from shape " + shapeToString(src.shape_) +
                             " into shape " + shapeToString(shape_));
  if (data() == src.data() && strides_ == src.strides_)
    return Status::success(); // the same elements: nothing to do
  if (overlaps(src)) {
    // Go through a temporary so no element is read after being overwritten.
    TCC_ASSIGN_OR_RETURN(Array tmp, src.copy(counters));
    stridedCopy(data(), strides_, tmp.data(), tmp.strides_, shape_, itemsize());
  } else {
    stridedCopy(data(), strides_, src.data(), src.strides_, shape_, itemsize());
  }
  if (counters)
    counters->recordCopy(nbytes());
  return Status::success();
}

bool Array::bitwiseEqual(const Array &other) const {
  if (isNull() || other.isNull())
    return isNull() && other.isNull();
  if (dtype_ != other.dtype_ || shape_ != other.shape_)
    return false;
  auto a = contiguous();
  auto b = other.contiguous();
  if (!a.ok() || !b.ok())
    return false;
  return nbytes() == 0 || std::memcmp(a->data(), b->data(), nbytes()) == 0;
}

} // namespace tcc
