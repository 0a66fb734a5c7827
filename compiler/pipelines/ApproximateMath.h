//===- ApproximateMath.h - vectorizable math functions ---------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_APPROXIMATEMATH_H
#define TCC_COMPILER_PIPELINES_APPROXIMATEMATH_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Rewrites f32 math functions (exp, log, tanh, erf, ...) into MLIR's
/// polynomial approximations: plain arithmetic that the loop vectorizer
/// turns into SIMD code, where a libm call would keep every element scalar.
/// f64 keeps libm's correctly rounded functions; its log1p and expm1 become
/// libm calls here, since convert-math-to-llvm would expand them inexactly.
/// sin and cos keep libm's (sinf, cosf) for f32 too: the approximation's
/// argument reduction is inexact for large arguments.
std::unique_ptr<mlir::Pass> createApproximateMathPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_APPROXIMATEMATH_H
