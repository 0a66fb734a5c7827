//===- Conv.cpp - 2-D convolutions that compiled code calls --------------===//
//
// Compiled code calls these through MLIR's C interface when the
// tcc-conv-to-blas pass routes a linalg convolution here (f32/f64, padding
// already applied). Each image (and group) is one GEMM: its windows are
// unrolled into a column matrix (im2col), which OpenBLAS multiplies by the
// filter; a 1x1 window with stride 1 multiplies the image itself. Without
// OpenBLAS, or when the column matrix cannot be allocated, plain loops over
// the strides compute the same sums. Computes out += conv(in, filter), like
// the linalg op it replaces. Plain C ABI, no libstdc++ (runtime/CMakeLists).
//
//===----------------------------------------------------------------------===//

#include "BlasLibrary.h"

#include <cstdint>
#include <cstdlib>

namespace {

/// MLIR's strided memref descriptor of rank R.
template <typename T, int R> struct Memref {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[R];
  int64_t strides[R];

  T *data() const { return aligned + offset; }
  /// Row-major and dense, as the pass requires (checked, not trusted).
  bool contiguous() const {
    int64_t expected = 1;
    for (int d = R - 1; d >= 0; --d) {
      if (sizes[d] != 1 && strides[d] != expected)
        return false;
      expected *= sizes[d];
    }
    return true;
  }
};

/// The window of the convolution: strides and dilations, height then width.
struct Window {
  int64_t sh, sw, dh, dw;
};

/// C[m x n] += A[m x k] * B[k x n], row-major, with the given leading
/// dimensions and transposition of A; false when no BLAS is loaded.
template <typename T>
bool gemm(bool transA, int64_t m, int64_t n, int64_t k, const T *a, int64_t lda,
          const T *b, int64_t ldb, T *c, int64_t ldc);

template <>
bool gemm<float>(bool transA, int64_t m, int64_t n, int64_t k, const float *a,
                 int64_t lda, const float *b, int64_t ldb, float *c,
                 int64_t ldc) {
  auto sgemm = tcc::kernels::blasLibrary().sgemm;
  if (!sgemm)
    return false;
  sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, CblasNoTrans, m, n,
        k, 1.0f, a, lda, b, ldb, 1.0f, c, ldc);
  return true;
}

template <>
bool gemm<double>(bool transA, int64_t m, int64_t n, int64_t k, const double *a,
                  int64_t lda, const double *b, int64_t ldb, double *c,
                  int64_t ldc) {
  auto dgemm = tcc::kernels::blasLibrary().dgemm;
  if (!dgemm)
    return false;
  dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, CblasNoTrans, m, n,
        k, 1.0, a, lda, b, ldb, 1.0, c, ldc);
  return true;
}

//===----------------------------------------------------------------------===//
// Channels first, grouped: in [N, G, C, H, W], filter [G, F, C, KH, KW],
// out [N, G, F, OH, OW].
//===----------------------------------------------------------------------===//

template <typename T>
void ngchwLoops(const Memref<T, 5> *x, const Memref<T, 5> *w, Memref<T, 5> *y,
                Window win) {
  const int64_t *xs = x->strides, *ws = w->strides, *ys = y->strides;
  for (int64_t n = 0; n < y->sizes[0]; ++n)
    for (int64_t g = 0; g < y->sizes[1]; ++g)
      for (int64_t f = 0; f < y->sizes[2]; ++f)
        for (int64_t oh = 0; oh < y->sizes[3]; ++oh)
          for (int64_t ow = 0; ow < y->sizes[4]; ++ow) {
            T *out = y->data() + n * ys[0] + g * ys[1] + f * ys[2] +
                     oh * ys[3] + ow * ys[4];
            T sum = *out;
            for (int64_t c = 0; c < w->sizes[2]; ++c)
              for (int64_t kh = 0; kh < w->sizes[3]; ++kh)
                for (int64_t kw = 0; kw < w->sizes[4]; ++kw)
                  sum += x->data()[n * xs[0] + g * xs[1] + c * xs[2] +
                                   (oh * win.sh + kh * win.dh) * xs[3] +
                                   (ow * win.sw + kw * win.dw) * xs[4]] *
                         w->data()[g * ws[0] + f * ws[1] + c * ws[2] +
                                   kh * ws[3] + kw * ws[4]];
            *out = sum;
          }
}

template <typename T>
void convNgchw(const Memref<T, 5> *x, const Memref<T, 5> *w, Memref<T, 5> *y,
               Window win) {
  int64_t N = y->sizes[0], G = y->sizes[1], F = y->sizes[2];
  int64_t OH = y->sizes[3], OW = y->sizes[4];
  int64_t C = w->sizes[2], KH = w->sizes[3], KW = w->sizes[4];
  int64_t H = x->sizes[3], W = x->sizes[4];
  int64_t P = OH * OW, K = C * KH * KW;
  if (N == 0 || G == 0 || F == 0 || P == 0 || K == 0)
    return;
  if (!x->contiguous() || !w->contiguous() || !y->contiguous())
    return ngchwLoops(x, w, y, win);
  // A 1x1 window with unit strides reads the image as the column matrix.
  bool direct =
      KH == 1 && KW == 1 && win.sh == 1 && win.sw == 1 && OH == H && OW == W;
  T *col = direct ? nullptr
                  : static_cast<T *>(std::malloc(sizeof(T) * size_t(K * P)));
  if (!direct && !col)
    return ngchwLoops(x, w, y, win);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < G; ++g) {
      const T *image = x->data() + (n * G + g) * C * H * W;
      if (!direct) {
        // col[(c, kh, kw)][(oh, ow)]: one row per filter tap.
        T *row = col;
        for (int64_t c = 0; c < C; ++c)
          for (int64_t kh = 0; kh < KH; ++kh)
            for (int64_t kw = 0; kw < KW; ++kw)
              for (int64_t oh = 0; oh < OH; ++oh) {
                const T *src = image + c * H * W +
                               (oh * win.sh + kh * win.dh) * W + kw * win.dw;
                if (win.sw == 1)
                  for (int64_t ow = 0; ow < OW; ++ow)
                    *row++ = src[ow];
                else
                  for (int64_t ow = 0; ow < OW; ++ow)
                    *row++ = src[ow * win.sw];
              }
      }
      const T *filter = w->data() + g * F * K;
      T *out = y->data() + (n * G + g) * F * P;
      if (!gemm<T>(false, F, P, K, filter, K, direct ? image : col, P, out,
                   P)) {
        std::free(col);
        return ngchwLoops(x, w, y, win);
      }
    }
  std::free(col);
}

