// HostDevice: CPU memory with 64-byte aligned, non-throwing allocation from
// the host caching allocator (HostMemory.h).
#include "runtime/core/Device.h"
#include "runtime/host/HostMemory.h"

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
    return hostAllocator().allocate(bytes);
  }

  void deallocate(void *ptr, size_t) noexcept override {
    // Every pointer comes from allocate(): Buffer frees each once.
    (void)hostAllocator().deallocate(ptr);
  }

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
