//===- MatmulToBlas.h - where the kernels library is -----------*- C++ -*-===//
//
// tcc-matmul-to-blas and tcc-conv-to-blas (Passes.td) make compiled code
// call the kernels library; these say where the JIT and the artifacts that
// link it find it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_MATMULTOBLAS_H
#define TCC_COMPILER_PIPELINES_MATMULTOBLAS_H

#include <string>

namespace tcc {

/// Where the kernels library that the JIT loads is: $TCC_KERNELS_LIBRARY,
/// else libtcc_kernels.so beside the runtime library (build/lib, or PREFIX/lib
/// when installed; runtime/core/RuntimeFiles.h).
std::string kernelsLibraryPath();

/// The kernels as an archive, which shared-object artifacts link in:
/// libtcc_kernels.a beside kernelsLibraryPath().
std::string kernelsArchivePath();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_MATMULTOBLAS_H
