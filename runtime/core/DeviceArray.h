// DeviceArray: a C-contiguous typed array in one Device's memory.
#ifndef TCC_RUNTIME_CORE_DEVICEARRAY_H
#define TCC_RUNTIME_CORE_DEVICEARRAY_H

#include "runtime/core/Array.h"
#include "runtime/core/Buffer.h"
#include "runtime/core/Counters.h"
#include "runtime/core/DType.h"
#include "runtime/core/Shape.h"

#include <memory>

namespace tcc {

/// A dense C-order array on any Device (host included). Its data pointer is
/// only meaningful to its device. Copying the handle shares the Buffer.
class DeviceArray {
public:
  /// The null device array.
  DeviceArray() = default;

  /// Uninitialised array on `device` (user space: counts nothing).
  static Result<DeviceArray> empty(Device &device, DType dtype,
                                   const Shape &shape);
  /// Uploads a host array (made contiguous first if needed). With
  /// `counters`, records the allocation and the copies.
  static Result<DeviceArray> fromHost(Device &device, const Array &host,
                                      MemoryCounters *counters = nullptr);
  /// Views `shape` elements at byte `offset` of an existing buffer.
  static Result<DeviceArray> fromBuffer(std::shared_ptr<Buffer> buffer,
                                        DType dtype, const Shape &shape,
                                        int64_t offset = 0);

  /// Downloads into a new host Array (one copy).
  Result<Array> toHost(MemoryCounters *counters = nullptr) const;
  /// A deep copy on the same device.
  Result<DeviceArray> copy(MemoryCounters *counters = nullptr) const;

  bool isNull() const { return !buffer_; }
  DType dtype() const { return dtype_; }
  const Shape &shape() const { return shape_; }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return size_t(numel_) * dtypeSize(dtype_); }
  /// Byte offset of element 0 in the buffer.
  int64_t offset() const { return offset_; }
  const std::shared_ptr<Buffer> &buffer() const { return buffer_; }
  /// The device holding the data (host for the null array).
  Device &device() const;
  /// Device address of element 0 (not host-addressable off the host).
  void *data() const;
  /// The element bytes' address range on device().
  ByteRange byteRange() const;

private:
  DType dtype_ = DType::F32;
  Shape shape_;
  int64_t offset_ = 0;
  int64_t numel_ = 0;
  std::shared_ptr<Buffer> buffer_;
};

} // namespace tcc

#endif // TCC_RUNTIME_CORE_DEVICEARRAY_H
