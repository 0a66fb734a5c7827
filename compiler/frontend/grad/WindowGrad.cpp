//===- WindowGrad.cpp - conv and pool gradients by windows ----------------===//
//
// A convolution's filter adjoint, a pooling's adjoint, and a convolution's
// input adjoint where ConvGrad.cpp's transposed convolution would need
// negative padding, go through the windows themselves (im2col) on static
// and dynamic shapes alike, with ops whose result sizes follow run-time
// sizes:
//   - the input padded by concatenating filled pieces shaped like it;
//   - every window gathered from the padded input by one `take` per spatial
//     axis, of the positions `i*stride + a*dilation` as an [out, k] matrix
//     (an iota sized like the output): [N, C, out1, k1, out2, k2], with the
//     output's sizes, symbols included;
//   - adjoints of the windows added back by `scatter_add` at the same
//     positions into zeros shaped like the padded input, the padding then
//     dropped by a `take` of the positions `lo + h` (sized like the input).
// A convolution's filter adjoint is the product of the output adjoint and
// the windows, contracted over the batch and output positions; its input
// adjoint is the product of the output adjoint and the filter, scattered.
// Groups are the batch of these products ([G, ...]).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/WindowGrad.h"

#include <limits>

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;
using tc::Dim;
using tc::Shape;

namespace {

Type i64Type(GradContext &c) {
  return IntegerType::get(c.builder.getContext(), 64);
}

/// `like` with `axis` moved to the front, so that a constructor's `like`
/// (which lends the sizes at the same axes) lends that one at axis 0.
TensorRef axisFirst(GradContext &c, TensorRef like, int64_t axis) {
  if (axis == 0)
    return like;
  SmallVector<int64_t> perm{axis};
  for (int64_t d = 0; d < (int64_t)like.shape.size(); ++d)
    if (d != axis)
      perm.push_back(d);
  return c.builder.transpose(c.loc, like, perm);
}

/// The positions `start + i` (i64) for each i below the size of `like`
/// along `axis`, with that size's symbol.
TensorRef positions(GradContext &c, TensorRef like, int64_t axis,
                    int64_t start) {
  Type i64 = i64Type(c);
  const Dim &size = like.shape[axis];
  TensorRef ids;
  if (!size.isDynamic()) {
    ids = c.builder.iota(c.loc, Shape{size}, 0, i64);
  } else {
    TensorRef moved = axisFirst(c, like, axis);
    if (!moved)
      return {};
    ids = c.builder.iota(c.loc, Shape{size}, 0, i64, &moved);
  }
  if (ids && start != 0)
    ids = c.add(ids, c.scalar(double(start), i64));
  return ids;
}

/// The padded input's positions that the windows read along one spatial
/// axis: `[out, k]`, `i*stride + a*dilation` (i below the size of `like`,
/// the output, along `axis`).
TensorRef windowPositions(GradContext &c, TensorRef like, int64_t axis,
                          int64_t kernel, int64_t stride, int64_t dilation) {
  Type i64 = i64Type(c);
  Shape shape{like.shape[axis], Dim::fixed(kernel)};
  TensorRef moved =
      like.shape[axis].isDynamic() ? axisFirst(c, like, axis) : TensorRef();
  const TensorRef *from = moved ? &moved : nullptr;
  TensorRef rows = c.builder.iota(c.loc, shape, 0, i64, from);
  TensorRef offsets = c.builder.iota(c.loc, shape, 1, i64, from);
  if (!rows || !offsets)
    return {};
  if (stride != 1)
    rows = c.mul(rows, c.scalar(double(stride), i64));
  if (dilation != 1)
    offsets = c.mul(offsets, c.scalar(double(dilation), i64));
  return c.add(rows, offsets);
}

/// `x` (channels first) with `padding[2i]` and `padding[2i+1]` elements of
/// `value` around spatial axis i.
TensorRef padSpatial(GradContext &c, TensorRef x, ArrayRef<int64_t> padding,
                     double value) {
  for (size_t i = 0; 2 * i < padding.size() && x; ++i) {
    int64_t axis = 2 + i, lo = padding[2 * i], hi = padding[2 * i + 1];
    if (lo == 0 && hi == 0)
      continue;
    SmallVector<TensorRef> pieces;
    auto filler = [&](int64_t size) {
      Shape shape = x.shape;
      shape[axis] = Dim::fixed(size);
      return c.builder.full(c.loc, shape, c.scalar(value, x.elementType()), &x);
    };
    if (lo > 0)
      pieces.push_back(filler(lo));
    pieces.push_back(x);
    if (hi > 0)
      pieces.push_back(filler(hi));
    x = c.builder.concat(c.loc, pieces, axis);
  }
  return x;
}

/// The window positions of each spatial axis and the padded input they
/// index.
struct Windows {
  TensorRef padded;
  SmallVector<TensorRef, 2> ids;
};

Windows windowsOf(GradContext &c, TensorRef padded, TensorRef out,
                  ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> dilations) {
  Windows w{padded, {}};
  for (size_t i = 0; i < kernel.size(); ++i)
    w.ids.push_back(
        windowPositions(c, out, 2 + i, kernel[i], strides[i], dilations[i]));
  return w;
}

/// Every window of the padded input (im2col): [N, C, out1, k1, out2, k2].
TensorRef gather(GradContext &c, const Windows &w) {
  TensorRef x = w.padded;
  for (size_t i = 0; i < w.ids.size() && x; ++i)
    x = c.builder.take(c.loc, x, w.ids[i], 2 + 2 * i);
  return x;
}

/// The inverse of gather: `cols` [N, C, out1, k1, ...] added into zeros
/// shaped as the padded input, at the positions the windows read.
TensorRef scatter(GradContext &c, const Windows &w, TensorRef cols) {
  if (!cols)
    return {};
  if (w.ids.size() == 1)
    return c.builder.scatterAdd(c.loc, c.zerosLike(w.padded), w.ids[0], cols,
                                2);
  // Rows first, into [N, C, padded rows, out2, k2], then the columns.
  TensorRef rows = c.zerosLike(c.builder.take(c.loc, w.padded, w.ids[1], 3));
  rows = c.builder.scatterAdd(c.loc, rows, w.ids[0], cols, 2);
  return c.builder.scatterAdd(c.loc, c.zerosLike(w.padded), w.ids[1], rows, 3);
}

/// The padded `acc` cut back to the sizes of `x`.
TensorRef crop(GradContext &c, TensorRef acc, TensorRef x,
               ArrayRef<int64_t> padding) {
  for (size_t i = 0; 2 * i < padding.size() && acc; ++i)
    if (padding[2 * i] != 0 || padding[2 * i + 1] != 0)
      acc = c.builder.take(c.loc, acc, positions(c, x, 2 + i, padding[2 * i]),
                           2 + i);
  return acc;
}

/// `t` [N, C, out...] with a 1 after each output size: it broadcasts
/// against the windows [N, C, out1, k1, ...].
TensorRef perWindow(GradContext &c, TensorRef t) {
  Shape shape{t.shape[0], t.shape[1]};
  for (size_t i = 2; i < t.shape.size(); ++i)
    shape.append({t.shape[i], Dim::fixed(1)});
  return c.builder.reshape(c.loc, t, shape);
}

} // namespace

