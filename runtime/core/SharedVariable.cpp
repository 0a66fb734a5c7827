// SharedVariable: get_value/set_value with borrow, storage adoption and reuse.
#include "runtime/core/SharedVariable.h"
#include "runtime/core/SharedStore.h"

#include <atomic>

namespace tcc {
namespace {

std::atomic<uint64_t> nextVariableId{1};

/// Copies `value` into the dense C-order block at `dstOffset` of `dst` (any
/// devices). Host to host is one (strided) copy; a strided host value bound
/// for a device is made contiguous first.
Status copyValueInto(const std::shared_ptr<Buffer> &dst, int64_t dstOffset,
                     const Value &value, MemoryCounters *counters) {
  if (const Array *a = value.hostArray()) {
    if (dst->isHost()) {
      TCC_ASSIGN_OR_RETURN(
          Array view,
          Array::fromBuffer(dst, a->dtype(), a->shape(), {}, dstOffset));
      return view.copyFrom(*a, counters);
    }
    TCC_ASSIGN_OR_RETURN(Array c, a->contiguous(counters));
    return copyBytes(*dst, size_t(dstOffset), *c.buffer(), size_t(c.offset()),
                     c.nbytes(), counters);
  }
  const DeviceArray *d = value.deviceArray();
  return copyBytes(*dst, size_t(dstOffset), *d->buffer(), size_t(d->offset()),
                   d->nbytes(), counters);
}

/// A deep copy of the same kind on the same device.
Result<Value> deepCopy(const Value &v, MemoryCounters *counters) {
  if (const Array *a = v.hostArray()) {
    TCC_ASSIGN_OR_RETURN(Array c, a->copy(counters));
    return Value(std::move(c));
  }
  TCC_ASSIGN_OR_RETURN(DeviceArray c, v.deviceArray()->copy(counters));
  return Value(std::move(c));
}

} // namespace

SharedVariable::SharedVariable(SharedStore &store, std::string name,
                               DType dtype, Shape shape, Device &device,
                               ValueKind createdFrom)
    : store_(store), id_(nextVariableId.fetch_add(1)), name_(std::move(name)),
      dtype_(dtype), shape_(std::move(shape)),
      numel_(checkedNumel(shape_).value()), device_(device),
      createdFrom_(createdFrom) {}

ByteRange SharedVariable::storageRange() const {
  if (!storage_)
    return {};
  auto b = reinterpret_cast<uintptr_t>(storage_->data()) + uintptr_t(offset_);
  return {b, b + nbytes()};
}

Value SharedVariable::internalValueLocked() const {
  if (device_.isHost())
    return Array::fromBuffer(storage_, dtype_, shape_, {}, offset_).value();
  return DeviceArray::fromBuffer(storage_, dtype_, shape_, offset_).value();
}

Result<Value> SharedVariable::getValue(bool borrow,
                                       bool returnInternalType) const {
  auto guard = lock();
  return getValueLocked(createdFrom_, borrow, returnInternalType);
}

Result<Array> SharedVariable::getArray(bool borrow) const {
  auto guard = lock();
  TCC_ASSIGN_OR_RETURN(Value v,
                       getValueLocked(ValueKind::HostArray, borrow, false));
  return *v.hostArray();
}

Result<Value> SharedVariable::getValueLocked(ValueKind kind, bool borrow,
                                             bool internal) const {
  MemoryCounters *counters = &store_.counters();
  if (internal) {
    Value v = internalValueLocked();
    return borrow ? Result<Value>(std::move(v)) : deepCopy(v, counters);
  }
  if (kind == ValueKind::DeviceArray || device_.isHost()) {
    // The storage can be shown as the requested kind without a copy.
    Value view =
        kind == ValueKind::HostArray
            ? Value(Array::fromBuffer(storage_, dtype_, shape_, {}, offset_)
                        .value())
            : Value(DeviceArray::fromBuffer(storage_, dtype_, shape_, offset_)
                        .value());
    return borrow ? Result<Value>(std::move(view)) : deepCopy(view, counters);
  }
  // A host array of device storage: a download even when borrowing.
  DeviceArray dv =
      DeviceArray::fromBuffer(storage_, dtype_, shape_, offset_).value();
  TCC_ASSIGN_OR_RETURN(Array a, dv.toHost(counters));
  return Value(std::move(a));
}

Status SharedVariable::checkType(const Value &value, bool allowDowncast) const {
  if (value.isNull())
    return Status::error(ErrorCode::InvalidArgument,
                         "shared variable '" + name_ + "': null value");
  if (!allowDowncast && !isSafeCast(value.dtype(), dtype_))
    return Status::error(
        ErrorCode::DTypeMismatch,
        "shared variable '" + name_ + "' has dtype " + dtypeName(dtype_) +
            ", got a value of dtype " + dtypeName(value.dtype()) +
            ", which would lose precision: cast the value to " +
            dtypeName(dtype_) +
            ", or accept the cast with allowDowncast (tcc run "
            "--allow-downcast)");
  if (value.shape() != shape_)
    return Status::error(ErrorCode::ShapeMismatch,
                         "shared variable '" + name_ + "' has shape " +
                             shapeToString(shape_) + ", got a value of shape " +
                             shapeToString(value.shape()));
  return Status::success();
}

Status SharedVariable::setValue(const Value &value, bool borrow) {
  auto guard = lock();
  return setValueLocked(value, borrow);
}

Status SharedVariable::setValue(const Value &value, SetValueOptions options) {
  auto guard = lock();
  return setValueLocked(value, options.borrow, options.allowDowncast);
}

Status SharedVariable::setValueLocked(const Value &value, bool borrow,
                                      bool allowDowncast) {
  TCC_RETURN_IF_ERROR(checkType(value, allowDowncast));
  MemoryCounters &counters = store_.counters();
  if (value.dtype() != dtype_) {
    // Cast on the host into a fresh array, then copy it in (never adopt).
    Array host;
    if (const Array *a = value.hostArray()) {
      host = *a;
    } else {
      TCC_ASSIGN_OR_RETURN(host, value.deviceArray()->toHost(&counters));
    }
    TCC_ASSIGN_OR_RETURN(Array cast,
                         Array::fromDoubles(dtype_, host.toDoubles(), shape_));
    return setValueLocked(Value(std::move(cast)), /*borrow=*/false);
  }
  size_t n = nbytes();
  if (n == 0)
    return Status::success(); // nothing to hold
  bool sameDevice = &value.device() == &device_;
  ByteRange range = value.byteRange();
  bool dense = value.isContiguous();

  // Setting the variable to its own storage (the get(borrow)/set(borrow)
  // pattern) is a no-op.
  if (sameDevice && dense && range == storageRange()) {
    if (borrow)
      counters.recordCopyAvoided(n);
    return Status::success();
  }

  // Adopt the caller's buffer: host only, dense, aliasing no other variable.
  if (borrow && device_.isHost() && sameDevice && dense) {
    std::shared_ptr<Buffer> old; // released after the store lock
    std::lock_guard<std::mutex> storeLock(store_.mutex_);
    if (!store_.findOverlapLocked(device_, range, this)) {
      old = std::move(storage_);
      storage_ = value.buffer();
      offset_ = value.offset();
      ownsStorage_ = false;
      noteStorageAdoption();
      counters.recordCopyAvoided(n);
      return Status::success();
    }
  }

  // Copy. Reuse our own allocation unless the value lives inside it.
  bool valueInsideStorage = sameDevice && range.overlaps(storageRange());
  if (ownsStorage_ && storage_ && !valueInsideStorage)
    return copyValueInto(storage_, offset_, value, &counters);
  return copyIntoNewStorage(value, /*publish=*/true);
}

Status SharedVariable::copyIntoNewStorage(const Value &value, bool publish) {
  TCC_ASSIGN_OR_RETURN(auto buffer, Buffer::allocateManaged(device_, nbytes(),
                                                            store_.counters_));
  TCC_RETURN_IF_ERROR(copyValueInto(buffer, 0, value, &store_.counters()));
  install(std::move(buffer), 0, /*owned=*/true, publish);
  return Status::success();
}

void SharedVariable::install(std::shared_ptr<Buffer> buffer, int64_t offset,
                             bool owned, bool publish) {
  std::shared_ptr<Buffer> old; // freed after unlocking
  std::unique_lock<std::mutex> storeLock(store_.mutex_, std::defer_lock);
  if (publish)
    storeLock.lock();
  old = std::move(storage_);
  storage_ = std::move(buffer);
  offset_ = offset;
  ownsStorage_ = owned;
}

} // namespace tcc
