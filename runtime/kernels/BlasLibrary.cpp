//===- BlasLibrary.cpp - OpenBLAS entry points, loaded on first use -------===//

#include "BlasLibrary.h"

#include <cstdio>
#include <dlfcn.h>
#include <pthread.h>

#ifndef TCC_BLAS_LIBRARY
#define TCC_BLAS_LIBRARY "libopenblas.so.0"
#endif

namespace tcc::kernels {

namespace {

BlasLibrary load() {
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
