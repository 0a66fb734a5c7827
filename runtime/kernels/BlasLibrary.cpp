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

/// OpenBLAS picks its kernels when it is loaded, from the CPU's family and
/// model; a release older than the CPU falls back to its SSE3 ("Prescott")
/// kernels, 4-6x slower (Debian 12's 0.3.21 on Sapphire and Emerald Rapids).
/// Unless the user chose with OPENBLAS_CORETYPE, name the kernels the CPU's
/// features call for while the library loads, and restore the environment.
void *openWithCoreType(const char *name) {
  const char *coreType = openBlasCoreTypeForThisCpu();
  bool choose = coreType && !std::getenv("OPENBLAS_CORETYPE");
  if (choose)
    setenv("OPENBLAS_CORETYPE", coreType, 0);
  void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (choose)
    unsetenv("OPENBLAS_CORETYPE");
  return handle;
}

BlasLibrary load() {
  // The library found at configure time first, then the sonames a machine
  // without the -dev packages still has.
  const char *candidates[] = {TCC_BLAS_LIBRARY, "libopenblas.so.0",
                              "libcblas.so.3", "libblas.so.3"};
  BlasLibrary lib;
  for (const char *name : candidates) {
    void *handle = openWithCoreType(name);
    if (!handle)
      continue;
    auto sgemm = reinterpret_cast<SgemmFn>(dlsym(handle, "cblas_sgemm"));
    auto dgemm = reinterpret_cast<DgemmFn>(dlsym(handle, "cblas_dgemm"));
    if (sgemm && dgemm) {
      lib.sgemm = sgemm;
      lib.dgemm = dgemm;
      lib.corename = reinterpret_cast<const char *(*)()>(
          dlsym(handle, "openblas_get_corename"));
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

// libgcc's cpu model counts a feature only where the OS saves its
// registers (XCR0), as the kernels need.
const char *openBlasCoreTypeForThisCpu() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd"))
    return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return "Haswell";
  return nullptr;
}

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

extern "C" {

/// The kernels OpenBLAS chose ("SkylakeX", "Haswell", "Prescott"...), or
/// "none" without a BLAS library, "unknown" when it does not say. Loads the
/// library. For benchmarks and tests: what ran.
const char *tcc_blas_core_name() {
  const tcc::kernels::BlasLibrary &lib = tcc::kernels::blasLibrary();
  if (!lib.sgemm)
    return "none";
  const char *name = lib.corename ? lib.corename() : nullptr;
  return name ? name : "unknown";
}

} // extern "C"
