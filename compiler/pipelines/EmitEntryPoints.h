//===- EmitEntryPoints.h - one C entry point per function ------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_EMITENTRYPOINTS_H
#define TCC_COMPILER_PIPELINES_EMITENTRYPOINTS_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Adds `void tcc_entry_NAME(void **args)` next to every
/// `_mlir_ciface_NAME` in an LLVM-dialect module: `args[i]` points to the
/// memref descriptor of argument i. The runtime calls every compiled
/// function through this one signature, JIT or shared object alike.
std::unique_ptr<mlir::Pass> createEmitEntryPointsPass();

/// Gives every public function of a bufferized module the C interface
/// (`llvm.emit_c_interface`) and marks its buffers `llvm.noalias`: the
/// runtime never passes two arguments that overlap when either is written
/// (it copies one first), and knowing so lets LLVM vectorize.
std::unique_ptr<mlir::Pass> createMarkEntryPointsPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_EMITENTRYPOINTS_H
