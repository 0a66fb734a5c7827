//===- SameWindows.cpp - "same" windows on dynamic strided sizes ----------===//
//
// For a dynamic size H with stride s and a window spanning `span` elements,
// "same" gives ceil(H / s) outputs and pads `total = max((out - 1) * s +
// span - H, 0)` elements, `lo = total / 2` before. `lo` depends on H mod s,
// so no attribute can hold it. Instead the input is padded by the most
// either side can need (`(span - 1) / 2` before, the rest of `span - 1`
// after, static), and every window is gathered (im2col) by a `take` per
// spatial axis of the positions `i * s + a * dilation + shift`, where
// `shift = (span - 1) / 2 - lo` is computed from H when the code runs. A
// convolution is then one product with the filter, a pooling a reduction
// over the window. Their gradients are those of take, matmul and the
// reductions, which serve dynamic sizes; the output sizes are named as
// `x[::s]` names its length, `(H+1)/2`.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/SameWindows.h"

#include <limits>

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using tc::Dim;
using tc::Shape;

namespace {

/// One spatial axis of the windows: the static padding put around the
/// input, and the [out, k] positions in the padded input that the windows
/// read.
struct WindowAxis {
  int64_t lo = 0, hi = 0;
  TensorRef ids;
};

TensorRef i64Scalar(GraphBuilder &b, Location loc, int64_t v) {
  return b.constant(loc, Builder(b.getContext()).getI64IntegerAttr(v));
}

/// The windows of channels-first `x` along spatial axis `axis` with
/// padding "same".
WindowAxis sameAxis(GraphBuilder &b, Location loc, TensorRef x, int64_t axis,
                    int64_t kernel, int64_t stride, int64_t dilation) {
  WindowAxis w;
  const Dim &in = x.shape[axis];
  int64_t span = dilation * (kernel - 1) + 1;
  TensorRef shift;
  if (!in.isDynamic()) {
    int64_t out = (in.size + stride - 1) / stride;
    int64_t total = std::max<int64_t>((out - 1) * stride + span - in.size, 0);
    w.lo = total / 2;
    w.hi = total - w.lo;
  } else {
    // The most either side needs: at H mod s == 1 (or s == 1) the total is
    // span - 1.
    w.lo = (span - 1) / 2;
    w.hi = span - 1 - w.lo;
    if (stride != 1) {
      auto op = [&](BinaryKind kind, TensorRef l, TensorRef r) {
        return b.binary(loc, kind, l, r);
      };
      TensorRef size = b.size(loc, x, axis);
      TensorRef out =
          op(BinaryKind::Div,
             op(BinaryKind::Add, size, i64Scalar(b, loc, stride - 1)),
             i64Scalar(b, loc, stride));
      TensorRef total = op(
          BinaryKind::Sub,
          op(BinaryKind::Add,
             op(BinaryKind::Mul, op(BinaryKind::Sub, out, i64Scalar(b, loc, 1)),
                i64Scalar(b, loc, stride)),
             i64Scalar(b, loc, span)),
          size);
      total = op(BinaryKind::Maximum, total, i64Scalar(b, loc, 0));
      shift = op(BinaryKind::Sub, i64Scalar(b, loc, w.lo),
                 op(BinaryKind::Div, total, i64Scalar(b, loc, 2)));
    }
  }
  TensorRef rows = b.steppedPositions(loc, x, axis, stride);
  if (!rows)
    return w;
  rows = b.reshape(loc, rows, Shape{rows.shape[0], Dim::fixed(1)});
  TensorRef offsets = b.iota(loc, Shape{Dim::fixed(1), Dim::fixed(kernel)}, 1,
                             Builder(b.getContext()).getI64Type());
  if (offsets && dilation != 1)
    offsets =
        b.binary(loc, BinaryKind::Mul, offsets, i64Scalar(b, loc, dilation));
  w.ids = b.binary(loc, BinaryKind::Add, rows, offsets);
  if (w.ids && shift)
    w.ids = b.binary(loc, BinaryKind::Add, w.ids, shift);
  return w;
}

/// Channels-first `x` padded by `value` as `axes` say, then every window
/// gathered: [N, C, out1, k1, out2, k2].
TensorRef gatherWindows(GraphBuilder &b, Location loc, TensorRef x,
                        ArrayRef<WindowAxis> axes, double value) {
  for (auto [i, a] : llvm::enumerate(axes)) {
    if (!x || !a.ids)
      return {};
    int64_t axis = 2 + i;
    SmallVector<TensorRef> pieces;
    auto filler = [&](int64_t size) {
      Shape shape = x.shape;
      shape[axis] = Dim::fixed(size);
      return b.full(loc, shape, b.constant(loc, value, x.elementType()), &x);
    };
    if (a.lo > 0)
      pieces.push_back(filler(a.lo));
    pieces.push_back(x);
    if (a.hi > 0)
      pieces.push_back(filler(a.hi));
    if (pieces.size() > 1)
      x = b.concat(loc, pieces, axis);
  }
  for (auto [i, a] : llvm::enumerate(axes))
    if (x)
      x = b.take(loc, x, a.ids, 2 + 2 * i);
  return x;
}

/// The permutation that moves the channels of an [N, spatial..., C] tensor
/// to axis 1 (`toFirst`) or back.
SmallVector<int64_t> channelsPerm(int64_t spatialRank, bool toFirst) {
  SmallVector<int64_t> perm{0};
  if (toFirst) {
    perm.push_back(spatialRank + 1);
    for (int64_t i = 0; i < spatialRank; ++i)
      perm.push_back(1 + i);
  } else {
    for (int64_t i = 0; i < spatialRank; ++i)
      perm.push_back(2 + i);
    perm.push_back(1);
  }
  return perm;
}

} // namespace