//===----------------------------------------------------------------------===//
// Channels last: in [N, H, W, C], filter [KH, KW, C, F], out [N, OH, OW, F].
//===----------------------------------------------------------------------===//

template <typename T>
void nhwcLoops(const Memref<T, 4> *x, const Memref<T, 4> *w, Memref<T, 4> *y,
               Window win) {
  const int64_t *xs = x->strides, *ws = w->strides, *ys = y->strides;
  for (int64_t n = 0; n < y->sizes[0]; ++n)
    for (int64_t oh = 0; oh < y->sizes[1]; ++oh)
      for (int64_t ow = 0; ow < y->sizes[2]; ++ow)
        for (int64_t f = 0; f < y->sizes[3]; ++f) {
          T *out = y->data() + n * ys[0] + oh * ys[1] + ow * ys[2] + f * ys[3];
          T sum = *out;
          for (int64_t kh = 0; kh < w->sizes[0]; ++kh)
            for (int64_t kw = 0; kw < w->sizes[1]; ++kw)
              for (int64_t c = 0; c < w->sizes[2]; ++c)
                sum +=
                    x->data()[n * xs[0] + (oh * win.sh + kh * win.dh) * xs[1] +
                              (ow * win.sw + kw * win.dw) * xs[2] + c * xs[3]] *
                    w->data()[kh * ws[0] + kw * ws[1] + c * ws[2] + f * ws[3]];
          *out = sum;
        }
}

template <typename T>
void convNhwc(const Memref<T, 4> *x, const Memref<T, 4> *w, Memref<T, 4> *y,
              Window win) {
  int64_t N = y->sizes[0], OH = y->sizes[1], OW = y->sizes[2];
  int64_t F = y->sizes[3];
  int64_t KH = w->sizes[0], KW = w->sizes[1], C = w->sizes[2];
  int64_t H = x->sizes[1], W = x->sizes[2];
  int64_t P = OH * OW, K = KH * KW * C;
  if (N == 0 || F == 0 || P == 0 || K == 0)
    return;
  if (!x->contiguous() || !w->contiguous() || !y->contiguous())
    return nhwcLoops(x, w, y, win);
  // With a 1x1 window and unit strides the images are the rows already:
  // one GEMM for the whole batch.
  if (KH == 1 && KW == 1 && win.sh == 1 && win.sw == 1 && OH == H && OW == W) {
    if (!gemm<T>(false, N * P, F, C, x->data(), C, w->data(), F, y->data(), F))
      nhwcLoops(x, w, y, win);
    return;
  }
  T *col = static_cast<T *>(std::malloc(sizeof(T) * size_t(P * K)));
  if (!col)
    return nhwcLoops(x, w, y, win);
  for (int64_t n = 0; n < N; ++n) {
    const T *image = x->data() + n * H * W * C;
    // col[(oh, ow)][(kh, kw, c)]: a window per row, C contiguous elements
    // per tap.
    T *row = col;
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow)
        for (int64_t kh = 0; kh < KH; ++kh)
          for (int64_t kw = 0; kw < KW; ++kw) {
            const T *src = image + ((oh * win.sh + kh * win.dh) * W +
                                    ow * win.sw + kw * win.dw) *
                                       C;
            for (int64_t c = 0; c < C; ++c)
              *row++ = src[c];
          }
    if (!gemm<T>(false, P, F, K, col, K, w->data(), F, y->data() + n * P * F,
                 F)) {
      std::free(col);
      return nhwcLoops(x, w, y, win);
    }
  }
  std::free(col);
}

} // namespace

extern "C" {

void _mlir_ciface_tcc_conv2d_ngchw_f32(Memref<float, 5> *x, Memref<float, 5> *w,
                                       Memref<float, 5> *y, int64_t sh,
                                       int64_t sw, int64_t dh, int64_t dw) {
  convNgchw(x, w, y, Window{sh, sw, dh, dw});
}
void _mlir_ciface_tcc_conv2d_ngchw_f64(Memref<double, 5> *x,
                                       Memref<double, 5> *w,
                                       Memref<double, 5> *y, int64_t sh,
                                       int64_t sw, int64_t dh, int64_t dw) {
  convNgchw(x, w, y, Window{sh, sw, dh, dw});
}
void _mlir_ciface_tcc_conv2d_nhwc_f32(Memref<float, 4> *x, Memref<float, 4> *w,
                                      Memref<float, 4> *y, int64_t sh,
                                      int64_t sw, int64_t dh, int64_t dw) {
  convNhwc(x, w, y, Window{sh, sw, dh, dw});
}
void _mlir_ciface_tcc_conv2d_nhwc_f64(Memref<double, 4> *x,
                                      Memref<double, 4> *w,
                                      Memref<double, 4> *y, int64_t sh,
                                      int64_t sw, int64_t dh, int64_t dw) {
  convNhwc(x, w, y, Window{sh, sw, dh, dw});
}

} // extern "C"
