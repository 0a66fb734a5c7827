//===- Passes.h - the GPU conversion's passes ------------------*- C++ -*-===//
//
// Declared in Passes.td; this header holds what tablegen generates from it:
// create...Pass() and registerTccGpuPasses().
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_GPU_PASSES_H
#define TCC_COMPILER_PIPELINES_GPU_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "compiler/pipelines/gpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/pipelines/gpu/Passes.h.inc"

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_GPU_PASSES_H
