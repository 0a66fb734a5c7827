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

/// iota and full (sizes from tc.size as tensor.dim), cumsum and cumprod.
void populateTcConstructorsToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// All five families.
void populateTcToLinalgPatterns(mlir::RewritePatternSet &patterns);

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_TCTOLINALG_H
