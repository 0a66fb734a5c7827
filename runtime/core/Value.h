// Value: a host Array or a DeviceArray, the currency of get/set_value.
#ifndef TCC_RUNTIME_CORE_VALUE_H
#define TCC_RUNTIME_CORE_VALUE_H

#include "runtime/core/Array.h"
#include "runtime/core/DeviceArray.h"

#include <variant>

namespace tcc {

/// Which kind of object a value is (a shared variable remembers the kind it
/// was created from and returns that kind by default).
enum class ValueKind { HostArray, DeviceArray };

/// "host array" or "device array".
const char *valueKindName(ValueKind kind);

/// Either a host Array (user space, any strides) or a DeviceArray.
class Value {
public:
  /// A null host array.
  Value() = default;
  /// Wraps a host array (no copy).
  Value(Array array) : v_(std::move(array)) {}
  /// Wraps a device array (no copy).
  Value(DeviceArray array) : v_(std::move(array)) {}

  ValueKind kind() const {
    return v_.index() == 0 ? ValueKind::HostArray : ValueKind::DeviceArray;
  }
  bool isHostArray() const { return kind() == ValueKind::HostArray; }
  /// The host array, or null when this holds a DeviceArray.
  const Array *hostArray() const { return std::get_if<Array>(&v_); }
  /// The device array, or null when this holds a host Array.
  const DeviceArray *deviceArray() const {
    return std::get_if<DeviceArray>(&v_);
  }

  bool isNull() const;
  DType dtype() const;
  const Shape &shape() const;
  int64_t numel() const;
  size_t nbytes() const;
  /// Where the elements live.
  Device &device() const;
  const std::shared_ptr<Buffer> &buffer() const;
  /// The element bytes' address range on device().
  ByteRange byteRange() const;
  /// True when the elements are dense in C order (always for DeviceArray).
  bool isContiguous() const;
  /// Byte offset of element 0 in buffer().
  int64_t offset() const;
  /// "f32(2, 3) host array on host", for messages.
  std::string describe() const;

private:
  std::variant<Array, DeviceArray> v_;
};

} // namespace tcc

#endif // TCC_RUNTIME_CORE_VALUE_H
