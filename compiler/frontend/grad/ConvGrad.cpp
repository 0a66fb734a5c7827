//===- ConvGrad.cpp - gradients of convolutions and pooling ---------------===//
//
// conv1d/conv2d, max_pool2d and avg_pool2d, worked in channels-first layout
// (a channels-last op's operands and adjoints are transposed there and
// back). A convolution's input adjoint is the transposed convolution: the
// adjoint spread by the strides (zeros between), convolved with the filter
// flipped and with its channel axes swapped per group; on a dynamic size it
// is padded for any remainder of the stride and cut to the input's size
// after. Its filter adjoint is a convolution of the input with the adjoint
// as filter, batch and channels swapped, strides and dilations exchanged.
// A pooling's adjoint is summed over the window's offsets: each offset's
// share is spread by the strides and placed at its offset in the padded
// input. Where these need static sizes (the filter's adjoint, pooling) or
// non-negative padding, WindowGrad.cpp builds the gradients from the
// gathered windows instead.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"
#include "compiler/frontend/grad/WindowGrad.h"
#include "dialects/tc/IR/SliceRules.h"

#include <limits>

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;
using tc::Dim;
using tc::Shape;

namespace {

/// `g` with `before` and `after` elements of `value` around it along `axis`.
TensorRef padWith(GradContext &c, TensorRef g, int64_t axis, int64_t before,
                  int64_t after, double value) {
  if (!g || (before == 0 && after == 0))
    return g;
  SmallVector<TensorRef> pieces;
  auto filler = [&](int64_t size) {
    Shape shape = g.shape;
    shape[axis] = Dim::fixed(size);
    TensorRef fill = c.scalar(value, g.elementType());
    // Dynamic sizes (a symbolic batch) are g's.
    if (!tc::staticElementCount(shape))
      return c.builder.full(c.loc, shape, fill, &g);
    return c.builder.broadcastTo(c.loc, fill, shape);
  };
  if (before > 0)
    pieces.push_back(filler(before));
  pieces.push_back(g);
  if (after > 0)
    pieces.push_back(filler(after));
  return c.builder.concat(c.loc, pieces, axis);
}

/// `g` (k elements along `axis`) spread to every `step`-th place of
/// (k-1)*step+1, zeros between; k*step (zeros after the last one too) when
/// k is dynamic, since the cut would give the size another name.
TensorRef spread(GradContext &c, TensorRef g, int64_t axis, int64_t step) {
  if (!g || step == 1 || g.shape[axis].isStatic(0) || g.shape[axis].isStatic(1))
    return g;
  const Dim &k = g.shape[axis];
  Shape column = g.shape;
  column.insert(column.begin() + axis + 1, Dim::fixed(1));
  TensorRef joined =
      padWith(c, c.builder.reshape(c.loc, g, column), axis + 1, 0, step - 1, 0);
  Shape flat = g.shape;
  if (!k.isDynamic()) {
    flat[axis] = Dim::fixed(k.size * step);
  } else {
    std::optional<tc::DimProduct> n = tc::productOf(k), times;
    if (n)
      times = tc::multiply(*n, tc::DimProduct{step, {}});
    flat[axis] = times ? tc::productDim(*times) : Dim::fixed(-1);
  }
  TensorRef spreadOut = c.builder.reshape(c.loc, joined, flat);
  if (k.isDynamic() || !spreadOut)
    return spreadOut;
  SmallVector<int64_t> begin(flat.size(), 0),
      end(flat.size(), tc::kSliceOpenHigh), steps(flat.size(), 1);
  end[axis] = (k.size - 1) * step + 1;
  return c.builder.slice(c.loc, spreadOut, begin, end, steps);
}

/// A static slice of `x`: `[begin, begin + (size-1)*step + 1)` by `step`
/// along the spatial axes (from 2), whole elsewhere.
TensorRef windowSlice(GradContext &c, TensorRef x, ArrayRef<int64_t> begins,
                      ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
  SmallVector<int64_t> begin(x.shape.size(), 0), end = tc::sizesOf(x.shape),
                                                 step(x.shape.size(), 1);
  for (size_t i = 0; i < begins.size(); ++i) {
    begin[2 + i] = begins[i];
    end[2 + i] = begins[i] + (sizes[i] - 1) * steps[i] + 1;
    step[2 + i] = steps[i];
  }
  return c.builder.slice(c.loc, x, begin, end, step);
}

TensorRef transpose(GradContext &c, TensorRef x, ArrayRef<int64_t> perm) {
  return x ? c.builder.transpose(c.loc, x, perm) : x;
}

/// Permutations between channels-last and channels-first, for `s` spatial
/// dimensions.
SmallVector<int64_t> toChannelsFirst(int64_t s) {
  SmallVector<int64_t> perm{0, s + 1};
  for (int64_t i = 1; i <= s; ++i)
    perm.push_back(i);
  return perm;
}
SmallVector<int64_t> toChannelsLast(int64_t s) {
  SmallVector<int64_t> perm{0};
  for (int64_t i = 2; i <= s + 1; ++i)
    perm.push_back(i);
  perm.push_back(1);
  return perm;
}
/// [k..., I, O] -> [O, I, k...] and back.
SmallVector<int64_t> filterToOik(int64_t s) {
  SmallVector<int64_t> perm{s + 1, s};
  for (int64_t i = 0; i < s; ++i)
    perm.push_back(i);
  return perm;
}
SmallVector<int64_t> filterFromOik(int64_t s) {
  SmallVector<int64_t> perm;
  for (int64_t i = 2; i < s + 2; ++i)
    perm.push_back(i);
  perm.push_back(1);
  perm.push_back(0);
  return perm;
}
/// Swaps the first two axes.
SmallVector<int64_t> swapFirstTwo(int64_t rank) {
  SmallVector<int64_t> perm{1, 0};
  for (int64_t i = 2; i < rank; ++i)
    perm.push_back(i);
  return perm;
}

template <typename Op>
LogicalResult convRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  auto conv = cast<Op>(op);
  TensorRef x = c.operand(op, 0), w = c.operand(op, 1);
  int64_t s = x.shape.size() - 2, groups = conv.getGroups();
  bool last = conv.getLayout().ends_with("C");
  StringRef firstLayout = s == 1 ? "NCW" : "NCHW";
  ArrayRef<int64_t> strides = conv.getStrides(), padding = conv.getPadding(),
                    dilations = conv.getDilations();
  // The input's adjoint is a transposed convolution where the padding on
  // each side is at most the dilated kernel's span (its own padding is that
  // span less this one), on any shape; otherwise it goes through the
  // windows (WindowGrad.cpp). The filter's adjoint is a convolution with
  // the batch as channels, which needs static shapes; otherwise, through
  // the windows too.
  bool wide = false;
  for (int64_t i = 0; i < s; ++i) {
    int64_t span =
        dilations[i] *
        (conv.getFilter().getType().getDimSize(last ? i : 2 + i) - 1);
    if (padding[2 * i] > span || padding[2 * i + 1] > span)
      wide = true;
  }
  bool isStatic =
      tc::staticElementCount(x.shape) && tc::staticElementCount(dy.shape);
  if (last) {
    x = transpose(c, x, toChannelsFirst(s));
    dy = transpose(c, dy, toChannelsFirst(s));
    w = transpose(c, w, filterToOik(s));
  }
  if (!x || !dy || !w)
    return failure();
  bool windowsForX = c.needs(0) && wide, windowsForW = c.needs(1) && !isStatic;
  if (windowsForX || windowsForW) {
    TensorRef gx, gw;
    if (failed(convGradByWindows(c, x, w, dy, strides, padding, dilations,
                                 groups, windowsForX, windowsForW, gx, gw)))
      return failure();
    if (windowsForX)
      dx[0] = last ? transpose(c, gx, toChannelsLast(s)) : gx;
    if (windowsForW)
      dx[1] = last ? transpose(c, gw, filterFromOik(s)) : gw;
  }
  int64_t outC = w.shape[0].size, inPerGroup = w.shape[1].size;
  SmallVector<int64_t> kernel;
  for (int64_t i = 0; i < s; ++i)
    kernel.push_back(w.shape[2 + i].size);

