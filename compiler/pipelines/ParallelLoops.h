//===- ParallelLoops.h - outer loops across the thread pool ----*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_PARALLELLOOPS_H
#define TCC_COMPILER_PIPELINES_PARALLELLOOPS_H

#include "mlir/Pass/Pass.h"

#include <cstdint>

namespace tcc {

/// Innermost iterations below which a loop nest stays on one thread: waking
/// the pool costs a few microseconds, about what 64K simple iterations take.
constexpr int64_t kParallelGrain = 1 << 16;

/// Splits the outermost dimension of every top-level `scf.parallel` (which
/// `convert-linalg-to-parallel-loops` makes of each linalg op's parallel
/// dimensions) across the kernels' thread pool: the loop body is outlined
/// into `NAME_parallelK(context, lo, hi)`, its captured values are packed
/// into a context on the stack, and `tcc_parallel_for` runs the chunks
/// (runtime/kernels/ParallelFor.cpp). A nest of fewer than `grain`
/// innermost iterations (known statically, else tested at run time) runs
/// the original loop on the calling thread. Runs before lowering to LLVM.
std::unique_ptr<mlir::Pass> createParallelLoopsPass(int64_t grain);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_PARALLELLOOPS_H
