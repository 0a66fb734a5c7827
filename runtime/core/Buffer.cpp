// Buffer: Device allocation, adoption of external memory, byte copies.
#include "runtime/core/Buffer.h"

namespace tcc {

Buffer::Buffer(void *data, size_t size, Device &device, Deleter deleter,
               CountersPtr counters)
    : data_(data), size_(size), device_(&device), deleter_(std::move(deleter)),
      counters_(std::move(counters)) {}

Buffer::~Buffer() {
  if (deleter_)
    deleter_(data_);
  if (counters_)
    counters_->recordManagedFree(size_);
}

Result<std::shared_ptr<Buffer>> Buffer::allocate(Device &device, size_t bytes) {
  return allocateManaged(device, bytes, nullptr);
}

Result<std::shared_ptr<Buffer>>
Buffer::allocateManaged(Device &device, size_t bytes, CountersPtr counters) {
  TCC_ASSIGN_OR_RETURN(void *ptr, device.allocate(bytes));
  Device *dev = &device;
  Deleter release = [dev, bytes](void *p) { dev->deallocate(p, bytes); };
  if (counters)
    counters->recordManagedAllocation(bytes);
  return std::shared_ptr<Buffer>(
      new Buffer(ptr, bytes, device, std::move(release), std::move(counters)));
}

std::shared_ptr<Buffer> Buffer::adopt(void *ptr, size_t bytes, Deleter deleter,
                                      Device &device) {
  return std::shared_ptr<Buffer>(
      new Buffer(ptr, bytes, device, std::move(deleter), nullptr));
}

std::shared_ptr<Buffer> Buffer::wrap(void *ptr, size_t bytes, Device &device) {
  return adopt(ptr, bytes, nullptr, device);
}

ByteRange Buffer::range() const {
  auto b = reinterpret_cast<uintptr_t>(data_);
  return {b, b + size_};
}

bool Buffer::overlaps(const Buffer &other) const {
  return device_ == other.device_ && range().overlaps(other.range());
}

Status copyBytes(Buffer &dst, size_t dstOffset, const Buffer &src,
                 size_t srcOffset, size_t bytes, MemoryCounters *counters) {
  if (dstOffset > dst.size() || bytes > dst.size() - dstOffset ||
      srcOffset > src.size() || bytes > src.size() - srcOffset)
    return Status::error(ErrorCode::InvalidArgument,
                         "copyBytes: range outside its buffer");
  if (bytes == 0)
    return Status::success();
  char *d = static_cast<char *>(dst.data()) + dstOffset;
  const char *s = static_cast<const char *>(src.data()) + srcOffset;
  if (d == s && &dst.device() == &src.device())
    return Status::success();
  Device &dd = dst.device(), &sd = src.device();
  Status st;
  if (sd.isHost())
    st = dd.copyFromHost(d, s, bytes); // host->host or host->device
  else if (dd.isHost())
    st = sd.copyToHost(d, s, bytes);
  else if (&dd == &sd)
    st = dd.copyWithin(d, s, bytes);
  else { // two different accelerators: stage through the host
    TCC_ASSIGN_OR_RETURN(auto staging, Buffer::allocate(hostDevice(), bytes));
    st = sd.copyToHost(staging->data(), s, bytes);
    if (st.ok())
      st = dd.copyFromHost(d, staging->data(), bytes);
  }
  if (st.ok() && counters)
    counters->recordCopy(bytes);
  return st;
}

} // namespace tcc
