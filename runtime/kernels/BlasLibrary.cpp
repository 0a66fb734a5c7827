//===- BlasLibrary.cpp - OpenBLAS entry points, loaded on first use -------===//

#include "BlasLibrary.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <pthread.h>

#ifndef TCC_BLAS_LIBRARY
#define TCC_BLAS_LIBRARY "libopenblas.so.0"
#endif

namespace tcc::kernels {

namespace {

/// OpenBLAS (0.3.21, Debian 12) picks its kernels by CPU model and falls
/// back to its SSE3 "Prescott" kernels on a model it does not know: on an
/// Emerald Rapids Xeon (family 6, model 207) sgemm runs 4.6x slower than
/// with its AVX-512 "SkylakeX" kernels. Where the CPU and the OS support
/// what those kernels use, ask for them while OpenBLAS initializes (it reads
/// OPENBLAS_CORETYPE when it is loaded), unless the user chose a core
/// already. For every AVX-512 core OpenBLAS 0.3.21 knows, sgemm and dgemm
/// are the SkylakeX kernels anyway. Returns whether it set the variable.
bool preferAvx512Kernels() {
  if (std::getenv("OPENBLAS_CORETYPE"))
    return false;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") ||
      !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512dq") ||
      !__builtin_cpu_supports("avx512vl") ||
      !__builtin_cpu_supports("avx512cd"))
    return false;
  return setenv("OPENBLAS_CORETYPE", "SkylakeX", 0) == 0;
}

BlasLibrary load() {
  // The library found at configure time first, then the sonames a machine
  // without the -dev packages still has.
  const char *candidates[] = {TCC_BLAS_LIBRARY, "libopenblas.so.0",
                              "libcblas.so.3", "libblas.so.3"};
  BlasLibrary lib;
  bool chose = preferAvx512Kernels();
  for (const char *name : candidates) {
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      continue;
    auto sgemm = reinterpret_cast<SgemmFn>(dlsym(handle, "cblas_sgemm"));
    auto dgemm = reinterpret_cast<DgemmFn>(dlsym(handle, "cblas_dgemm"));
    if (sgemm && dgemm) {
      lib.sgemm = sgemm;
      lib.dgemm = dgemm;
      lib.coreName =
          reinterpret_cast<CoreNameFn>(dlsym(handle, "openblas_get_corename"));
      if (chose) // the host's environment is as it was
        unsetenv("OPENBLAS_CORETYPE");
      return lib;
    }
    dlclose(handle);
  }
  if (chose)
    unsetenv("OPENBLAS_CORETYPE");
  std::fprintf(stderr,
               "tcc: warning: no BLAS library with cblas_sgemm/cblas_dgemm "
               "found (tried %s, libopenblas.so.0, libcblas.so.3, "
               "libblas.so.3); matrix products use plain loops\n",
               TCC_BLAS_LIBRARY);
  return lib;
}

} // namespace

namespace {
BlasLibrary library;
pthread_once_t loaded = PTHREAD_ONCE_INIT;
} // namespace

// pthread_once, not a function-local static: artifacts link the kernels in
// with the C driver, and a static's guard would need libstdc++.
const BlasLibrary &blasLibrary() {
  pthread_once(&loaded, [] { library = load(); });
  return library;
}

} // namespace tcc::kernels

extern "C" {

/// The kernels OpenBLAS chose ("SkylakeX", "Haswell", "Prescott"...), or
/// "none" without a BLAS library, "unknown" when it does not say. Loads the
/// library. For benchmarks and tests: what ran.
const char *tcc_blas_core_name() {
  const tcc::kernels::BlasLibrary &lib = tcc::kernels::blasLibrary();
  if (!lib.sgemm)
    return "none";
  const char *name = lib.coreName ? lib.coreName() : nullptr;
  return name ? name : "unknown";
}

} // extern "C"
