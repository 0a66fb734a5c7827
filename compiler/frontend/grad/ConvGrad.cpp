//===- ConvGrad.cpp - gradients of convolutions and pooling ---------------===//
//
// conv1d/conv2d, max_pool2d and avg_pool2d, worked in channels-first layout
// (a channels-last op's operands and adjoints are transposed there and
// back). A convolution's input adjoint is the transposed convolution: the
// adjoint spread by the strides (zeros between), convolved with the filter
// flipped and with its channel axes swapped per group; on a dynamic size it
// is padded for any remainder of the stride and cut to the input's size
// after. Where the padding is wider than the dilated kernel, and for every
// filter adjoint and pooling adjoint, the gradients come from the gathered
// windows (WindowGrad.cpp), on static and dynamic shapes alike: on static
// shapes too they were faster than the rules they replaced (a convolution
// of the input with the adjoint as filter, batch and channels swapped; a
// pooling's adjoint spread per window offset), 1.3 to 4x on
// bench/graphs/conv_grads.tg (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"
#include "compiler/frontend/grad/WindowGrad.h"
#include "dialects/tc/IR/SliceRules.h"

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
  // windows (WindowGrad.cpp). The filter's adjoint always does: one product
  // of the adjoint and the gathered windows.
  bool wide = false;
  for (int64_t i = 0; i < s; ++i) {
    int64_t span =
        dilations[i] *
        (conv.getFilter().getType().getDimSize(last ? i : 2 + i) - 1);
    if (padding[2 * i] > span || padding[2 * i + 1] > span)
      wide = true;
  }
  if (last) {
    x = transpose(c, x, toChannelsFirst(s));
    dy = transpose(c, dy, toChannelsFirst(s));
    w = transpose(c, w, filterToOik(s));
  }
  if (!x || !dy || !w)
    return failure();
  bool windowsForX = c.needs(0) && wide, windowsForW = c.needs(1);
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

  return success();
}

template <typename Op, bool isMax>
LogicalResult poolRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  auto pool = cast<Op>(op);
  TensorRef x = c.operand(op, 0), y = c.result(op);
  bool last = pool.getLayout().ends_with("C");
  if (last) {
    x = transpose(c, x, toChannelsFirst(2));
    y = transpose(c, y, toChannelsFirst(2));
    dy = transpose(c, dy, toChannelsFirst(2));
  }
  TensorRef gx = poolGradByWindows(c, isMax, x, y, dy, pool.getKernel(),
                                   pool.getStrides(), pool.getPadding());
  if (!gx)
    return failure();
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
