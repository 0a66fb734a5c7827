//===- Conv.cpp - 2-D convolutions that compiled code calls --------------===//
//
// Compiled code calls these through MLIR's C interface when the
// tcc-conv-to-blas pass routes a linalg convolution here (f32/f64). The
// input is the unpadded image: the pass passes the low padding (top, left)
// instead of the padded copy tc-to-linalg built, and the windows read zeros
// outside the image. Computes out += conv(in, filter), like the linalg op it
// replaces.
//
// The work is split into tasks of a few output rows of one image (and
// group), run on the kernels' thread pool (ParallelFor.cpp). A task unrolls
// its windows into a column matrix small enough to stay in the core's L2
// (im2col), and OpenBLAS multiplies it by the filter while it is hot: one
// GEMM per task, with OpenBLAS held to one thread meanwhile so that the pool
// alone decides the parallelism (TCC_NUM_THREADS). A 1x1 window with unit
// strides and no padding multiplies the image itself. Without OpenBLAS, for
// strided buffers, or when no column matrix can be allocated, plain loops
// compute the same sums. Plain C ABI, no libstdc++ (runtime/CMakeLists).
//
//===----------------------------------------------------------------------===//

#include "BlasLibrary.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" {
// ParallelFor.cpp.
int tcc_parallel_threads();
void tcc_parallel_for(void (*body)(void *, int64_t, int64_t), void *context,
                      int64_t n);
}

namespace {

/// The column matrix of one task stays below this size, so that it and the
/// output rows it produces stay in L2 while OpenBLAS packs and multiplies
/// them (measured on the bench's 3x3 layer: 128-512 KiB all within 3%).
constexpr int64_t kColumnBytes = 256 * 1024;

/// MLIR's strided memref descriptor of rank R.
template <typename T, int R> struct Memref {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[R];
  int64_t strides[R];

  T *data() const { return aligned + offset; }
  /// Row-major and dense, as the fast paths require (checked, not trusted).
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

/// C[m x n] += A[m x k] * B[k x n], row-major, with the given leading
/// dimensions; false when no BLAS is loaded.
template <typename T>
bool gemm(int64_t m, int64_t n, int64_t k, const T *a, int64_t lda, const T *b,
          int64_t ldb, T *c, int64_t ldc);

template <>
bool gemm<float>(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                 const float *b, int64_t ldb, float *c, int64_t ldc) {
  auto sgemm = tcc::kernels::blasLibrary().sgemm;
  if (!sgemm)
    return false;
  sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, lda, b,
        ldb, 1.0f, c, ldc);
  return true;
}

template <>
bool gemm<double>(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
                  const double *b, int64_t ldb, double *c, int64_t ldc) {
  auto dgemm = tcc::kernels::blasLibrary().dgemm;
  if (!dgemm)
    return false;
  dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, lda, b, ldb,
        1.0, c, ldc);
  return true;
}

/// The outputs o in [0, count) whose input position o * stride + offset
/// lies in [0, size): [lo, hi), empty when lo == hi.
void validRange(int64_t count, int64_t stride, int64_t offset, int64_t size,
                int64_t &lo, int64_t &hi) {
  lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  hi = size - offset <= 0 ? 0 : (size - offset + stride - 1) / stride;
  if (hi > count)
    hi = count;
  if (lo > hi)
    lo = hi;
}

