//===- Passes.h - the compiler's own passes for the host -------*- C++ -*-===//
//
// Declared in Passes.td (summary, description, options); this header holds
// what tablegen generates from it: create...Pass() and the options structs,
// and registerTccPipelinesPasses(). The GPU conversion's are in
// gpu/Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_PASSES_H
#define TCC_COMPILER_PIPELINES_PASSES_H

#include "compiler/pipelines/GemmEpilogue.h"
#include "compiler/pipelines/ParallelLoops.h"
#include "compiler/pipelines/RowFusion.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "compiler/pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/pipelines/Passes.h.inc"

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_PASSES_H