TensorRef tcc::grad::takeLeading(GradContext &c, TensorRef t, TensorRef like,
                                 int64_t axis) {
  if (!t)
    return {};
  return c.builder.take(c.loc, t, positions(c, like, axis, 0), axis);
}

LogicalResult tcc::grad::convGradByWindows(
    GradContext &c, TensorRef x, TensorRef w, TensorRef dy,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilations, int64_t groups, bool needX, bool needW,
    TensorRef &dx, TensorRef &dw) {
  // x [N, C, spatial...], w [O, C/G, k...], dy [N, O, out...]; the windows
  // are [N, C, out1, k1, ...]: a product per group over O/G (dx) or over
  // the batch and output positions (dw).
  int64_t s = x.shape.size() - 2;
  int64_t outC = w.shape[0].size, inPerGroup = w.shape[1].size;
  Dim g = Dim::fixed(groups), op = Dim::fixed(outC / groups),
      ip = Dim::fixed(inPerGroup), one = Dim::fixed(1);
  SmallVector<int64_t> kernel;
  int64_t window = inPerGroup;
  for (int64_t i = 0; i < s; ++i) {
    kernel.push_back(w.shape[2 + i].size);
    window *= kernel.back();
  }
  Windows windows = windowsOf(c, padSpatial(c, x, padding, 0), dy, kernel,
                              strides, dilations);
  if (!windows.padded)
    return failure();
  // The filter as [G, O/G, C/G * k...].
  TensorRef wg = c.builder.reshape(c.loc, w, Shape{g, op, Dim::fixed(window)});
  if (needX) {
    // dy as [N, out..., G, 1, O/G] times wg: [N, out..., G, 1, C/G*k...].
    SmallVector<int64_t> toLast{0};
    Shape rows{dy.shape[0]};
    for (int64_t i = 0; i < s; ++i) {
      toLast.push_back(2 + i);
      rows.push_back(dy.shape[2 + i]);
    }
    toLast.push_back(1);
    rows.append({g, one, op});
    TensorRef prod = c.builder.matmul(
        c.loc,
        c.builder.reshape(c.loc, c.builder.transpose(c.loc, dy, toLast), rows),
        wg);
    if (!prod)
      return failure();
    // [N, out..., G, C/G, k...] to [N, G, C/G, out1, k1, ...], then the
    // groups and channels joined.
    Shape split(rows.begin(), rows.begin() + 1 + s);
    split.append({g, ip});
    for (int64_t k : kernel)
      split.push_back(Dim::fixed(k));
    SmallVector<int64_t> perm{0, s + 1, s + 2};
    Shape cols{dy.shape[0], Dim::fixed(groups * inPerGroup)};
    for (int64_t i = 0; i < s; ++i) {
      perm.append({1 + i, s + 3 + i});
      cols.append({dy.shape[2 + i], Dim::fixed(kernel[i])});
    }
    TensorRef spread =
        c.builder.transpose(c.loc, c.builder.reshape(c.loc, prod, split), perm);
    dx = crop(c, scatter(c, windows, c.builder.reshape(c.loc, spread, cols)), x,
              padding);
    if (!dx)
      return failure();
  }
  if (needW) {
    // dy as [G, O/G, N*out...]; the windows as [G, N*out..., C/G*k...].
    SmallVector<int64_t> channelsFirst{1, 0};
    for (int64_t i = 0; i < s; ++i)
      channelsFirst.push_back(2 + i);
    TensorRef dyg =
        c.builder.reshape(c.loc, c.builder.transpose(c.loc, dy, channelsFirst),
                          Shape{g, op, Dim::fixed(-1)});
    TensorRef cols = gather(c, windows);
    if (!cols)
      return failure();
    Shape split{cols.shape[0], g, ip};
    split.append(cols.shape.begin() + 2, cols.shape.end());
    // [N, G, C/G, o1, k1, ...] -> [G, N, o1, ..., C/G, k1, ...].
    SmallVector<int64_t> perm{1, 0};
    for (int64_t i = 0; i < s; ++i)
      perm.push_back(3 + 2 * i);
    perm.push_back(2);
    for (int64_t i = 0; i < s; ++i)
      perm.push_back(4 + 2 * i);
    TensorRef colsg = c.builder.reshape(
        c.loc,
        c.builder.transpose(c.loc, c.builder.reshape(c.loc, cols, split), perm),
        Shape{g, Dim::fixed(-1), Dim::fixed(window)});
    TensorRef prod = c.builder.matmul(c.loc, dyg, colsg);
    if (!prod)
      return failure();
    dw = c.builder.reshape(c.loc, prod, w.shape);
    if (!dw)
      return failure();
  }
  return success();
}

