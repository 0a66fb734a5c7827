//===- HandC.cpp - the hand-written C that tcc is measured against --------===//
//
// Compiled with -O3 -ffast-math for this CPU (bench/CMakeLists.txt), so that
// expf vectorizes through glibc's libmvec: what a careful C programmer gets.
// tanh(v) = 1 - 2 / (exp(2v) + 1), which is what a vectorized tanh computes.
//
//===----------------------------------------------------------------------===//

#include "HandC.h"
#include "SplitRange.h"

#include <cblas.h>

#include <cmath>
#include <vector>

namespace {

/// out = softmax(in + bias) over one row of n (bias may be null): the row
/// stays in cache for its three passes.
void softmaxRow(const float *in, const float *bias, float *out, int64_t n) {
  float m = -INFINITY;
  for (int64_t j = 0; j < n; ++j) {
    out[j] = bias ? in[j] + bias[j] : in[j];
    m = std::max(m, out[j]);
  }
  float sum = 0;
  for (int64_t j = 0; j < n; ++j) {
    out[j] = expf(out[j] - m);
    sum += out[j];
  }
  float scale = 1.0f / sum;
  for (int64_t j = 0; j < n; ++j)
    out[j] *= scale;
}

/// y = relu(y + b) over rows [lo, hi) of an n-column matrix.
void biasRelu(float *y, const float *b, int64_t lo, int64_t hi, int64_t n) {
  for (int64_t r = lo; r < hi; ++r) {
    float *row = y + r * n;
    for (int64_t j = 0; j < n; ++j)
      row[j] = std::max(row[j] + b[j], 0.0f);
  }
}

__attribute__((noinline)) void addOneImpl(const float *x, float *y) {
  y[0] = x[0] + 1.0f;
}

} // namespace

void (*volatile bench::addOne)(const float *, float *) = addOneImpl;

void bench::chain(const float *x, const float *a, const float *b,
                  const float *c, float *y, int64_t n, int threads) {
  splitRange(n, threads, [=](int64_t lo, int64_t hi, int) {
    for (int64_t i = lo; i < hi; ++i) {
      float v = a[i] * x[i] + b[i];
      float t = 1.0f - 2.0f / (expf(2.0f * v) + 1.0f);
      y[i] = t * c[i] + x[i];
    }
  });
}

float bench::sumSquares(const float *x, int64_t n, int threads) {
  std::vector<float> partial(std::max(threads, 1));
  splitRange(n, threads, [&](int64_t lo, int64_t hi, int part) {
    float sum = 0;
    for (int64_t i = lo; i < hi; ++i)
      sum += x[i] * x[i];
    partial[part] = sum;
  });
  float total = 0;
  for (float p : partial)
    total += p;
  return total;
}

void bench::softmaxRows(const float *x, float *y, int64_t rows, int64_t cols,
                        int threads) {
  splitRange(rows, threads, [=](int64_t lo, int64_t hi, int) {
    for (int64_t r = lo; r < hi; ++r)
      softmaxRow(x + r * cols, nullptr, y + r * cols, cols);
  });
}

void bench::layerNormRows(const float *x, const float *g, const float *b,
                          float *y, int64_t rows, int64_t cols, float eps,
                          int threads) {
  splitRange(rows, threads, [=](int64_t lo, int64_t hi, int) {
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

void bench::twice(const float *x, float *y, int64_t n, int threads) {
  splitRange(n, threads, [=](int64_t lo, int64_t hi, int) {
    for (int64_t i = lo; i < hi; ++i)
      y[i] = 2.0f * x[i];
  });
}

void bench::sgemm(const float *a, const float *b, float *c, int64_t m,
                  int64_t k, int64_t n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k),
              1.0f, a, int(k), b, int(n), 0.0f, c, int(n));
}

void bench::denseRelu(const float *x, const float *w, const float *b, float *y,
                      int64_t m, int64_t k, int64_t n, int threads) {
  sgemm(x, w, y, m, k, n);
  splitRange(m, threads,
             [=](int64_t lo, int64_t hi, int) { biasRelu(y, b, lo, hi, n); });
}

void bench::mlp(const float *x, const float *w1, const float *b1,
                const float *w2, const float *b2, float *h, float *p, int64_t d,
                int threads) {
  denseRelu(x, w1, b1, h, d, d, d, threads);
  sgemm(h, w2, p, d, d, d);
  splitRange(d, threads, [=](int64_t lo, int64_t hi, int) {
    for (int64_t r = lo; r < hi; ++r)
      softmaxRow(p + r * d, b2, p + r * d, d);
  });
}

void bench::setBlasThreads(int threads) { openblas_set_num_threads(threads); }

std::string bench::blasDescription() {
  return std::string(openblas_get_corename()) + " (" + openblas_get_config() +
         ")";
}
