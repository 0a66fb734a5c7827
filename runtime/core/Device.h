// Device: where memory lives (host or an accelerator), and how bytes move.
#ifndef TCC_RUNTIME_CORE_DEVICE_H
#define TCC_RUNTIME_CORE_DEVICE_H

#include "runtime/core/Status.h"

#include <cstddef>
#include <string>

namespace tcc {

/// The kinds of memory the runtime knows.
enum class DeviceKind { Host, Cuda };

/// A memory space with its allocator and copy routines. Memory of a
/// non-host device is NOT host-addressable: its pointers are only passed back
/// to that device. Devices are long-lived (process lifetime); every Buffer
/// they allocate must be released before the device goes away.
class Device {
public:
  virtual ~Device() = default;

  /// Host or Cuda.
  virtual DeviceKind kind() const = 0;
  /// A readable name: "host", "cuda:0".
  virtual std::string name() const = 0;
  /// True when pointers of this device can be dereferenced by the CPU.
  bool isHost() const { return kind() == DeviceKind::Host; }

  /// Allocates `bytes` bytes (64-byte aligned on the host). Never throws:
  /// OutOfMemory for sizes that cannot be served. Zero bytes gives a valid
  /// unique pointer.
  virtual Result<void *> allocate(size_t bytes) = 0;
  /// Frees memory from allocate().
  virtual void deallocate(void *ptr, size_t bytes) noexcept = 0;

  /// Copies `bytes` from host memory `src` to this device's `dst`.
  virtual Status copyFromHost(void *dst, const void *src, size_t bytes) = 0;
  /// Copies `bytes` from this device's `src` to host memory `dst`.
  virtual Status copyToHost(void *dst, const void *src, size_t bytes) = 0;
  /// Copies `bytes` within this device (the ranges must not overlap).
  virtual Status copyWithin(void *dst, const void *src, size_t bytes) = 0;
};

/// The process-wide host device (never destroyed).
Device &hostDevice();

} // namespace tcc

#endif // TCC_RUNTIME_CORE_DEVICE_H
