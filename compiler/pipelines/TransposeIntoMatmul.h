//===- TransposeIntoMatmul.h - matmul reads a transpose in place -*- C++
//-*-===//

#ifndef TCC_COMPILER_PIPELINES_TRANSPOSEINTOMATMUL_H
#define TCC_COMPILER_PIPELINES_TRANSPOSEINTOMATMUL_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Rewrites `linalg.matmul(transpose(A), B)` as `linalg.matmul_transpose_a(A,
/// B)` and `linalg.matmul(A, transpose(B))` as `linalg.matmul_transpose_b(A,
/// B)` (and the batch forms), on tensors, so that the transpose is never
/// materialized: tcc-matmul-to-blas hands the operand to BLAS with a
/// transpose flag, and the loops read it with swapped indices.
std::unique_ptr<mlir::Pass> createTransposeIntoMatmulPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_TRANSPOSEINTOMATMUL_H
