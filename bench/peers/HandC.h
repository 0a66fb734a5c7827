//===- HandC.h - the hand-written C that tcc is measured against ----------===//
//
// What a careful C programmer writes for each workload of the peers table
// (bench/peers) and of tcc-bench-parallel: fused loops split over threads
// (SplitRange.h), and OpenBLAS for the matrix products with the epilogues
// fused into one pass over the product. Outputs are written into buffers
// the caller owns.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_BENCH_PEERS_HANDC_H
#define TCC_BENCH_PEERS_HANDC_H

#include <cstdint>
#include <string>

namespace bench {

/// y = tanh(a * x + b) * c + x over n floats, split over `threads` threads.
void chain(const float *x, const float *a, const float *b, const float *c,
           float *y, int64_t n, int threads);

/// The sum of x[i]^2 over n floats: a partial sum per thread.
float sumSquares(const float *x, int64_t n, int threads);

/// Row softmax of a rows x cols matrix, each row in cache for its three
/// passes (max; exp, stored, and sum; scale), rows split over threads.
void softmaxRows(const float *x, float *y, int64_t rows, int64_t cols,
                 int threads);

/// Layer norm of a rows x cols matrix, (x - mean) / sqrt(var + eps) * g + b
/// per row, each row in cache for its three passes (mean; variance;
/// result), rows split over threads.
void layerNormRows(const float *x, const float *g, const float *b, float *y,
                   int64_t rows, int64_t cols, float eps, int threads);

/// y = 2 * x over n floats.
void twice(const float *x, float *y, int64_t n, int threads);

/// c = a @ b, row-major a: m x k, b: k x n, through OpenBLAS's cblas_sgemm
/// (its own threads: setBlasThreads).
void sgemm(const float *a, const float *b, float *c, int64_t m, int64_t k,
           int64_t n);

/// y = relu(x @ w + b): sgemm, then bias and relu in one pass over y, rows
/// split over threads. x: m x k, w: k x n, b: n.
void denseRelu(const float *x, const float *w, const float *b, float *y,
               int64_t m, int64_t k, int64_t n, int threads);

/// The 2-layer perceptron p = softmax(relu(x @ w1 + b1) @ w2 + b2, axis=1),
/// every dimension d: denseRelu into h (d x d scratch), sgemm into p, then
/// bias and softmax per row while the row is in cache.
void mlp(const float *x, const float *w1, const float *b1, const float *w2,
         const float *b2, float *h, float *p, int64_t d, int threads);

/// y[0] = x[0] + 1, called through a pointer: the floor of a call.
extern void (*volatile addOne)(const float *x, float *y);

/// OpenBLAS's thread count (openblas_set_num_threads).
void setBlasThreads(int threads);

/// Which OpenBLAS kernel runs: openblas_get_corename() and
/// openblas_get_config().
std::string blasDescription();

} // namespace bench

#endif // TCC_BENCH_PEERS_HANDC_H
