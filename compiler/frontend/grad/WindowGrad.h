//===- WindowGrad.h - conv and pool gradients by windows --------*- C++ -*-===//
//
// The gradients of convolutions and pooling through their windows
// (WindowGrad.cpp): every filter and pooling adjoint, and the input
// adjoints whose transposed convolution would need negative padding.
// Every tensor here is channels first.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_GRAD_WINDOWGRAD_H
#define TCC_COMPILER_FRONTEND_GRAD_WINDOWGRAD_H

#include "compiler/frontend/grad/GradRules.h"

namespace tcc::grad {

/// The adjoints of a convolution of `x` [N, C, spatial...] by `w` [O, C/G,
/// k...] given the output's adjoint `dy`: `dx` when `needX`, `dw` when
/// `needW`. Fails after reporting an error.
mlir::LogicalResult convGradByWindows(GradContext &c, TensorRef x, TensorRef w,
                                      TensorRef dy,
                                      llvm::ArrayRef<int64_t> strides,
                                      llvm::ArrayRef<int64_t> padding,
                                      llvm::ArrayRef<int64_t> dilations,
                                      int64_t groups, bool needX, bool needW,
                                      TensorRef &dx, TensorRef &dw);

/// The first `like.shape[axis]` elements of `t` along `axis` (a take of
/// their positions), sized like `like` there, symbol included.
TensorRef takeLeading(GradContext &c, TensorRef t, TensorRef like,
                      int64_t axis);

/// The adjoint of the input `x` [N, C, H, W] of a max (`isMax`, result `y`)
/// or average pooling given the result's adjoint `dy`; null after an error.
TensorRef poolGradByWindows(GradContext &c, bool isMax, TensorRef x,
                            TensorRef y, TensorRef dy,
                            llvm::ArrayRef<int64_t> kernel,
                            llvm::ArrayRef<int64_t> strides,
                            llvm::ArrayRef<int64_t> padding);

} // namespace tcc::grad

#endif // TCC_COMPILER_FRONTEND_GRAD_WINDOWGRAD_H
