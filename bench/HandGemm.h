//===- HandGemm.h - OpenBLAS plus a hand-fused epilogue -----------------===//
//
// What tcc-bench-epilogue compares with: what a careful C programmer writes
// for a dense layer. One cblas_sgemm (beta = 0, so no zero fill) with
// OpenBLAS's threads, then the whole epilogue in one pass, split over the
// same number of threads. OpenBLAS is the instance that tcc's kernels
// loaded (dlopen, after tcc's first product), so both use the same kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_BENCH_HANDGEMM_H
#define TCC_BENCH_HANDGEMM_H

#include <cstdint>

namespace bench {

/// y[m, n] = relu(x[m, k] @ w[k, n] + b[n]).
void denseRelu(const float *x, const float *w, const float *b, float *y,
               int64_t m, int64_t n, int64_t k, int threads);

/// denseRelu one panel of `rows` rows at a time (one cblas_sgemm per panel,
/// then its epilogue while it is in cache): what tcc-gemm-epilogue emits,
/// for choosing its panel size. One thread runs the epilogues.
void denseReluPanels(const float *x, const float *w, const float *b, float *y,
                     int64_t m, int64_t n, int64_t k, int64_t rows);

/// y = relu(x @ w1 + b1) @ w2 + b2 with a [m, h] scratch buffer `hidden`.
void mlp(const float *x, const float *w1, const float *b1, const float *w2,
         const float *b2, float *hidden, float *y, int64_t m, int64_t in,
         int64_t h, int64_t out, int threads);

/// The OpenBLAS kernel that runs (openblas_get_corename), or "unknown".
const char *blasCore();

/// Sets OpenBLAS's thread count (it is process-wide).
void setBlasThreads(int threads);

} // namespace bench

#endif // TCC_BENCH_HANDGEMM_H
