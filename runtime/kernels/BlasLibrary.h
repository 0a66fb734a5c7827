//===- BlasLibrary.h - OpenBLAS entry points, loaded on first use ---------===//
//
// libtcc_kernels does not link BLAS: loading OpenBLAS (and starting its
// threads) costs 7-20 ms, which every process that loads a compiled artifact
// would pay even when no matrix product runs. The entry points are looked up
// with dlopen/dlsym the first time a product needs them instead.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_KERNELS_BLASLIBRARY_H
#define TCC_RUNTIME_KERNELS_BLASLIBRARY_H

#include <cblas.h>

namespace tcc::kernels {

using SgemmFn = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint,
                         blasint, blasint, float, const float *, blasint,
                         const float *, blasint, float, float *, blasint);
using DgemmFn = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint,
                         blasint, blasint, double, const double *, blasint,
                         const double *, blasint, double, double *, blasint);

using SetThreadsFn = void (*)(int);
using GetThreadsFn = int (*)();

/// The CBLAS entry points, or null members when no BLAS library could be
/// loaded (callers then use plain loops; a warning is printed once). The
/// thread-count functions are OpenBLAS's, null for other libraries.
struct BlasLibrary {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  /// OpenBLAS's name for the kernels it chose ("SkylakeX", "Haswell"); null
  /// for another BLAS.
  const char *(*corename)() = nullptr;
  SetThreadsFn setThreads = nullptr;
  GetThreadsFn getThreads = nullptr;
};

/// The OpenBLAS kernels this CPU should run, as an OPENBLAS_CORETYPE value:
/// "SkylakeX" with AVX-512 (F, BW, DQ, VL, CD), "Haswell" with AVX2 and FMA,
/// null otherwise (OpenBLAS's own choice stands).
const char *openBlasCoreTypeForThisCpu();

/// Loads the library on the first call (thread-safe) and returns it.
const BlasLibrary &blasLibrary();

/// While one exists (and `hold` was true), OpenBLAS runs each product on
/// the calling thread: kernels that call BLAS from every thread of the pool
/// (Conv.cpp) would otherwise have each call start OpenBLAS's own threads,
/// and OpenBLAS serializes such threaded calls. Holders on several threads
/// nest; the last one out restores the count the first one found.
class BlasThreadsHeld {
public:
  explicit BlasThreadsHeld(bool hold);
  ~BlasThreadsHeld();
  BlasThreadsHeld(const BlasThreadsHeld &) = delete;
  BlasThreadsHeld &operator=(const BlasThreadsHeld &) = delete;

private:
  bool held;
};

} // namespace tcc::kernels

#endif // TCC_RUNTIME_KERNELS_BLASLIBRARY_H
