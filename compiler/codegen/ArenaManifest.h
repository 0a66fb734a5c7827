//===- ArenaManifest.h - the arena plans, in the manifest -----*- C++ -*-===//

#ifndef TCC_COMPILER_CODEGEN_ARENAMANIFEST_H
#define TCC_COMPILER_CODEGEN_ARENAMANIFEST_H

#include "runtime/exec/Manifest.h"

#include "mlir/IR/BuiltinOps.h"

namespace tcc {

/// Copies the arena plan that tcc-plan-arena left on each public function
/// of `module` (at the Loops stage) into that function's manifest entry, so
/// that the runtime can report it and check a call against it.
void recordArenaPlans(mlir::ModuleOp module, Manifest &manifest);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_ARENAMANIFEST_H
