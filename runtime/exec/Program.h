//===- Program.h - a loaded artifact: manifest plus callable code --------===//

#ifndef TCC_RUNTIME_EXEC_PROGRAM_H
#define TCC_RUNTIME_EXEC_PROGRAM_H

#include "runtime/core/Status.h"
#include "runtime/exec/Manifest.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tcc {

/// The one signature of every compiled entry point: `args[i]` points to
/// the memref descriptor of argument i (see MemrefDescriptor.h).
using EntryPoint = void (*)(void **args);

struct Program;

/// Compiles one function of a program, with the functions it calls, into a
/// Program of its own. The runtime calls it from Runtime::function; the
/// compiler supplies it (CompilerOptions::compileOnFirstUse), so that the
/// runtime itself never links the compiler.
using CompileFunction =
    std::function<Result<std::shared_ptr<const Program>>(const std::string &)>;

/// Code the runtime can call, whoever produced it (the JIT in this process
/// or a shared object on disk), with the manifest that describes it.
struct Program {
  Manifest manifest;
  std::map<std::string, EntryPoint> entries;
  /// Keeps the code alive (a JIT engine, a dlopen handle).
  std::shared_ptr<void> code;
  /// Functions that are declared but not compiled yet: the manifest lists
  /// only the shared variables, and the runtime compiles each of these with
  /// `compileFunction` the first time it is asked for it. A file whose
  /// host calls one function of eight then compiles one.
  std::vector<std::string> deferred;
  CompileFunction compileFunction;
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_PROGRAM_H
