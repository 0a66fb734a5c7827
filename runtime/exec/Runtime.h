//===- Runtime.h - the managed memory space and its loaded programs ------===//

#ifndef TCC_RUNTIME_EXEC_RUNTIME_H
#define TCC_RUNTIME_EXEC_RUNTIME_H

#include "runtime/core/SharedStore.h"
#include "runtime/exec/Function.h"
#include "runtime/exec/Program.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tcc {

/// Owns the shared-variable store (the managed memory space), the counters,
/// and the programs loaded into it. Thread-safe for calls; loading is not
/// concurrent with calls.
class Runtime {
public:
  Runtime();
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  SharedStore &shared() { return store_; }
  MemoryCounters &counters() { return *counters_; }
  const CountersPtr &countersPtr() const { return counters_; }

  /// Makes a program's functions callable. Its shared variables are created
  /// from their initializers, unless a variable of that name exists already
  /// (then its dtype and shape must match). Nothing changes on error.
  Status load(std::shared_ptr<const Program> program);

  /// A loaded function by name.
  Result<Function *> function(const std::string &name) const;
  /// The loaded functions' names, sorted.
  std::vector<std::string> functionNames() const;

private:
  CountersPtr counters_;
  SharedStore store_;
  std::vector<std::shared_ptr<const Program>> programs_;
  std::map<std::string, std::unique_ptr<Function>> functions_;
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_RUNTIME_H