/// One convolution in either layout, described by element strides over
/// logical dimensions: input (n, g, c, h, w), filter (g, f, c, kh, kw) and
/// output (n, g, f, oh, ow); channels last has one group.
template <typename T> struct Conv {
  const T *x;
  const T *w;
  T *y;
  int64_t N, G, C, H, W, F, KH, KW, OH, OW;
  int64_t sh, sw, dh, dw, ph, pw;
  int64_t xs[5], ws[5], ys[5];
  bool channelsLast;
  /// Every buffer dense and row-major, and a BLAS loaded.
  bool fast;
  /// A 1x1 window that reads the image as it is: no column matrix.
  bool direct;
  int64_t rowsPerTask, tasksPerImage;

  int64_t K() const { return C * KH * KW; }

  /// Plain loops over output rows [oh0, oh1) of image n, group g.
  void loops(int64_t n, int64_t g, int64_t oh0, int64_t oh1) const {
    for (int64_t f = 0; f < F; ++f)
      for (int64_t oh = oh0; oh < oh1; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          T *out =
              y + n * ys[0] + g * ys[1] + f * ys[2] + oh * ys[3] + ow * ys[4];
          T sum = *out;
          for (int64_t kh = 0; kh < KH; ++kh) {
            int64_t ih = oh * sh + kh * dh - ph;
            if (ih < 0 || ih >= H)
              continue;
            for (int64_t kw = 0; kw < KW; ++kw) {
              int64_t iw = ow * sw + kw * dw - pw;
              if (iw < 0 || iw >= W)
                continue;
              for (int64_t c = 0; c < C; ++c)
                sum += x[n * xs[0] + g * xs[1] + c * xs[2] + ih * xs[3] +
                         iw * xs[4]] *
                       w[g * ws[0] + f * ws[1] + c * ws[2] + kh * ws[3] +
                         kw * ws[4]];
            }
          }
          *out = sum;
        }
  }

  /// Channels first: col[(c, kh, kw)][(oh, ow)] for rows [oh0, oh1), one
  /// row per filter tap, zeros where the window leaves the image.
  void columnsFirst(const T *image, int64_t oh0, int64_t oh1, T *col) const {
    int64_t cols = (oh1 - oh0) * OW;
    for (int64_t c = 0; c < C; ++c)
      for (int64_t kh = 0; kh < KH; ++kh)
        for (int64_t kw = 0; kw < KW; ++kw) {
          T *row = col + ((c * KH + kh) * KW + kw) * cols;
          int64_t lo, hi;
          validRange(OW, sw, kw * dw - pw, W, lo, hi);
          for (int64_t oh = oh0; oh < oh1; ++oh, row += OW) {
            int64_t ih = oh * sh + kh * dh - ph;
            if (ih < 0 || ih >= H) {
              std::memset(row, 0, sizeof(T) * size_t(OW));
              continue;
            }
            const T *src = image + c * H * W + ih * W + kw * dw - pw;
            std::memset(row, 0, sizeof(T) * size_t(lo));
            if (sw == 1)
              std::memcpy(row + lo, src + lo, sizeof(T) * size_t(hi - lo));
            else
              for (int64_t ow = lo; ow < hi; ++ow)
                row[ow] = src[ow * sw];
            std::memset(row + hi, 0, sizeof(T) * size_t(OW - hi));
          }
        }
  }

  /// Channels last: col[(oh, ow)][(kh, kw, c)] for rows [oh0, oh1), a
  /// window per row, C contiguous elements per tap.
  void columnsLast(const T *image, int64_t oh0, int64_t oh1, T *col) const {
    size_t tap = sizeof(T) * size_t(C);
    for (int64_t oh = oh0; oh < oh1; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow)
        for (int64_t kh = 0; kh < KH; ++kh) {
          int64_t ih = oh * sh + kh * dh - ph;
          for (int64_t kw = 0; kw < KW; ++kw, col += C) {
            int64_t iw = ow * sw + kw * dw - pw;
            if (ih < 0 || ih >= H || iw < 0 || iw >= W)
              std::memset(col, 0, tap);
            else
              std::memcpy(col, image + (ih * W + iw) * C, tap);
          }
        }
  }

  /// Output rows [oh0, oh1) of image n, group g, through BLAS; false when
  /// the plain loops must do it. `col` holds rowsPerTask rows of windows.
  bool tile(int64_t n, int64_t g, int64_t oh0, int64_t oh1, T *col) const {
    int64_t P = OH * OW, cols = (oh1 - oh0) * OW;
    if (channelsLast) {
      const T *image = x + n * H * W * C;
      T *out = y + (n * P + oh0 * OW) * F;
      if (direct)
        return gemm<T>(cols, F, C, image + oh0 * OW * C, C, w, F, out, F);
      columnsLast(image, oh0, oh1, col);
      return gemm<T>(cols, F, K(), col, K(), w, F, out, F);
    }
    const T *image = x + (n * G + g) * C * H * W;
    const T *filter = w + g * F * K();
    T *out = y + (n * G + g) * F * P + oh0 * OW;
    if (direct)
      return gemm<T>(F, cols, C, filter, C, image + oh0 * OW, P, out, P);
    columnsFirst(image, oh0, oh1, col);
    return gemm<T>(F, cols, K(), filter, K(), col, cols, out, P);
  }

  /// Tasks [lo, hi): task t is rows tile t % tasksPerImage of image and
  /// group t / tasksPerImage.
  void run(int64_t lo, int64_t hi) const {
    T *col = nullptr;
    if (fast && !direct)
      col = static_cast<T *>(
          std::malloc(sizeof(T) * size_t(K() * rowsPerTask * OW)));
    for (int64_t t = lo; t < hi; ++t) {
      int64_t ng = t / tasksPerImage;
      int64_t oh0 = (t % tasksPerImage) * rowsPerTask;
      int64_t oh1 = oh0 + rowsPerTask < OH ? oh0 + rowsPerTask : OH;
      int64_t n = ng / G, g = ng % G;
      if (!fast || (!direct && !col) || !tile(n, g, oh0, oh1, col))
        loops(n, g, oh0, oh1);
    }
    std::free(col);
  }

  static void body(void *self, int64_t lo, int64_t hi) {
    static_cast<const Conv *>(self)->run(lo, hi);
  }

  /// Splits the work into tasks and runs them on the pool.
  void operator()() {
    if (N == 0 || G == 0 || F == 0 || OH == 0 || OW == 0)
      return;
    direct = KH == 1 && KW == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0 &&
             OH == H && OW == W;
    int64_t rowBytes = int64_t(sizeof(T)) * (direct ? C : K()) * OW;
    rowsPerTask = rowBytes > 0 ? kColumnBytes / rowBytes : OH;
    if (rowsPerTask < 1)
      rowsPerTask = 1;
    if (rowsPerTask > OH)
      rowsPerTask = OH;
    tasksPerImage = (OH + rowsPerTask - 1) / rowsPerTask;
    tcc::kernels::BlasThreadsHeld held(fast);
    tcc_parallel_for(body, this, N * G * tasksPerImage);
  }
};

