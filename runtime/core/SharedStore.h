// SharedStore: the managed space of shared variables, with checkpoints.
#ifndef TCC_RUNTIME_CORE_SHAREDSTORE_H
#define TCC_RUNTIME_CORE_SHAREDSTORE_H

#include "runtime/core/Counters.h"
#include "runtime/core/Npy.h"
#include "runtime/core/SharedVariable.h"
#include "runtime/core/Value.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tcc {

/// Owns shared variables by name. Every allocation and copy it makes is
/// recorded in its MemoryCounters.
class SharedStore {
public:
  /// A store recording into `counters` (a fresh set when null).
  explicit SharedStore(CountersPtr counters = nullptr);
  ~SharedStore();
  SharedStore(const SharedStore &) = delete;
  SharedStore &operator=(const SharedStore &) = delete;

  /// Creates a variable holding `value` on `device` (null: the value's own
  /// device). borrow=false: a deep copy. borrow=true, host only: the
  /// caller's buffer becomes the storage (later in-place changes by the
  /// caller are visible) unless the value is non-contiguous (one copy) or
  /// overlaps another variable's storage (a copy). Errors: InvalidArgument
  /// for an empty or duplicate name or a null value.
  Result<SharedVariable *> create(const std::string &name, const Value &value,
                                  bool borrow = false,
                                  Device *device = nullptr);
  /// The variable called `name`, or NotFound naming it.
  Result<SharedVariable *> lookup(const std::string &name) const;
  /// True when a variable called `name` exists.
  bool contains(const std::string &name) const;
  /// Destroys a variable; no other thread may be using it.
  Status erase(const std::string &name);
  /// Changes whenever a variable is created or erased: what a name refers
  /// to stays the same while it does not (Function keeps its variables).
  uint64_t generation() const {
    return generation_.load(std::memory_order_acquire);
  }
  /// Number of variables.
  size_t size() const;
  /// All variables in creation order (stable).
  std::vector<SharedVariable *> variables() const;

  /// A variable whose storage overlaps `range` on `device` (by address),
  /// other than `exclude`; null when none.
  const SharedVariable *
  findOverlappingVariable(const Device &device, ByteRange range,
                          const SharedVariable *exclude = nullptr) const;
  /// Same, for a whole buffer.
  const SharedVariable *
  findOverlappingVariable(const Buffer &buffer,
                          const SharedVariable *exclude = nullptr) const;
  /// Aliasing error naming two variables whose storage overlaps, if any.
  Status checkNoAliasing() const;
  /// Locks the variables' mutexes in increasing id order (duplicates once).
  static std::vector<std::unique_lock<std::mutex>>
  lockInOrder(std::vector<SharedVariable *> variables);

  /// Saves every variable as NAME.npy in an uncompressed .npz (device
  /// values are downloaded). Unsupported for bf16 variables.
  Status saveNpz(const std::string &path) const;
  /// Loads values from an .npz: every member must name a variable with the
  /// same shape and a dtype that casts to its dtype as setValue allows (a
  /// lossy cast only with allowDowncast), and (unless allowMissing) every
  /// variable must be present. All-or-nothing: on any error no variable
  /// changes.
  Status loadNpz(const std::string &path, bool allowMissing = false,
                 bool allowDowncast = false);
  /// loadNpz of arrays already read from `path` (which names them in
  /// messages).
  Status loadArrays(const NamedArrays &loaded, const std::string &path,
                    bool allowMissing = false, bool allowDowncast = false);

  /// The counters of this managed space.
  MemoryCounters &counters() const { return *counters_; }
  const CountersPtr &countersPtr() const { return counters_; }

private:
  friend class SharedVariable;
  const SharedVariable *findOverlapLocked(const Device &device, ByteRange range,
                                          const SharedVariable *exclude) const;

  CountersPtr counters_;
  /// Guards the registry and (with each variable's mutex) storage pointers.
  mutable std::mutex mutex_;
  std::atomic<uint64_t> generation_{0};
  std::vector<std::unique_ptr<SharedVariable>> vars_;
  std::map<std::string, SharedVariable *> byName_;
};

/// Records that a shared variable took memory it did not allocate as its
/// storage (set_value or create with borrow=true).
void noteStorageAdoption();
/// How many times that happened in this process: Function reuses its
/// borrowed output buffers without asking the store whether a variable owns
/// one while this number stays the same.
uint64_t storageAdoptions();

} // namespace tcc

#endif // TCC_RUNTIME_CORE_SHAREDSTORE_H
