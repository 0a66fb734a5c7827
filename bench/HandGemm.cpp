//===- HandGemm.cpp - OpenBLAS plus a hand-fused epilogue ---------------===//
//
// Compiled with -O3 for this CPU (bench/CMakeLists.txt), so the epilogue
// loops vectorize as well as a careful C programmer's would.
//
//===----------------------------------------------------------------------===//

#include "HandGemm.h"

#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

/// OpenBLAS as the kernels library loaded it (same instance, same kernels):
/// opened on first use, after tcc's first product.
struct OpenBlas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  void (*setThreads)(int) = nullptr;
  char *(*coreName)() = nullptr;
};

const OpenBlas &openBlas() {
  static OpenBlas lib = [] {
    OpenBlas l;
    void *handle = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      std::fprintf(stderr, "tcc-bench-epilogue: no libopenblas.so.0\n");
      std::exit(1);
    }
    l.sgemm =
        reinterpret_cast<decltype(&cblas_sgemm)>(dlsym(handle, "cblas_sgemm"));
    l.setThreads = reinterpret_cast<void (*)(int)>(
        dlsym(handle, "openblas_set_num_threads"));
    l.coreName =
        reinterpret_cast<char *(*)()>(dlsym(handle, "openblas_get_corename"));
    if (!l.sgemm || !l.setThreads || !l.coreName) {
      std::fprintf(stderr, "tcc-bench-epilogue: libopenblas.so.0 lacks "
                           "cblas_sgemm or its thread calls\n");
      std::exit(1);
    }
    return l;
  }();
  return lib;
}

/// Runs body(lo, hi) over rows [0, n) split into `threads` parts.
template <class Body> void split(int64_t n, int threads, Body body) {
  if (threads <= 1) {
    body(int64_t(0), n);
    return;
  }
  std::vector<std::thread> workers;
  int64_t part = (n + threads - 1) / threads;
  for (int t = 1; t < threads; ++t) {
    int64_t lo = std::min(n, t * part), hi = std::min(n, lo + part);
    workers.emplace_back([=] { body(lo, hi); });
  }
  body(0, std::min(n, part));
  for (std::thread &w : workers)
    w.join();
}

/// y = x @ w (beta = 0: no fill), then y = f(y + b) in one pass.
template <bool Relu>
void dense(const float *x, const float *w, const float *b, float *y, int64_t m,
           int64_t n, int64_t k, int threads) {
  openBlas().sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, x,
                   k, w, n, 0.0f, y, n);
  split(m, threads, [=](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      float *row = y + i * n;
      for (int64_t j = 0; j < n; ++j) {
        float v = row[j] + b[j];
        row[j] = Relu ? (v > 0.0f ? v : 0.0f) : v;
      }
    }
  });
}

} // namespace

void bench::denseRelu(const float *x, const float *w, const float *b, float *y,
                      int64_t m, int64_t n, int64_t k, int threads) {
  dense<true>(x, w, b, y, m, n, k, threads);
}

void bench::denseReluPanels(const float *x, const float *w, const float *b,
                            float *y, int64_t m, int64_t n, int64_t k,
                            int64_t rows) {
  for (int64_t i = 0; i < m; i += rows)
    dense<true>(x + i * k, w, b, y + i * n, std::min(rows, m - i), n, k, 1);
}

void bench::mlp(const float *x, const float *w1, const float *b1,
                const float *w2, const float *b2, float *hidden, float *y,
                int64_t m, int64_t in, int64_t h, int64_t out, int threads) {
  dense<true>(x, w1, b1, hidden, m, h, in, threads);
  dense<false>(hidden, w2, b2, y, m, out, h, threads);
}

const char *bench::blasCore() {
  const char *core = openBlas().coreName();
  return core ? core : "unknown";
}

void bench::setBlasThreads(int threads) { openBlas().setThreads(threads); }
