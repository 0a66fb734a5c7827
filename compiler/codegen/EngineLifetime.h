//===- EngineLifetime.h - JIT engines that outlive exit ---------*- C++ -*-===//

#ifndef TCC_COMPILER_CODEGEN_ENGINELIFETIME_H
#define TCC_COMPILER_CODEGEN_ENGINELIFETIME_H

#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <memory>

namespace tcc {

/// Owns a JIT engine for a Program's `code`. The engine is destroyed when
/// the last reference goes, unless the process has begun to exit or LLVM
/// has been shut down (llvm_shutdown): then it is kept, still reachable, until
/// the process ends. Destroying an engine runs ORC's deinitializers, which
/// compile and link code with LLVM's static state; at exit that state may
/// already be destroyed (hosts keep programs in statics, globals and
/// thread_locals, destroyed in any order relative to LLVM's), so there it
/// is not touched at all.
std::shared_ptr<void> holdEngine(std::unique_ptr<llvm::orc::LLJIT> engine);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_ENGINELIFETIME_H
