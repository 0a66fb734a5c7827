//===- MatmulToBlas.h - route matrix products to OpenBLAS ------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_MATMULTOBLAS_H
#define TCC_COMPILER_PIPELINES_MATMULTOBLAS_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Replaces `linalg.matmul` and `linalg.batch_matmul` on contiguous f32/f64
/// buffers by calls to the runtime's kernels (`tcc_matmul_f32`, ...; see
/// runtime/kernels/Blas.cpp), which compute C += A * B with OpenBLAS.
/// Anything else stays for the generated loops.
std::unique_ptr<mlir::Pass> createMatmulToBlasPass();

/// Where the kernels library that the JIT loads is: $TCC_KERNELS_LIBRARY,
/// else libtcc_kernels.so beside the runtime library (build/lib, or PREFIX/lib
/// when installed; runtime/core/RuntimeFiles.h).
std::string kernelsLibraryPath();

/// The kernels as an archive, which shared-object artifacts link in:
/// libtcc_kernels.a beside kernelsLibraryPath().
std::string kernelsArchivePath();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_MATMULTOBLAS_H
