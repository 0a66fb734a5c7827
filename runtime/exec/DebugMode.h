//===- DebugMode.h - checking calls against the memory contract -*- C++ -*-===//
//
// Debug mode (RuntimeOptions::debug, TCC_DEBUG=1; docs/memory-model.md)
// turns the contract that Function.h states into checks at call time: what
// must come out unchanged is hashed before the code runs and compared after
// it; outputs must alias only what their flags allow; donated inputs are
// poisoned; borrowed outputs go stale when the next call starts. The checks
// live here, apart from the call path, so that the path reads as what a
// call does and debug mode as what it verifies. Host calls only: device
// calls are not checked yet.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_DEBUGMODE_H
#define TCC_RUNTIME_EXEC_DEBUGMODE_H

#include "runtime/core/Array.h"
#include "runtime/exec/Manifest.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tcc {

class SharedStore;

/// True when the environment asks for debug mode (TCC_DEBUG set to a
/// value other than "", "0", "false", "off" or "no").
bool debugRequestedByEnvironment();

/// Debug mode's memory of the borrowed outputs handed to the user. Each
/// borrowed output of a debug-mode call has a Buffer object of its own
/// (aliasing the function's reusable memory), so a stale result and a fresh
/// one over the same bytes are told apart.
class BorrowTracker {
public:
  /// Aliasing error when `array` views a borrowed output that a later call
  /// has made stale; `use` says how the array was reached ("input 'x' of
  /// 'f'").
  Status check(const Array &array, const std::string &use) const;
  /// A call starts: checks its inputs, then (when they are fine) marks every
  /// borrowed output recorded so far stale, all under one lock.
  Status beginCall(const std::vector<Array> &inputs,
                   const std::vector<std::string> &uses);
  /// Records a borrowed output that stays valid until the next call starts.
  void addFresh(const Array &array, std::string what);
  /// Number of records (live borrowed outputs seen by debug mode).
  size_t size() const;

private:
  struct Record {
    std::weak_ptr<Buffer> buffer;
    const Buffer *raw = nullptr;
    ByteRange range;
    bool stale = false;
    std::string what;
  };
  Status checkLocked(const Array &array, const std::string &use) const;

  mutable std::mutex mutex_;
  std::vector<Record> records_;
};

/// Debug mode's checks of one host call of `f`, in the order the call runs
/// them. Arguments are by argument index: `user` holds the caller's inputs
/// (null for other arguments), `args` what the compiled code gets, and
/// `written` whether the code may write each one.
class DebugCallChecks {
public:
  DebugCallChecks(const FunctionSpec &f, SharedStore &store,
                  BorrowTracker &tracker)
      : f_(f), store_(store), tracker_(tracker) {}

  /// Before anything is allocated: no input views a borrowed output gone
  /// stale; then every borrowed output handed out so far goes stale.
  Status beginCall(const std::vector<const Array *> &user);

  /// Just before the code runs: remembers what must come out unchanged (the
  /// non-borrowed inputs, and the shared variables the call does not update).
  void beforeEntry(const std::vector<const Array *> &user,
                   const std::vector<Array> &args,
                   const std::vector<bool> &written);

  /// After the code ran: an Aliasing error for the first broken rule. Then
  /// poisons the donated inputs that hold no result, and gives each borrowed
  /// output in `results` a handle of its own, tracked until the next call.
  Status afterEntry(const std::vector<const Array *> &user,
                    const std::vector<Array> &args,
                    std::vector<Array> &results);

private:
  const FunctionSpec &f_;
  SharedStore &store_;
  BorrowTracker &tracker_;
  /// Hashes of what must come out unchanged, by argument index.
  std::map<size_t, uint64_t> hashes_;
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_DEBUGMODE_H