bool tcc::frontend::sameNeedsRunTimePadding(const TensorRef &input,
                                            int64_t first,
                                            ArrayRef<int64_t> strides) {
  for (auto [i, stride] : llvm::enumerate(strides))
    if (stride > 1 && first + (int64_t)i < (int64_t)input.shape.size() &&
        input.shape[first + i].isDynamic())
      return true;
  return false;
}

TensorRef tcc::frontend::sameConvByWindows(GraphBuilder &b, Location loc,
                                           TensorRef input, TensorRef filter,
                                           bool channelsLast,
                                           ArrayRef<int64_t> strides,
                                           ArrayRef<int64_t> dilations,
                                           int64_t groups) {
  int64_t s = strides.size();
  TensorRef x = channelsLast
                    ? b.transpose(loc, input, channelsPerm(s, /*toFirst=*/true))
                    : input;
  // The filter as [O, C/G, k...].
  TensorRef w = filter;
  if (channelsLast) {
    SmallVector<int64_t> perm{s + 1, s};
    for (int64_t i = 0; i < s; ++i)
      perm.push_back(i);
    w = b.transpose(loc, filter, perm);
  }
  if (!x || !w)
    return {};
  int64_t outC = w.shape[0].size, window = w.shape[1].size;
  SmallVector<WindowAxis, 2> axes;
  for (int64_t i = 0; i < s; ++i) {
    axes.push_back(sameAxis(b, loc, x, 2 + i, w.shape[2 + i].size, strides[i],
                            dilations[i]));
    window *= w.shape[2 + i].size;
  }
  TensorRef cols = gatherWindows(b, loc, x, axes, 0);
  if (!cols)
    return {};
  // [N, C, o1, k1, ...] -> [N, o..., G, 1, C/G * k...] times the filter as
  // [G, C/G * k..., O/G]: [N, o..., G, 1, O/G], then [N, o..., O].
  SmallVector<int64_t> perm{0};
  Shape rows{cols.shape[0]}, outShape{cols.shape[0]};
  for (int64_t i = 0; i < s; ++i) {
    perm.push_back(2 + 2 * i);
    rows.push_back(cols.shape[2 + 2 * i]);
    outShape.push_back(cols.shape[2 + 2 * i]);
  }
  perm.push_back(1);
  for (int64_t i = 0; i < s; ++i)
    perm.push_back(3 + 2 * i);
  rows.append({Dim::fixed(groups), Dim::fixed(1), Dim::fixed(window)});
  outShape.push_back(Dim::fixed(outC));
  TensorRef lhs = b.reshape(loc, b.transpose(loc, cols, perm), rows);
  TensorRef rhs =
      b.transpose(loc,
                  b.reshape(loc, w,
                            Shape{Dim::fixed(groups), Dim::fixed(outC / groups),
                                  Dim::fixed(window)}),
                  {0, 2, 1});
  TensorRef y = b.reshape(loc, b.matmul(loc, lhs, rhs), outShape);
  if (!y || channelsLast)
    return y;
  return b.transpose(loc, y, channelsPerm(s, /*toFirst=*/true));
}

TensorRef tcc::frontend::samePoolByWindows(GraphBuilder &b, Location loc,
                                           bool isMax, TensorRef input,
                                           bool channelsLast,
                                           ArrayRef<int64_t> kernel,
                                           ArrayRef<int64_t> strides) {
  int64_t s = kernel.size();
  TensorRef x = channelsLast
                    ? b.transpose(loc, input, channelsPerm(s, /*toFirst=*/true))
                    : input;
  if (!x)
    return {};
  SmallVector<WindowAxis, 2> axes;
  SmallVector<int64_t> windowAxes;
  for (int64_t i = 0; i < s; ++i) {
    axes.push_back(sameAxis(b, loc, x, 2 + i, kernel[i], strides[i], 1));
    windowAxes.push_back(3 + 2 * i);
  }
  // Max pooling pads with the lowest value, which is never a maximum.
  double lowest = -std::numeric_limits<double>::infinity();
  if (auto integer = dyn_cast<IntegerType>(x.elementType()))
    lowest =
        double(APInt::getSignedMinValue(integer.getWidth()).getSExtValue());
  TensorRef cols = gatherWindows(b, loc, x, axes, isMax ? lowest : 0);
  if (!cols)
    return {};
  TensorRef y = b.reduce(loc, isMax ? ReduceKind::Max : ReduceKind::Mean, cols,
                         windowAxes, /*keepdims=*/false);
  if (!y || !channelsLast)
    return y;
  return b.transpose(loc, y, channelsPerm(s, /*toFirst=*/false));
}
