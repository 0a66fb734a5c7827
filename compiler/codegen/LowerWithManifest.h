//===- LowerWithManifest.h - tc to the LLVM dialect, with its manifest ---===//

#ifndef TCC_COMPILER_CODEGEN_LOWERWITHMANIFEST_H
#define TCC_COMPILER_CODEGEN_LOWERWITHMANIFEST_H

#include "compiler/pipelines/CpuTarget.h"
#include "compiler/pipelines/Pipelines.h"
#include "runtime/exec/Manifest.h"

#include "mlir/IR/BuiltinOps.h"

namespace tcc {

/// What lowerWithManifest gives back: the CPU the code is for, and the
/// module's memory contract stamped with its target, CPU and features.
struct LoweredModule {
  CpuTarget cpu;
  Manifest manifest;
};

/// Lowers a tc module (in place) to the LLVM dialect for `options`: resolves
/// the CPU, lowers to the Bufferized stage, reads the manifest off the
/// bufferized IR and stamps it (target cuda for nvptx, the CPU's name and
/// features), lowers to the Loops stage and adds each function's arena
/// plan (tcc-plan-arena), then lowers on to LlvmMlir. The one path that the JIT
/// (compileForHost) and the ahead-of-time artifacts (writeArtifact) share;
/// failure after reporting at the module's location.
mlir::FailureOr<LoweredModule>
lowerWithManifest(mlir::ModuleOp module, const PipelineOptions &options);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_LOWERWITHMANIFEST_H
