//===- BlasLibrary.cpp - OpenBLAS entry points, loaded on first use -------===//

#include "BlasLibrary.h"

#include <cpuid.h>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <pthread.h>

#ifndef TCC_BLAS_LIBRARY
#define TCC_BLAS_LIBRARY "libopenblas.so.0"
#endif

namespace tcc::kernels {

namespace {

/// The OpenBLAS core type whose kernels this CPU runs: "SkylakeX" with
/// AVX-512 (F, CD, BW, DQ, VL) that the OS saves, "Haswell" with AVX2 and
/// FMA, else null (OpenBLAS's own choice).
const char *coreTypeFromCpuid() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d))
    return nullptr;
  bool osxsave = c & bit_OSXSAVE, fma = c & bit_FMA;
  if (!osxsave || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
    return nullptr;
  unsigned lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  bool ymm = (lo & 0x6) == 0x6, zmm = (lo & 0xe6) == 0xe6;
  unsigned avx512 =
      bit_AVX512F | bit_AVX512CD | bit_AVX512BW | bit_AVX512DQ | bit_AVX512VL;
  if (zmm && (b & avx512) == avx512)
    return "SkylakeX";
  if (ymm && fma && (b & bit_AVX2))
    return "Haswell";
  return nullptr;
}

BlasLibrary load() {
  // OpenBLAS 0.3.21 (Debian 12) picks its kernels from the CPU's model
  // number and falls back to "Prescott" (SSE3, a quarter of the speed) on
  // models it does not know, such as Emerald Rapids or a hypervisor's
  // generic Xeon. Name the core type from the CPU's features instead,
  // unless the user did (OPENBLAS_CORETYPE is read when the library loads).
  if (!std::getenv("OPENBLAS_CORETYPE"))
    if (const char *core = coreTypeFromCpuid())
      setenv("OPENBLAS_CORETYPE", core, 0);
  // The library found at configure time first, then the sonames a machine
  // without the -dev packages still has.
  const char *candidates[] = {TCC_BLAS_LIBRARY, "libopenblas.so.0",
                              "libcblas.so.3", "libblas.so.3"};
  BlasLibrary lib;
  for (const char *name : candidates) {
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      continue;
    auto sgemm = reinterpret_cast<SgemmFn>(dlsym(handle, "cblas_sgemm"));
    auto dgemm = reinterpret_cast<DgemmFn>(dlsym(handle, "cblas_dgemm"));
    if (sgemm && dgemm) {
      lib.sgemm = sgemm;
      lib.dgemm = dgemm;
      lib.setThreads = reinterpret_cast<SetThreadsFn>(
          dlsym(handle, "openblas_set_num_threads"));
      lib.getThreads = reinterpret_cast<GetThreadsFn>(
          dlsym(handle, "openblas_get_num_threads"));
      if (!lib.setThreads || !lib.getThreads)
        lib.setThreads = nullptr, lib.getThreads = nullptr;
      return lib;
    }
    dlclose(handle);
  }
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

namespace {
pthread_mutex_t holdMutex = PTHREAD_MUTEX_INITIALIZER;
int holders = 0;
int threadsBefore = 0;
} // namespace

BlasThreadsHeld::BlasThreadsHeld(bool hold) : held(false) {
  const BlasLibrary &lib = blasLibrary();
  if (!hold || !lib.setThreads)
    return;
  held = true;
  pthread_mutex_lock(&holdMutex);
  if (holders++ == 0) {
    threadsBefore = lib.getThreads();
    lib.setThreads(1);
  }
  pthread_mutex_unlock(&holdMutex);
}

BlasThreadsHeld::~BlasThreadsHeld() {
  if (!held)
    return;
  pthread_mutex_lock(&holdMutex);
  if (--holders == 0)
    blasLibrary().setThreads(threadsBefore);
  pthread_mutex_unlock(&holdMutex);
}

} // namespace tcc::kernels