  if (c.needs(0) && !windowsForX) {
    // The filter as [C, O/G, k...], flipped.
    TensorRef wt;
    if (groups == 1) {
      wt = transpose(c, w, swapFirstTwo(s + 2));
    } else {
      Shape split{Dim::fixed(groups), Dim::fixed(outC / groups),
                  Dim::fixed(inPerGroup)};
      for (int64_t k : kernel)
        split.push_back(Dim::fixed(k));
      SmallVector<int64_t> perm{0, 2, 1};
      for (int64_t i = 0; i < s; ++i)
        perm.push_back(3 + i);
      Shape joined{Dim::fixed(groups * inPerGroup), Dim::fixed(outC / groups)};
      for (int64_t k : kernel)
        joined.push_back(Dim::fixed(k));
      wt = c.builder.reshape(
          c.loc, transpose(c, c.builder.reshape(c.loc, w, split), perm),
          joined);
    }
    for (int64_t i = 0; i < s; ++i)
      wt = c.reverse(wt, 2 + i);
    TensorRef g = dy;
    SmallVector<int64_t> pad;
    for (int64_t i = 0; i < s; ++i) {
      g = spread(c, g, 2 + i, strides[i]);
      if (!g)
        return failure();
      int64_t span = dilations[i] * (kernel[i] - 1);
      int64_t lo = span - padding[2 * i];
      // A dynamic size: enough padding for any remainder of the stride,
      // the result cut to the input's size below.
      int64_t hi = x.shape[2 + i].isDynamic() || g.shape[2 + i].isDynamic()
                       ? span - padding[2 * i + 1] + strides[i] - 1
                       : x.shape[2 + i].size - g.shape[2 + i].size - lo + span;
      pad.push_back(lo);
      pad.push_back(hi);
    }
    SmallVector<int64_t> ones(s, 1);
    TensorRef gx =
        c.builder.conv(c.loc, g, wt, firstLayout, ones, pad, dilations, groups);
    for (int64_t i = 0; i < s && gx; ++i)
      if (x.shape[2 + i].isDynamic() || g.shape[2 + i].isDynamic())
        gx = takeLeading(c, gx, x, 2 + i);
    if (!gx)
      return failure();
    dx[0] = last ? transpose(c, gx, toChannelsLast(s)) : gx;
  }

