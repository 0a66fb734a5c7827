//===- ParallelLoops.h - tcc-parallel-loops's grain ------------*- C++ -*-===//
//
// The pass itself is declared in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_PARALLELLOOPS_H
#define TCC_COMPILER_PIPELINES_PARALLELLOOPS_H

#include <cstdint>

namespace tcc {

/// Innermost iterations below which a loop nest stays on one thread (the
/// default of tcc-parallel-loops's grain): waking the pool costs a few
/// microseconds, about what 64K simple iterations take.
constexpr int64_t kParallelGrain = 1 << 16;

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_PARALLELLOOPS_H
