// DeviceArray: allocation, upload, download and copies through the Device.
#include "runtime/core/DeviceArray.h"

namespace tcc {

Result<DeviceArray> DeviceArray::fromBuffer(std::shared_ptr<Buffer> buffer,
                                            DType dtype, const Shape &shape,
                                            int64_t offset) {
  if (!buffer)
    return Status::error(ErrorCode::InvalidArgument,
                         "DeviceArray needs a buffer");
  TCC_ASSIGN_OR_RETURN(size_t bytes, checkedNbytes(shape, dtype));
  if (offset < 0 || size_t(offset) > buffer->size() ||
      bytes > buffer->size() - size_t(offset))
    return Status::error(ErrorCode::InvalidArgument,
                         "device array of shape " + shapeToString(shape) +
                             " does not fit its buffer");
  DeviceArray a;
  a.dtype_ = dtype;
  a.shape_ = shape;
  a.offset_ = offset;
  a.numel_ = checkedNumel(shape).value();
  a.buffer_ = std::move(buffer);
  return a;
}

Result<DeviceArray> DeviceArray::empty(Device &device, DType dtype,
                                       const Shape &shape) {
  TCC_ASSIGN_OR_RETURN(size_t bytes, checkedNbytes(shape, dtype));
  TCC_ASSIGN_OR_RETURN(auto buffer, Buffer::allocate(device, bytes));
  return fromBuffer(std::move(buffer), dtype, shape);
}

Result<DeviceArray> DeviceArray::fromHost(Device &device, const Array &host,
                                          MemoryCounters *counters) {
  if (host.isNull())
    return Status::error(ErrorCode::InvalidArgument, "upload of null array");
  TCC_ASSIGN_OR_RETURN(Array c, host.contiguous(counters));
  TCC_ASSIGN_OR_RETURN(DeviceArray d, empty(device, c.dtype(), c.shape()));
  if (counters)
    counters->recordAllocation(d.nbytes());
  TCC_RETURN_IF_ERROR(copyBytes(*d.buffer_, 0, *c.buffer(), size_t(c.offset()),
                                c.nbytes(), counters));
  return d;
}

Result<Array> DeviceArray::toHost(MemoryCounters *counters) const {
  if (!buffer_)
    return Status::error(ErrorCode::InvalidArgument, "download of null array");
  TCC_ASSIGN_OR_RETURN(Array a, Array::empty(dtype_, shape_));
  if (counters)
    counters->recordAllocation(nbytes());
  TCC_RETURN_IF_ERROR(
      copyBytes(*a.buffer(), 0, *buffer_, size_t(offset_), nbytes(), counters));
  return a;
}

Result<DeviceArray> DeviceArray::copy(MemoryCounters *counters) const {
  if (!buffer_)
    return Status::error(ErrorCode::InvalidArgument, "copy of null array");
  TCC_ASSIGN_OR_RETURN(DeviceArray d, empty(device(), dtype_, shape_));
  if (counters)
    counters->recordAllocation(nbytes());
  TCC_RETURN_IF_ERROR(
      copyBytes(*d.buffer_, 0, *buffer_, size_t(offset_), nbytes(), counters));
  return d;
}

Device &DeviceArray::device() const {
  return buffer_ ? buffer_->device() : hostDevice();
}

void *DeviceArray::data() const {
  return buffer_ ? static_cast<char *>(buffer_->data()) + offset_ : nullptr;
}

ByteRange DeviceArray::byteRange() const {
  auto b = reinterpret_cast<uintptr_t>(data());
  return {b, b + nbytes()};
}

} // namespace tcc