template <typename T>
void convNgchw(const Memref<T, 5> *x, const Memref<T, 5> *w, Memref<T, 5> *y,
               const int64_t window[6]) {
  Conv<T> conv{};
  conv.x = x->data();
  conv.w = w->data();
  conv.y = y->data();
  conv.N = y->sizes[0], conv.G = y->sizes[1], conv.F = y->sizes[2];
  conv.OH = y->sizes[3], conv.OW = y->sizes[4];
  conv.C = w->sizes[2], conv.KH = w->sizes[3], conv.KW = w->sizes[4];
  conv.H = x->sizes[3], conv.W = x->sizes[4];
  conv.sh = window[0], conv.sw = window[1], conv.dh = window[2];
  conv.dw = window[3], conv.ph = window[4], conv.pw = window[5];
  for (int d = 0; d < 5; ++d) {
    conv.xs[d] = x->strides[d];
    conv.ws[d] = w->strides[d];
    conv.ys[d] = y->strides[d];
  }
  conv.channelsLast = false;
  conv.fast = x->contiguous() && w->contiguous() && y->contiguous() &&
              tcc::kernels::blasLibrary().sgemm;
  conv();
}

template <typename T>
void convNhwc(const Memref<T, 4> *x, const Memref<T, 4> *w, Memref<T, 4> *y,
              const int64_t window[6]) {
  Conv<T> conv{};
  conv.x = x->data();
  conv.w = w->data();
  conv.y = y->data();
  conv.N = y->sizes[0], conv.G = 1, conv.F = y->sizes[3];
  conv.OH = y->sizes[1], conv.OW = y->sizes[2];
  conv.KH = w->sizes[0], conv.KW = w->sizes[1], conv.C = w->sizes[2];
  conv.H = x->sizes[1], conv.W = x->sizes[2];
  conv.sh = window[0], conv.sw = window[1], conv.dh = window[2];
  conv.dw = window[3], conv.ph = window[4], conv.pw = window[5];
  // Logical (n, g, c, h, w), (g, f, c, kh, kw), (n, g, f, oh, ow).
  const int64_t *xs = x->strides, *ws = w->strides, *ys = y->strides;
  int64_t inputStrides[5] = {xs[0], 0, xs[3], xs[1], xs[2]};
  int64_t filterStrides[5] = {0, ws[3], ws[2], ws[0], ws[1]};
  int64_t outputStrides[5] = {ys[0], 0, ys[3], ys[1], ys[2]};
  for (int d = 0; d < 5; ++d) {
    conv.xs[d] = inputStrides[d];
    conv.ws[d] = filterStrides[d];
    conv.ys[d] = outputStrides[d];
  }
  conv.channelsLast = true;
  conv.fast = x->contiguous() && w->contiguous() && y->contiguous() &&
              tcc::kernels::blasLibrary().sgemm;
  conv();
}

} // namespace

extern "C" {

// Window: stride, dilation, then low padding, each height then width.

void _mlir_ciface_tcc_conv2d_ngchw_f32(Memref<float, 5> *x, Memref<float, 5> *w,
                                       Memref<float, 5> *y, int64_t sh,
                                       int64_t sw, int64_t dh, int64_t dw,
                                       int64_t ph, int64_t pw) {
  const int64_t window[6] = {sh, sw, dh, dw, ph, pw};
  convNgchw(x, w, y, window);
}
void _mlir_ciface_tcc_conv2d_ngchw_f64(Memref<double, 5> *x,
                                       Memref<double, 5> *w,
                                       Memref<double, 5> *y, int64_t sh,
                                       int64_t sw, int64_t dh, int64_t dw,
                                       int64_t ph, int64_t pw) {
  const int64_t window[6] = {sh, sw, dh, dw, ph, pw};
  convNgchw(x, w, y, window);
}
void _mlir_ciface_tcc_conv2d_nhwc_f32(Memref<float, 4> *x, Memref<float, 4> *w,
                                      Memref<float, 4> *y, int64_t sh,
                                      int64_t sw, int64_t dh, int64_t dw,
                                      int64_t ph, int64_t pw) {
  const int64_t window[6] = {sh, sw, dh, dw, ph, pw};
  convNhwc(x, w, y, window);
}
void _mlir_ciface_tcc_conv2d_nhwc_f64(Memref<double, 4> *x,
                                      Memref<double, 4> *w,
                                      Memref<double, 4> *y, int64_t sh,
                                      int64_t sw, int64_t dh, int64_t dw,
                                      int64_t ph, int64_t pw) {
  const int64_t window[6] = {sh, sw, dh, dw, ph, pw};
  convNhwc(x, w, y, window);
}

} // extern "C"
