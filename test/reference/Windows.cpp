//===- Windows.cpp - reference convolution and pooling --------------------===//
//
// Straight from the definitions in TcConvOps.td, one output element at a
// time: every window position is read with its padding as an explicit
// bounds test (no padded copy, no im2col), so that the compiler's lowering
// is compared with an independent formulation.
//
//===----------------------------------------------------------------------===//

#include "test/reference/Kernels.h"

#include "dialects/tc/IR/TcOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference::detail {

namespace {

/// A rank-4 view of a rank-3 or rank-4 tensor in [N, C, H, W] order: conv1d
/// is conv2d with H = 1; channels last is permuted by the index function.
struct View {
  const RefTensor *t;
  bool last;
  bool oneD;
  int64_t n, c, h, w;

  View(const RefTensor &tensor, bool channelsLast) : t(&tensor) {
    last = channelsLast;
    oneD = tensor.rank() == 3;
    const auto &s = tensor.shape;
    n = s[0];
    c = last ? s.back() : s[1];
    h = oneD ? 1 : (last ? s[1] : s[2]);
    w = last ? s[tensor.rank() - 2] : s.back();
  }
  int64_t offset(int64_t ni, int64_t ci, int64_t hi, int64_t wi) const {
    return last ? ((ni * h + hi) * w + wi) * c + ci
                : ((ni * c + ci) * h + hi) * w + wi;
  }
  double at(int64_t ni, int64_t ci, int64_t hi, int64_t wi) const {
    return t->data[size_t(offset(ni, ci, hi, wi))];
  }
};

/// 2-D window attributes (conv1d gets the unit height).
struct Win {
  int64_t sh = 1, sw = 1, dh = 1, dw = 1, top = 0, left = 0;
};

Win windowOf(ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
             ArrayRef<int64_t> dilations) {
  Win win;
  if (strides.size() == 1) {
    win.sw = strides[0];
    win.dw = dilations.empty() ? 1 : dilations[0];
    win.left = padding[0];
    return win;
  }
  win.sh = strides[0];
  win.sw = strides[1];
  if (!dilations.empty()) {
    win.dh = dilations[0];
    win.dw = dilations[1];
  }
  win.top = padding[0];
  win.left = padding[2];
  return win;
}

std::vector<int64_t> shapeOf(Operation &op, int64_t n, int64_t c, int64_t h,
                             int64_t w, bool last, bool oneD) {
  std::vector<int64_t> s{n};
  if (!last)
    s.push_back(c);
  if (!oneD)
    s.push_back(h);
  s.push_back(w);
  if (last)
    s.push_back(c);
  auto type = tensorType(op.getResult(0));
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!type.isDynamicDim(d) && type.getDimSize(d) != s[size_t(d)])
      fail(op, "computes a result of another shape than its type");
  return s;
}

