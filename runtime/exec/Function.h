//===- Function.h - calling a compiled function --------------------------===//

#ifndef TCC_RUNTIME_EXEC_FUNCTION_H
#define TCC_RUNTIME_EXEC_FUNCTION_H

#include "runtime/core/Array.h"
#include "runtime/core/Counters.h"
#include "runtime/exec/Program.h"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace tcc {

class Runtime;

/// A compiled function bound to a runtime's shared variables. `call`
/// applies the memory contract of its manifest:
/// - inputs are read where they are; a non-contiguous input is made
///   contiguous (one copy), and a borrowed input that overlaps another
///   argument in memory is copied first, so results never depend on
///   aliasing;
/// - non-borrowed inputs are never written;
/// - outputs are fresh arrays, except borrowed ones, whose buffer is reused
///   from call to call (or is a borrowed input computed in place);
/// - shared variables are updated in place, all together, and only when
///   the call's arguments have been checked: a call that fails changes
///   nothing.
class Function {
public:
  Function(Runtime &runtime, std::shared_ptr<const Program> program,
           const FunctionSpec &spec, EntryPoint entry);

  const FunctionSpec &spec() const { return spec_; }
  const std::string &name() const { return spec_.name; }

  /// Calls with inputs in declaration order.
  Result<std::vector<Array>> call(const std::vector<Array> &inputs);
  /// Calls with inputs by name.
  Result<std::vector<Array>> call(const std::map<std::string, Array> &inputs);

  /// This function's own counters (they also feed the runtime's).
  MemoryCounters &counters() const { return *counters_; }

private:
  Runtime &runtime_;
  std::shared_ptr<const Program> program_;
  const FunctionSpec &spec_;
  EntryPoint entry_;
  CountersPtr counters_;
  /// Buffers of borrowed outputs, reused across calls.
  std::mutex outputMutex_;
  std::vector<std::shared_ptr<Buffer>> borrowedOutputs_;
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_FUNCTION_H
