//===- TcToLinalg.h - tc to linalg/tensor/arith/math patterns --*- C++ -*-===//
//
// One pattern set per op family, so that a pipeline can lower a family at a
// time or mix them with its own patterns. The patterns are conversion
// patterns on tensors: they need no type converter.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_TCTOLINALG_H
#define TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_TCTOLINALG_H

#include "mlir/IR/PatternMatch.h"

namespace tcc::tc {

/// Unary and binary arithmetic, cmp, select, cast: one `linalg.generic` each
/// with broadcasting indexing maps; constant: `arith.constant`.
void populateTcElementwiseToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// sum, mean, max, min, prod, argmax: `linalg.fill` of the identity and a
/// `linalg.generic` with reduction iterators.
void populateTcReductionToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// matmul (`linalg.matmul`, `linalg.batch_matmul` or a broadcasting
/// `linalg.generic`), softmax and log_softmax.
void populateTcContractionToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// transpose, broadcast_to, slice, concat, reshape.
void populateTcDataMovementToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// slice: one `tensor.extract_slice`, its offsets and sizes computed from
/// the run-time sizes of dynamic dimensions (part of the data movement
/// family).
void populateTcSliceToTensorPatterns(mlir::RewritePatternSet &patterns);

/// take and its relatives: gathers as `linalg.generic` + `tensor.extract`
/// with wrapped, clamped ids (IndexingToLinalg.cpp).
void populateTcIndexingToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// iota and full (sizes from tc.size as tensor.dim), cumsum and cumprod.
void populateTcConstructorsToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// conv1d, conv2d (linalg convolution named ops, or a generic for grouped
/// channels-last), max_pool2d, avg_pool2d (linalg pooling named ops).
void populateTcConvToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// random: one linalg.generic computing Philox-4x32-10 per element.
void populateTcRandomToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// The host's loops (convert-tc-to-host-loops): cumsum and cumprod as a
/// sequential scf.for along the axis (ScansToLoops.cpp).
void populateTcScansToLoopsPatterns(mlir::RewritePatternSet &patterns);

/// The host's loops: take along an axis that has dimensions after it as one
/// contiguous row copy per id (TakeToRows.cpp).
void populateTcTakeToRowsPatterns(mlir::RewritePatternSet &patterns);

/// tc.scan as an scf.for on tensors (ControlFlowToScf.cpp).
void populateTcControlFlowToScfPatterns(mlir::RewritePatternSet &patterns);

/// All the families.
void populateTcToLinalgPatterns(mlir::RewritePatternSet &patterns);

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_TCTOLINALG_H
