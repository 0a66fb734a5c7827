//===- HandC.cpp - the hand-written C that tcc-bench-parallel compares with
//===//
//
// Compiled with -O3 -ffast-math for this CPU (bench/CMakeLists.txt), so that
// expf vectorizes through glibc's libmvec: what a careful C programmer gets.
// tanh(v) = 1 - 2 / (exp(2v) + 1), which is what a vectorized tanh computes.
//
//===----------------------------------------------------------------------===//

#include "HandC.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace {

/// Runs body(lo, hi) over [0, n) split into `threads` parts, one per thread.
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

} // namespace

void bench::chain(const float *x, const float *a, const float *b,
                  const float *c, float *y, int64_t n, int threads) {
  split(n, threads, [=](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      float v = a[i] * x[i] + b[i];
      float t = 1.0f - 2.0f / (expf(2.0f * v) + 1.0f);
      y[i] = t * c[i] + x[i];
    }
  });
}

void bench::softmaxRows(const float *x, float *y, int64_t rows, int64_t cols,
                        int threads) {
  split(rows, threads, [=](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const float *in = x + r * cols;
      float *out = y + r * cols;
      float m = -INFINITY;
      for (int64_t j = 0; j < cols; ++j)
        m = std::max(m, in[j]);
      float sum = 0;
      for (int64_t j = 0; j < cols; ++j) {
        out[j] = expf(in[j] - m);
        sum += out[j];
      }
      float scale = 1.0f / sum;
      for (int64_t j = 0; j < cols; ++j)
        out[j] *= scale;
    }
  });
}

void bench::layerNormRows(const float *x, const float *g, const float *b,
                          float *y, int64_t rows, int64_t cols, float eps,
                          int threads) {
  split(rows, threads, [=](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const float *in = x + r * cols;
      float *out = y + r * cols;
      float sum = 0;
      for (int64_t j = 0; j < cols; ++j)
        sum += in[j];
      float mean = sum / cols;
      float squares = 0;
      for (int64_t j = 0; j < cols; ++j)
        squares += (in[j] - mean) * (in[j] - mean);
      float scale = 1.0f / std::sqrt(squares / cols + eps);
      for (int64_t j = 0; j < cols; ++j)
        out[j] = (in[j] - mean) * scale * g[j] + b[j];
    }
  });
}
