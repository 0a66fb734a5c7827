// SharedVariable: a named managed-space value with Theano borrow semantics.
#ifndef TCC_RUNTIME_CORE_SHAREDVARIABLE_H
#define TCC_RUNTIME_CORE_SHAREDVARIABLE_H

#include "runtime/core/Buffer.h"
#include "runtime/core/Value.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace tcc {

class SharedStore;

/// Options of SharedVariable::setValue.
struct SetValueOptions {
  /// As setValue's `borrow`. A value of another dtype is always copied.
  bool borrow = false;
  /// Accept a value whose dtype casts to the variable's with loss of
  /// precision (PyTensor's allow_downcast); elements are converted as
  /// Array::setDouble does (round to nearest, integers saturate).
  bool allowDowncast = false;
};

/// A shared variable: name, dtype and shape (fixed for its lifetime), and
/// storage (a dense C-order block in one Device's memory) that is never
/// aliased to another shared variable of the same store. Created and owned
/// by a SharedStore; pointers stay valid until erased or the store dies.
///
/// Thread safety: getValue/setValue lock the variable's mutex themselves (do
/// not call them while holding lock()). Lock order: variables by increasing
/// id (SharedStore::lockInOrder), then the store's internal mutex.
class SharedVariable {
public:
  SharedVariable(const SharedVariable &) = delete;
  SharedVariable &operator=(const SharedVariable &) = delete;

  const std::string &name() const { return name_; }
  /// Unique within the process; increases with creation order.
  uint64_t id() const { return id_; }
  DType dtype() const { return dtype_; }
  const Shape &shape() const { return shape_; }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return size_t(numel_) * dtypeSize(dtype_); }
  /// The device holding the storage.
  Device &device() const { return device_; }
  /// The kind of object the variable was created from; getValue returns
  /// this kind unless returnInternalType is set.
  ValueKind createdFrom() const { return createdFrom_; }

  /// borrow=false: a deep copy, never aliased to managed memory.
  /// borrow=true: may alias the storage (read it, do not write it); O(1)
  /// when the storage can be shown as the requested kind (always on the
  /// host), otherwise still a copy (e.g. a host array of device storage).
  /// returnInternalType=true: the internal object (host storage: an Array
  /// over it; device storage: a DeviceArray) in O(1) with borrow=true, a deep
  /// copy of it with borrow=false.
  Result<Value> getValue(bool borrow = false,
                         bool returnInternalType = false) const;
  /// getValue, always as a host Array (downloaded when needed).
  Result<Array> getArray(bool borrow = false) const;

  /// Replaces the value. The shape must match (ShapeMismatch naming the
  /// variable). A value of another dtype is cast when isSafeCast(value's
  /// dtype, the variable's) holds, or with options.allowDowncast; a lossy
  /// cast without it is DTypeMismatch naming both dtypes. A cast converts on
  /// the host (downloading a device value first), then copies or uploads;
  /// it never adopts the caller's buffer, whatever `borrow` says. After any
  /// error the variable is unchanged.
  /// borrow=false: copies, into the current allocation when the variable
  /// owns it (no new allocation), else into a fresh managed one.
  /// borrow=true on the host: adopts the caller's contiguous buffer (no
  /// copy) unless it overlaps another shared variable's storage; setting
  /// the variable to its own storage is a no-op. Non-contiguous values cost
  /// exactly one copy on the host. On other devices borrow has no effect:
  /// the value is copied into the variable's own allocation (same shape and
  /// dtype: no allocation), a non-contiguous host value after one copy on
  /// the host that makes it contiguous.
  Status setValue(const Value &value, bool borrow = false);
  /// setValue with options (borrow, allowDowncast).
  Status setValue(const Value &value, SetValueOptions options);

  /// The variable's mutex, for multi-variable operations.
  std::mutex &mutex() const { return mutex_; }
  /// Locks the variable's mutex.
  std::unique_lock<std::mutex> lock() const {
    return std::unique_lock<std::mutex>(mutex_);
  }

  /// The storage buffer (hold lock(), or call while nothing runs).
  const std::shared_ptr<Buffer> &storageBuffer() const { return storage_; }
  /// Byte offset of the value in storageBuffer().
  int64_t storageOffset() const { return offset_; }
  /// Address range of the value's bytes on device().
  ByteRange storageRange() const;
  /// True when the storage is memory the runtime allocated for this
  /// variable (false when adopted from the caller through borrow=true).
  bool ownsStorage() const { return ownsStorage_; }
  /// The internal object over the storage, no copy (hold lock()).
  Value internalValueLocked() const;

private:
  friend class SharedStore;
  SharedVariable(SharedStore &store, std::string name, DType dtype, Shape shape,
                 Device &device, ValueKind createdFrom);

  Result<Value> getValueLocked(ValueKind kind, bool borrow,
                               bool internal) const;
  Status setValueLocked(const Value &value, bool borrow,
                        bool allowDowncast = false);
  Status checkType(const Value &value, bool allowDowncast = false) const;
  /// Copies `value` into fresh managed storage and installs it.
  Status copyIntoNewStorage(const Value &value, bool publish);
  /// Installs new storage (takes the store mutex when `publish`).
  void install(std::shared_ptr<Buffer> buffer, int64_t offset, bool owned,
               bool publish);

  SharedStore &store_;
  const uint64_t id_;
  const std::string name_;
  const DType dtype_;
  const Shape shape_;
  const int64_t numel_;
  Device &device_;
  const ValueKind createdFrom_;

  mutable std::mutex mutex_;
  // Written only while holding mutex_ and then the store's mutex.
  std::shared_ptr<Buffer> storage_;
  int64_t offset_ = 0;
  bool ownsStorage_ = false;
};

} // namespace tcc

#endif // TCC_RUNTIME_CORE_SHAREDVARIABLE_H
