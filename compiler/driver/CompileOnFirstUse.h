//===- CompileOnFirstUse.h - compile functions when asked -*- C++ -*-===//
//
// A file of eight functions whose host calls one should cost one compile.
// The Program made here declares the module's shared variables and defers
// every function; the runtime compiles one, with its callees, the first time
// Runtime::function asks for it (CompilerOptions::compileOnFirstUse).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_DRIVER_COMPILEONFIRSTUSE_H
#define TCC_COMPILER_DRIVER_COMPILEONFIRSTUSE_H

#include "runtime/exec/Program.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <memory>

namespace tcc {

struct CompilerOptions;

/// A Program that compiles each function of the verified tc module `module`
/// on first use, through a Compiler with `options` (its compile cache
/// included: each function is stored as it is compiled). `source` names the
/// input in cache entries and errors. The module is kept as text, so the
/// caller's context may go.
mlir::FailureOr<std::shared_ptr<Program>>
deferFunctions(mlir::ModuleOp module, const CompilerOptions &options,
               llvm::StringRef source);

} // namespace tcc

#endif // TCC_COMPILER_DRIVER_COMPILEONFIRSTUSE_H
