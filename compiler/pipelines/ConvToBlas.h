//===- ConvToBlas.h - route convolutions to the GEMM kernels ---*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_CONVTOBLAS_H
#define TCC_COMPILER_PIPELINES_CONVTOBLAS_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Replaces `linalg.conv_2d_ngchw_gfchw` and `linalg.conv_2d_nhwc_hwcf` on
/// row-major f32/f64 buffers by calls to the runtime's convolution kernels
/// (`tcc_conv2d_ngchw_f32`, ...; runtime/kernels/Conv.cpp), which compute
/// out += conv(in, filter) as im2col and GEMMs over tiles of output rows on
/// the thread pool. A zero-padded copy of the input that only the
/// convolution reads is dropped: the kernel pads as it reads.
/// Anything else stays for the generated loops.
std::unique_ptr<mlir::Pass> createConvToBlasPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_CONVTOBLAS_H
