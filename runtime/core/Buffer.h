// Buffer: one contiguous block of memory on a Device, with shared ownership.
#ifndef TCC_RUNTIME_CORE_BUFFER_H
#define TCC_RUNTIME_CORE_BUFFER_H

#include "runtime/core/Counters.h"
#include "runtime/core/Device.h"
#include "runtime/core/Status.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace tcc {

/// A half-open address range [begin, end). Empty ranges overlap nothing.
struct ByteRange {
  uintptr_t begin = 0;
  uintptr_t end = 0;

  /// True when the range holds no byte.
  bool empty() const { return end <= begin; }
  /// Number of bytes.
  size_t size() const { return empty() ? 0 : size_t(end - begin); }
  /// True when both ranges share at least one byte.
  bool overlaps(const ByteRange &o) const {
    return !empty() && !o.empty() && begin < o.end && o.begin < end;
  }
  /// True when `o` lies inside this range.
  bool contains(const ByteRange &o) const {
    return o.empty() || (begin <= o.begin && o.end <= end);
  }
  bool operator==(const ByteRange &o) const {
    return begin == o.begin && end == o.end;
  }
};

/// A contiguous block of memory on one Device. Held by std::shared_ptr;
/// whatever owns the memory is released when the last holder goes away.
class Buffer {
public:
  /// Releases adopted memory; receives the pointer given to adopt().
  using Deleter = std::function<void(void *)>;

  /// Allocates `bytes` on `device`. User space: counts nothing.
  static Result<std::shared_ptr<Buffer>> allocate(Device &device, size_t bytes);
  /// Allocates `bytes` in the managed space on `device`: recorded in
  /// `counters` as a managed allocation; the free lowers live bytes.
  static Result<std::shared_ptr<Buffer>>
  allocateManaged(Device &device, size_t bytes, CountersPtr counters);
  /// Takes ownership of external memory; `deleter(ptr)` runs on release.
  /// A null deleter makes it non-owning (like wrap()).
  static std::shared_ptr<Buffer> adopt(void *ptr, size_t bytes, Deleter deleter,
                                       Device &device = hostDevice());
  /// Refers to external memory without owning it: the caller keeps it alive.
  static std::shared_ptr<Buffer> wrap(void *ptr, size_t bytes,
                                      Device &device = hostDevice());

  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  /// Start of the block (a device pointer when !device().isHost()).
  void *data() const { return data_; }
  /// Size in bytes as requested.
  size_t size() const { return size_; }
  /// The device the memory lives on.
  Device &device() const { return *device_; }
  /// True when the memory lives on the host.
  bool isHost() const { return device_->isHost(); }
  /// True when the runtime allocated it in the managed space.
  bool isManaged() const { return counters_ != nullptr; }
  /// True when releasing the buffer frees the memory.
  bool ownsMemory() const { return static_cast<bool>(deleter_); }
  /// The whole block's address range.
  ByteRange range() const;
  /// True when both buffers are on the same device and their ranges overlap.
  bool overlaps(const Buffer &other) const;

private:
  Buffer(void *data, size_t size, Device &device, Deleter deleter,
         CountersPtr counters);

  void *data_;
  size_t size_;
  Device *device_;
  Deleter deleter_;
  CountersPtr counters_;
};

/// OutOfMemory ("cannot allocate N bytes on host: ...") when `bytes` exceed
/// the memory the host can still give; checked before every host
/// allocation, since Linux would grant it and kill the process later.
Status checkAllocationFits(Device &device, uint64_t bytes);

/// Copies `bytes` from `src`+`srcOffset` to `dst`+`dstOffset` whatever the
/// devices (host<->device, device<->device; across devices via the host).
/// Checks the ranges; a copy onto itself is a no-op. When `counters` is
/// given, the copy is recorded.
Status copyBytes(Buffer &dst, size_t dstOffset, const Buffer &src,
                 size_t srcOffset, size_t bytes, MemoryCounters *counters);

} // namespace tcc

#endif // TCC_RUNTIME_CORE_BUFFER_H
