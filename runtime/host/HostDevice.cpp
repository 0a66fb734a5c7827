// HostDevice: CPU memory with 64-byte aligned, non-throwing allocation.
#include "runtime/core/Device.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tcc {
namespace {

constexpr size_t kAlignment = 64;
/// Larger requests cannot be real: refuse them before asking the allocator.
constexpr size_t kMaxAllocation = size_t(PTRDIFF_MAX) - kAlignment;

class HostDevice final : public Device {
public:
  DeviceKind kind() const override { return DeviceKind::Host; }
  std::string name() const override { return "host"; }

  Result<void *> allocate(size_t bytes) override {
    if (bytes > kMaxAllocation)
      return Status::error(ErrorCode::OutOfMemory, "host allocation of " +
                                                       std::to_string(bytes) +
                                                       " bytes is too large");
    size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    if (rounded == 0)
      rounded = kAlignment;
    void *p = std::aligned_alloc(kAlignment, rounded);
    if (!p)
      return Status::error(ErrorCode::OutOfMemory, "host allocation of " +
                                                       std::to_string(bytes) +
                                                       " bytes failed");
    return p;
  }

  void deallocate(void *ptr, size_t) noexcept override { std::free(ptr); }

  Status copyFromHost(void *dst, const void *src, size_t bytes) override {
    return copy(dst, src, bytes);
  }
  Status copyToHost(void *dst, const void *src, size_t bytes) override {
    return copy(dst, src, bytes);
  }
  Status copyWithin(void *dst, const void *src, size_t bytes) override {
    return copy(dst, src, bytes);
  }

private:
  static Status copy(void *dst, const void *src, size_t bytes) {
    if (bytes)
      std::memmove(dst, src, bytes);
    return Status::success();
  }
};

} // namespace

Device &hostDevice() {
  static Device *device = new HostDevice(); // never destroyed on purpose
  return *device;
}

} // namespace tcc
