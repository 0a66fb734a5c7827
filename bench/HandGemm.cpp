//===- HandGemm.cpp - OpenBLAS plus a hand-fused epilogue ---------------===//
//
// Compiled with -O3 for this CPU (bench/CMakeLists.txt), so the epilogue
// loops vectorize as well as a careful C programmer's would.
//
//===----------------------------------------------------------------------===//

#include "HandGemm.h"

#include <cblas.h>

#include <algorithm>
#include <thread>
#include <vector>

extern "C" {
char *openblas_get_corename(void);
void openblas_set_num_threads(int);
}

namespace {

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
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, x, k, w,
              n, 0.0f, y, n);
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

void bench::mlp(const float *x, const float *w1, const float *b1,
                const float *w2, const float *b2, float *hidden, float *y,
                int64_t m, int64_t in, int64_t h, int64_t out, int threads) {
  dense<true>(x, w1, b1, hidden, m, h, in, threads);
  dense<false>(hidden, w2, b2, y, m, out, h, threads);
}

const char *bench::blasCore() {
  const char *core = openblas_get_corename();
  return core ? core : "unknown";
}

void bench::setBlasThreads(int threads) { openblas_set_num_threads(threads); }