  if (c.needs(1) && !windowsForW) {
    // Batch as channels: input [C/G, G*N, spatial...], filter [O, N, out...].
    int64_t n = x.shape[0].size, inC = x.shape[1].size;
    TensorRef xt;
    if (groups == 1) {
      xt = transpose(c, x, swapFirstTwo(s + 2));
    } else {
      Shape split{Dim::fixed(n), Dim::fixed(groups), Dim::fixed(inC / groups)};
      SmallVector<int64_t> perm{2, 1, 0};
      Shape joined{Dim::fixed(inC / groups), Dim::fixed(groups * n)};
      for (int64_t i = 0; i < s; ++i) {
        split.push_back(x.shape[2 + i]);
        perm.push_back(3 + i);
        joined.push_back(x.shape[2 + i]);
      }
      xt = c.builder.reshape(
          c.loc, transpose(c, c.builder.reshape(c.loc, x, split), perm),
          joined);
    }
    TensorRef dyt = transpose(c, dy, swapFirstTwo(s + 2));
    TensorRef r = c.builder.conv(c.loc, xt, dyt, firstLayout, dilations,
                                 padding, strides, groups);
    if (!r)
      return failure();
    // Elements a stride skipped at the end widen the result: cut to k.
    SmallVector<int64_t> begin(s + 2, 0), end = tc::sizesOf(r.shape),
                                          step(s + 2, 1);
    bool cut = false;
    for (int64_t i = 0; i < s; ++i)
      if (end[2 + i] != kernel[i]) {
        end[2 + i] = kernel[i];
        cut = true;
      }
    if (cut)
      r = c.builder.slice(c.loc, r, begin, end, step);
    TensorRef gw = transpose(c, r, swapFirstTwo(s + 2));
    dx[1] = last ? transpose(c, gw, filterFromOik(s)) : gw;
  }
  return success();
}