template <typename ConvOp> RefTensor conv(ConvOp op, Operands operands) {
  Operation &o = *op.getOperation();
  DTypeKind dtype = resultDType(o);
  bool last = op.getLayout().ends_with("C");
  View x(*operands[0], last);
  const RefTensor &f = *operands[1];
  bool oneD = x.oneD;
  // The filter as [O, I, KH, KW] (OIHW/OIW) or [KH, KW, I, O] (HWIO/WIO).
  int64_t kh = 1, kw, fi, fo;
  if (last) {
    kh = oneD ? 1 : f.shape[0];
    kw = f.shape[oneD ? 0 : 1];
    fi = f.shape[f.rank() - 2];
    fo = f.shape.back();
  } else {
    fo = f.shape[0];
    fi = f.shape[1];
    kh = oneD ? 1 : f.shape[2];
    kw = f.shape.back();
  }
  auto filterAt = [&](int64_t o2, int64_t i, int64_t a, int64_t b) {
    int64_t idx = last ? ((a * kw + b) * fi + i) * fo + o2
                       : ((o2 * fi + i) * kh + a) * kw + b;
    return f.data[size_t(idx)];
  };
  Win win = windowOf(op.getStrides(), op.getPadding(), op.getDilations());
  int64_t groups = op.getGroups();
  int64_t padH = oneD ? 0 : op.getPadding()[0] + op.getPadding()[1];
  int64_t padW = op.getPadding()[oneD ? 0 : 2] + op.getPadding()[oneD ? 1 : 3];
  int64_t oh = (x.h + padH - win.dh * (kh - 1) - 1) / win.sh + 1;
  int64_t ow = (x.w + padW - win.dw * (kw - 1) - 1) / win.sw + 1;
  if (x.c != fi * groups)
    fail(o, "has mismatched channels");
  RefTensor result;
  result.dtype = dtype;
  result.shape = shapeOf(o, x.n, fo, oh, ow, last, oneD);
  result.data.assign(size_t(numelOf(result.shape)), 0.0);
  View out(result, last);
  int64_t perGroup = fo / groups;
  bool integer = isInteger(dtype);
  for (int64_t n = 0; n < x.n; ++n)
    for (int64_t o2 = 0; o2 < fo; ++o2)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          int64_t g = o2 / perGroup;
          long double acc = 0;
          __int128 iacc = 0;
          for (int64_t c = 0; c < fi; ++c)
            for (int64_t a = 0; a < kh; ++a)
              for (int64_t b = 0; b < kw; ++b) {
                int64_t hi = i * win.sh + a * win.dh - win.top;
                int64_t wi = j * win.sw + b * win.dw - win.left;
                if (hi < 0 || hi >= x.h || wi < 0 || wi >= x.w)
                  continue; // padding: zero
                double v = x.at(n, g * fi + c, hi, wi);
                double k = filterAt(o2, c, a, b);
                if (integer)
                  iacc += __int128(asInteger(v)) * asInteger(k);
                else
                  acc += (long double)v * k;
              }
          result.data[size_t(out.offset(n, o2, i, j))] =
              integer ? checkedInteger(o, dtype, iacc)
                      : roundTo(dtype, double(acc));
        }
  return result;
}

template <typename PoolOp>
RefTensor pool(PoolOp op, Operands operands, bool isMax) {
  Operation &o = *op.getOperation();
  DTypeKind dtype = resultDType(o);
  bool last = op.getLayout() == "NHWC";
  View x(*operands[0], last);
  int64_t kh = op.getKernel()[0], kw = op.getKernel()[1];
  Win win = windowOf(op.getStrides(), op.getPadding(), {});
  ArrayRef<int64_t> p = op.getPadding();
  int64_t oh = (x.h + p[0] + p[1] - kh) / win.sh + 1;
  int64_t ow = (x.w + p[2] + p[3] - kw) / win.sw + 1;
  RefTensor result;
  result.dtype = dtype;
  result.shape = shapeOf(o, x.n, x.c, oh, ow, last, false);
  result.data.assign(size_t(numelOf(result.shape)), 0.0);
  View out(result, last);
  for (int64_t n = 0; n < x.n; ++n)
    for (int64_t c = 0; c < x.c; ++c)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double best = -std::numeric_limits<double>::infinity();
          long double sum = 0;
          for (int64_t a = 0; a < kh; ++a)
            for (int64_t b = 0; b < kw; ++b) {
              int64_t hi = i * win.sh + a - win.top;
              int64_t wi = j * win.sw + b - win.left;
              if (hi < 0 || hi >= x.h || wi < 0 || wi >= x.w)
                continue; // never the maximum; zero in the sum
              double v = x.at(n, c, hi, wi);
              if (std::isnan(v))
                best = v; // NaN wins, as arith.maximumf
              else if (!std::isnan(best) && v > best)
                best = v;
              sum += v;
            }
          double value = isMax ? best : double(sum / (kh * kw));
          result.data[size_t(out.offset(n, c, i, j))] = roundTo(dtype, value);
        }
  return result;
}

} // namespace

std::optional<RefTensor> evalWindow(Operation &op, Operands operands) {
  if (auto c = dyn_cast<Conv1DOp>(op))
    return conv(c, operands);
  if (auto c = dyn_cast<Conv2DOp>(op))
    return conv(c, operands);
  if (auto p = dyn_cast<MaxPool2DOp>(op))
    return pool(p, operands, /*isMax=*/true);
  if (auto p = dyn_cast<AvgPool2DOp>(op))
    return pool(p, operands, /*isMax=*/false);
  return std::nullopt;
}

} // namespace tcc::reference::detail