TensorRef tcc::grad::poolGradByWindows(GradContext &c, bool isMax, TensorRef x,
                                       TensorRef y, TensorRef dy,
                                       ArrayRef<int64_t> kernel,
                                       ArrayRef<int64_t> strides,
                                       ArrayRef<int64_t> padding) {
  Type t = x.elementType();
  // Max pooling: padded with the lowest value, never a maximum.
  TensorRef padded = padSpatial(
      c, x, padding, isMax ? -std::numeric_limits<double>::infinity() : 0);
  if (!padded)
    return {};
  SmallVector<int64_t> ones(kernel.size(), 1);
  Windows windows = windowsOf(c, padded, dy, kernel, strides, ones);
  TensorRef cols = gather(c, windows), g = perWindow(c, dy);
  if (!cols || !g)
    return {};
  TensorRef shares;
  if (isMax) {
    // Each window's adjoint split equally among its maxima.
    TensorRef hits = c.builder.cast(
        c.loc, c.cmp(tc::ComparePredicate::eq, cols, perWindow(c, y)), t);
    SmallVector<int64_t> offsetAxes;
    for (size_t i = 0; i < kernel.size(); ++i)
      offsetAxes.push_back(3 + 2 * i);
    TensorRef ties =
        c.builder.reduce(c.loc, ReduceKind::Sum, hits, offsetAxes, true);
    shares = c.mul(hits, c.div(g, ties));
  } else {
    int64_t size = 1;
    for (int64_t k : kernel)
      size *= k;
    shares = c.add(c.zerosLike(cols), c.div(g, c.scalar(double(size), t)));
  }
  return crop(c, scatter(c, windows, shares), x, padding);
}
