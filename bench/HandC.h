//===- HandC.h - the hand-written C that tcc-bench-parallel compares with -===//

#ifndef TCC_BENCH_HANDC_H
#define TCC_BENCH_HANDC_H

#include <cstdint>

namespace bench {

/// y = tanh(a * x + b) * c + x over n floats, split over `threads` threads.
void chain(const float *x, const float *a, const float *b, const float *c,
           float *y, int64_t n, int threads);

/// Row softmax of a rows x cols matrix, each row in cache for its three
/// passes (max; exp, stored, and sum; scale), rows split over threads.
void softmaxRows(const float *x, float *y, int64_t rows, int64_t cols,
                 int threads);

/// Layer norm of a rows x cols matrix, (x - mean) / sqrt(var + eps) * g + b
/// per row, each row in cache for its three passes (mean; variance;
/// result), rows split over threads.
void layerNormRows(const float *x, const float *g, const float *b, float *y,
                   int64_t rows, int64_t cols, float eps, int threads);

} // namespace bench

#endif // TCC_BENCH_HANDC_H
