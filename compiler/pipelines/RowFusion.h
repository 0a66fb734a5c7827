//===- RowFusion.h - reductions and their consumers, row tile by row tile -===//

#ifndef TCC_COMPILER_PIPELINES_ROWFUSION_H
#define TCC_COMPILER_PIPELINES_ROWFUSION_H

#include "mlir/Pass/Pass.h"

#include <cstdint>

namespace tcc {

/// Elements of a root op's row tile: about 16 KiB of f32 per tensor, so
/// that a tile of each operand stays in L1/L2 across the passes over it.
constexpr int64_t kRowTileElements = 4096;

/// On linalg-on-tensors (before bufferization), for the host:
///
/// 0. keepdims: an op that reads a reduction through `tensor.expand_shape`
///    (`x - mean(x, axis=1, keepdims=true)`) reads the reduction itself;
/// 1. exp once: `s = sum(exp(E))` followed by `y = exp(E) / s` (softmax),
///    where rows can be tiled, becomes `e = exp(E)` in y's buffer,
///    `s = sum(e)` and `y = e * (1 / s)` in place, as hand-written C does;
/// 2. row fusion: an elementwise `linalg.generic` (the root) that reads a
///    reduction over its inner dimensions (softmax, log_softmax,
///    LayerNorm-like chains) becomes an `scf.forall` over tiles of its
///    outermost dimension, which computes in each tile the slices of every
///    linalg op that feeds the root and that nothing else reads, so that
///    a tile of rows stays in cache for all of them. The forall becomes the
///    `scf.parallel` that tcc-parallel-loops splits across threads.
std::unique_ptr<mlir::Pass> createRowFusionPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_ROWFUSION_H
