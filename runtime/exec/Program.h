//===- Program.h - a loaded artifact: manifest plus callable code --------===//

#ifndef TCC_RUNTIME_EXEC_PROGRAM_H
#define TCC_RUNTIME_EXEC_PROGRAM_H

#include "runtime/exec/Manifest.h"

#include <map>
#include <memory>
#include <string>

namespace tcc {

/// The one signature of every compiled entry point: `args[i]` points to
/// the memref descriptor of argument i (see MemrefDescriptor.h).
using EntryPoint = void (*)(void **args);

/// Code the runtime can call, whoever produced it (the JIT in this process
/// or a shared object on disk), with the manifest that describes it.
struct Program {
  Manifest manifest;
  std::map<std::string, EntryPoint> entries;
  /// Keeps the code alive (a JIT engine, a dlopen handle).
  std::shared_ptr<void> code;
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_PROGRAM_H
