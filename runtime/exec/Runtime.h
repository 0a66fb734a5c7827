//===- Runtime.h - the managed memory space and its loaded programs ------===//

#ifndef TCC_RUNTIME_EXEC_RUNTIME_H
#define TCC_RUNTIME_EXEC_RUNTIME_H

#include "runtime/core/SharedStore.h"
#include "runtime/exec/DebugMode.h"
#include "runtime/exec/Function.h"
#include "runtime/exec/Program.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tcc {

/// How a runtime behaves.
struct RuntimeOptions {
  /// Debug mode: every call is checked against the memory contract (see
  /// docs/memory-model.md). Non-borrowed inputs and the shared variables a
  /// call does not update must come out bitwise unchanged; no output may
  /// alias what its flags do not allow; borrowed outputs go stale when the
  /// next call starts (checkFresh() and the inputs of later calls report
  /// them); borrowed inputs that are not outputs are poisoned (NaN for
  /// floats, 0xA5 bytes otherwise) after the call. A violation makes the
  /// call return an Aliasing error. Also turned on by TCC_DEBUG=1 in the
  /// environment. The checks are in DebugMode.h.
  bool debug = false;
};

/// Owns the shared-variable store (the managed memory space), the counters,
/// and the programs loaded into it. Thread-safe for calls; loading is not
/// concurrent with calls.
class Runtime {
public:
  explicit Runtime(RuntimeOptions options = {});
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  SharedStore &shared() { return store_; }
  MemoryCounters &counters() { return *counters_; }
  const CountersPtr &countersPtr() const { return counters_; }

  /// Makes a program's functions callable. Its shared variables are created
  /// from their initializers, unless a variable of that name exists already
  /// (then its dtype and shape must match). Nothing changes on error. The
  /// functions a program defers (Program::deferred) are compiled when
  /// function() first asks for them.
  Status load(std::shared_ptr<const Program> program);
  /// Undoes load(): the program's functions are no longer callable (their
  /// Function objects are destroyed; pointers to them dangle) and the
  /// runtime drops its references to the program, so that its code (a JIT
  /// engine, a shared object and its descriptor) goes when the last other
  /// holder lets go. The shared variables it created stay in the store.
  /// Not concurrent with calls. NotFound when this runtime did not load
  /// `program` (or unloaded it already); nothing changes then. The functions
  /// compiled for a program that defers them go with it.
  Status unload(const Program &program);

  /// A loaded function by name. A deferred one is compiled first, with the
  /// functions it calls; a compile error is returned (and the next request
  /// tries again).
  Result<Function *> function(const std::string &name) const;
  /// The loaded functions' names, deferred ones included, sorted.
  std::vector<std::string> functionNames() const;

  /// True in debug mode (RuntimeOptions::debug or TCC_DEBUG=1).
  bool debug() const { return debug_.load(std::memory_order_relaxed); }
  /// Turns debug mode on or off (not while calls run).
  void setDebug(bool on) { debug_.store(on, std::memory_order_relaxed); }
  /// In debug mode: an Aliasing error when `array` views a borrowed output
  /// (Out(y, borrow)) of a call that a later call may have overwritten.
  /// Outside debug mode nothing is tracked and this always succeeds.
  Status checkFresh(const Array &array) const;
  /// Debug mode's records (for Function).
  BorrowTracker &borrowTracker() { return tracker_; }

private:
  /// load(), or with `alreadyLoaded` the code of deferred functions: then
  /// the functions loaded before (callees compiled with an earlier one) are
  /// kept, not refused.
  Status loadCode(std::shared_ptr<const Program> program, bool alreadyLoaded);
  Result<Function *> compileDeferred(const std::string &name);
  std::vector<std::string> functionNamesLocked() const;

  CountersPtr counters_;
  SharedStore store_;
  std::atomic<bool> debug_;
  BorrowTracker tracker_;
  std::vector<std::shared_ptr<const Program>> programs_;
  std::map<std::string, std::unique_ptr<Function>> functions_;
  /// Deferred functions not compiled yet, with the program that can.
  std::map<std::string, std::shared_ptr<const Program>> deferred_;
  /// The programs compiled for each deferred one, which unload() removes
  /// with it.
  std::map<const Program *, std::vector<std::shared_ptr<const Program>>>
      compiledFor_;
  /// Guards functions_ and deferred_ while a deferred function compiles
  /// (function() may be called from several threads).
  mutable std::mutex functionsMutex_;
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_RUNTIME_H
