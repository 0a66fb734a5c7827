//===- Registration.h - what the compiler registers ------------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_REGISTRATION_H
#define TCC_COMPILER_PIPELINES_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace tcc {

/// Every dialect, interface model (bufferization, LLVM translation) the
/// compiler's pipelines use.
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// Registers (once) the passes the textual pipelines name, ours included.
void registerCompilerPasses();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_REGISTRATION_H
