//===- Blas.cpp - matrix products that compiled code calls ---------------===//
//
// Compiled code calls these through MLIR's C interface
// (`_mlir_ciface_NAME`, one pointer to a memref descriptor per argument)
// when the tcc-matmul-to-blas pass routes a matmul here. They compute
// C += A * B, or C = A * B (the `_overwrite_` forms, for a product whose
// output was only zero-filled: BLAS's beta = 0 saves the fill), with OpenBLAS,
// which blocks, vectorizes and threads the product far better than generated
// loops. OpenBLAS is loaded on the first product (BlasLibrary.h); without it,
// plain loops compute the same result.
//
//===----------------------------------------------------------------------===//

#include "BlasLibrary.h"

#include <cstdint>

namespace {

/// MLIR's strided memref descriptor of rank R.
template <typename T, int R> struct Memref {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[R];
  int64_t strides[R];

  T *data() const { return aligned + offset; }
};

/// Row-major operand: leading dimension, or transposed when the column
/// stride is the long one. Returns false when BLAS cannot read it: neither
/// dimension is unit stride, or the other stride is shorter than a row
/// (negative, as in `x[::-2]`, or 0, a broadcast), which BLAS refuses
/// ("parameter number 8 had an illegal value") or reads wrongly.
template <typename T, int R>
bool layout(const Memref<T, R> &m, CBLAS_TRANSPOSE &trans, int64_t &ld) {
  int64_t rows = m.strides[R - 2], cols = m.strides[R - 1];
  int64_t height = m.sizes[R - 2], width = m.sizes[R - 1];
  // BLAS wants ld >= the stored row length even where only one row (or
  // column) is read and the stride is meaningless: a transposed view of a
  // [8, 1] matrix has sizes [1, 8] and strides [1, 1].
  if ((cols == 1 || width == 1) && (height <= 1 || rows >= width)) {
    trans = CblasNoTrans;
    ld = height <= 1 && rows < width ? width : rows;
    ld = ld > 0 ? ld : 1;
    return true;
  }
  if ((rows == 1 || height == 1) && (width <= 1 || cols >= height)) {
    trans = CblasTrans;
    ld = width <= 1 && cols < height ? height : cols;
    ld = ld > 0 ? ld : 1;
    return true;
  }
  return false;
}

/// Returns false when no BLAS library is available.
template <typename T>
bool gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t m, int64_t n,
          int64_t k, const T *a, int64_t lda, const T *b, int64_t ldb, T beta,
          T *c, int64_t ldc);

template <>
bool gemm<float>(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t m, int64_t n,
                 int64_t k, const float *a, int64_t lda, const float *b,
                 int64_t ldb, float beta, float *c, int64_t ldc) {
  auto sgemm = tcc::kernels::blasLibrary().sgemm;
  if (!sgemm)
    return false;
  sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
  return true;
}

template <>
bool gemm<double>(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t m, int64_t n,
                  int64_t k, const double *a, int64_t lda, const double *b,
                  int64_t ldb, double beta, double *c, int64_t ldc) {
  auto dgemm = tcc::kernels::blasLibrary().dgemm;
  if (!dgemm)
    return false;
  dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc);
  return true;
}

/// C[b] = beta * C[b] + A[b] * B[b] (beta 0 or 1) by plain loops over any
/// strides: the answer when an operand is not row-major or no BLAS library
/// is installed.
template <typename T, int R>
void matmulLoops(const Memref<T, R> *a, const Memref<T, R> *b, Memref<T, R> *c,
                 T beta) {
  int64_t m = c->sizes[R - 2], n = c->sizes[R - 1], k = a->sizes[R - 1];
  int64_t batches = R == 3 ? c->sizes[0] : 1;
  for (int64_t bi = 0; bi < batches; ++bi) {
    const T *ab = a->data() + (R == 3 ? bi * a->strides[0] : 0);
    const T *bb = b->data() + (R == 3 ? bi * b->strides[0] : 0);
    T *cb = c->data() + (R == 3 ? bi * c->strides[0] : 0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        T sum = beta == T(0)
                    ? T(0)
                    : cb[i * c->strides[R - 2] + j * c->strides[R - 1]];
        for (int64_t p = 0; p < k; ++p)
          sum += ab[i * a->strides[R - 2] + p * a->strides[R - 1]] *
                 bb[p * b->strides[R - 2] + j * b->strides[R - 1]];
        cb[i * c->strides[R - 2] + j * c->strides[R - 1]] = sum;
      }
  }
}

/// C[b] = beta * C[b] + A[b] * B[b] for every batch index b (rank 3), or
/// once (rank 2); beta is 1 (accumulate) or 0 (overwrite).
template <typename T, int R>
void matmul(const Memref<T, R> *a, const Memref<T, R> *b, Memref<T, R> *c,
            T beta) {
  int64_t m = c->sizes[R - 2], n = c->sizes[R - 1], k = a->sizes[R - 1];
  if (m == 0 || n == 0)
    return;
  // An empty sum: C keeps its value, or becomes zero (what the fill that
  // the overwrite replaced would have left).
  if (k == 0) {
    if (beta == T(0))
      return matmulLoops(a, b, c, beta);
    return;
  }
  CBLAS_TRANSPOSE ta, tb, tc;
  int64_t lda, ldb, ldc;
  int64_t batches = R == 3 ? c->sizes[0] : 1;
  // The pass only routes row-major buffers here; any other layout still
  // gets the right answer, by plain loops over the strides.
  if (!layout(*a, ta, lda) || !layout(*b, tb, ldb) || !layout(*c, tc, ldc) ||
      tc != CblasNoTrans)
    return matmulLoops(a, b, c, beta);
  for (int64_t i = 0; i < batches; ++i) {
    int64_t ai = R == 3 ? i * a->strides[0] : 0;
    int64_t bi = R == 3 ? i * b->strides[0] : 0;
    int64_t ci = R == 3 ? i * c->strides[0] : 0;
    // Without a BLAS library the first product fails before writing C.
    if (!gemm<T>(ta, tb, m, n, k, a->data() + ai, lda, b->data() + bi, ldb,
                 beta, c->data() + ci, ldc))
      return matmulLoops(a, b, c, beta);
  }
}

} // namespace

extern "C" {

#define TCC_MATMUL_ENTRY_POINTS(NAME, T, R)                                    \
  void _mlir_ciface_tcc_##NAME(Memref<T, R> *a, Memref<T, R> *b,               \
                               Memref<T, R> *c) {                              \
    matmul(a, b, c, T(1));                                                     \
  }                                                                            \
  void _mlir_ciface_tcc_##NAME##_overwrite(Memref<T, R> *a, Memref<T, R> *b,   \
                                           Memref<T, R> *c) {                  \
    matmul(a, b, c, T(0));                                                     \
  }

TCC_MATMUL_ENTRY_POINTS(matmul_f32, float, 2)
TCC_MATMUL_ENTRY_POINTS(matmul_f64, double, 2)
TCC_MATMUL_ENTRY_POINTS(batch_matmul_f32, float, 3)
TCC_MATMUL_ENTRY_POINTS(batch_matmul_f64, double, 3)

#undef TCC_MATMUL_ENTRY_POINTS

} // extern "C"