template <typename Op, bool isMax>
LogicalResult poolRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  auto pool = cast<Op>(op);
  TensorRef x = c.operand(op, 0), y = c.result(op);
  bool isStatic = bool(tc::staticElementCount(x.shape));
  bool last = pool.getLayout().ends_with("C");
  if (last) {
    x = transpose(c, x, toChannelsFirst(2));
    y = transpose(c, y, toChannelsFirst(2));
    dy = transpose(c, dy, toChannelsFirst(2));
  }
  ArrayRef<int64_t> kernel = pool.getKernel(), strides = pool.getStrides(),
                    padding = pool.getPadding();
  if (!isStatic) {
    TensorRef gx =
        poolGradByWindows(c, isMax, x, y, dy, kernel, strides, padding);
    if (!gx)
      return failure();
    dx[0] = last ? transpose(c, gx, toChannelsLast(2)) : gx;
    return success();
  }
  Type t = x.elementType();
  SmallVector<int64_t> outSizes{dy.shape[2].size, dy.shape[3].size};
  // Max pooling: x padded with the lowest value, never a maximum.
  TensorRef xp = x;
  if (isMax)
    for (int64_t i = 0; i < 2; ++i)
      xp = padWith(c, xp, 2 + i, padding[2 * i], padding[2 * i + 1],
                   -std::numeric_limits<double>::infinity());
  SmallVector<std::pair<int64_t, int64_t>> offsets;
  for (int64_t a = 0; a < kernel[0]; ++a)
    for (int64_t b = 0; b < kernel[1]; ++b)
      offsets.push_back({a, b});
  // The share of each offset (max: equal among the window's maxima).
  SmallVector<TensorRef> shares;
  if (isMax) {
    SmallVector<TensorRef> hits;
    TensorRef ties;
    for (auto [a, b] : offsets) {
      TensorRef window = windowSlice(c, xp, {a, b}, outSizes, strides);
      TensorRef hit =
          c.builder.cast(c.loc, c.cmp(tc::ComparePredicate::eq, window, y), t);
      hits.push_back(hit);
      ties = ties ? c.add(ties, hit) : hit;
    }
    TensorRef each = c.div(dy, ties);
    for (TensorRef hit : hits)
      shares.push_back(c.mul(hit, each));
  } else {
    TensorRef each = c.div(dy, c.scalar(double(kernel[0] * kernel[1]), t));
    shares.assign(offsets.size(), each);
  }
  // Each share spread by the strides and placed at its offset of the
  // padded input, summed, then the padding cut away.
  int64_t height = x.shape[2].size + padding[0] + padding[1];
  int64_t width = x.shape[3].size + padding[2] + padding[3];
  TensorRef sum;
  for (auto [i, ab] : llvm::enumerate(offsets)) {
    TensorRef g = spread(c, spread(c, shares[i], 2, strides[0]), 3, strides[1]);
    if (!g)
      return failure();
    g = padWith(c, g, 2, ab.first, height - ab.first - g.shape[2].size, 0);
    g = padWith(c, g, 3, ab.second, width - ab.second - g.shape[3].size, 0);
    sum = sum ? c.add(sum, g) : g;
  }
  TensorRef gx = windowSlice(c, sum, {padding[0], padding[2]},
                             {x.shape[2].size, x.shape[3].size}, {1, 1});
  dx[0] = last ? transpose(c, gx, toChannelsLast(2)) : gx;
  return success();
}

} // namespace

void tcc::grad::registerConvGradRules(GradRuleTable &t) {
  t.add<tc::Conv1DOp>(convRule<tc::Conv1DOp>);
  t.add<tc::Conv2DOp>(convRule<tc::Conv2DOp>);
  t.add<tc::MaxPool2DOp>(poolRule<tc::MaxPool2DOp, true>);
  t.add<tc::AvgPool2DOp>(poolRule<tc::AvgPool2DOp, false>);
}
