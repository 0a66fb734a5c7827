//===- Reductions.cpp - reductions, matmul and softmax in the reference ---===//

#include "test/reference/Kernels.h"

#include "dialects/tc/IR/TcOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference::detail {

namespace {

enum class Reduce { Sum, Mean, Max, Min, Prod };

/// The result shape of reducing `shape` over `axes`.
std::vector<int64_t> reducedShape(const std::vector<int64_t> &shape,
                                  llvm::ArrayRef<int64_t> axes, bool keepdims) {
  std::vector<int64_t> result;
  for (int64_t i = 0; i < int64_t(shape.size()); ++i) {
    if (!llvm::is_contained(axes, i))
      result.push_back(shape[size_t(i)]);
    else if (keepdims)
      result.push_back(1);
  }
  return result;
}

/// For every input element (row-major), the offset of the output element it
/// reduces into: strides of the output over the kept dimensions, 0 over the
/// reduced ones.
std::vector<int64_t> reductionStrides(const std::vector<int64_t> &shape,
                                      llvm::ArrayRef<int64_t> axes) {
  std::vector<int64_t> strides(shape.size(), 0);
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (llvm::is_contained(axes, int64_t(i)))
      continue;
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

RefTensor reduce(Operation &op, Reduce kind, const RefTensor &x,
                 llvm::ArrayRef<int64_t> axes, bool keepdims) {
  DTypeKind dtype = resultDType(op);
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] < 0 || axes[i] >= int64_t(x.rank()) ||
        (i && axes[i] <= axes[i - 1]))
      fail(op, "has bad reduction axes");
  std::vector<int64_t> outShape = reducedShape(x.shape, axes, keepdims);
  int64_t outNumel = numelOf(outShape);
  int64_t count = 1;
  for (int64_t a : axes)
    count *= x.shape[size_t(a)];
  // As numpy: max and min over an empty axis fail even when there is no
  // output element to give (max over axis 1 of a [0, 0] array).
  if ((kind == Reduce::Max || kind == Reduce::Min) && count == 0)
    fail(op, "reduces an empty set of elements (no identity)");

  std::vector<long double> floatAcc(static_cast<size_t>(outNumel));
  std::vector<__int128> intAcc(static_cast<size_t>(outNumel));
  std::vector<bool> seen(static_cast<size_t>(outNumel), false);
  bool integer = isInteger(dtype);
  for (size_t i = 0; i < floatAcc.size(); ++i) {
    floatAcc[i] = kind == Reduce::Prod ? 1.0L : 0.0L;
    intAcc[i] = kind == Reduce::Prod ? 1 : 0;
  }
  const __int128 limit = __int128(1) << 64;
  forEachIndex(x.shape, {reductionStrides(x.shape, axes)},
               [&](int64_t linear, const std::vector<int64_t> &offsets) {
                 size_t o = size_t(offsets[0]);
                 double v = x.data[size_t(linear)];
                 if (integer) {
                   __int128 iv = asInteger(v);
                   __int128 &acc = intAcc[o];
                   switch (kind) {
                   case Reduce::Sum:
                   case Reduce::Mean:
                     acc += iv;
                     break;
                   case Reduce::Prod:
                     acc *= iv;
                     if (acc > limit || acc < -limit)
                       fail(op, "integer product overflows");
                     break;
                   case Reduce::Max:
                     acc = seen[o] ? std::max(acc, iv) : iv;
                     break;
                   case Reduce::Min:
                     acc = seen[o] ? std::min(acc, iv) : iv;
                     break;
                   }
                 } else {
                   long double &acc = floatAcc[o];
                   switch (kind) {
                   case Reduce::Sum:
                   case Reduce::Mean:
                     acc += v;
                     break;
                   case Reduce::Prod:
                     acc *= v;
                     break;
                   case Reduce::Max:
                   case Reduce::Min:
                     // NaN propagates, as in numpy.
                     if (!seen[o] || std::isnan(v))
                       acc = v;
                     else if (!std::isnan(acc))
                       acc = kind == Reduce::Max
                                 ? std::max<long double>(acc, v)
                                 : std::min<long double>(acc, v);
                     break;
                   }
                 }
                 seen[o] = true;
               });

  RefTensor result;
  result.dtype = dtype;
  result.shape = outShape;
  result.data.resize(size_t(outNumel));
  for (size_t o = 0; o < result.data.size(); ++o) {
    if (integer) {
      if (kind == Reduce::Mean)
        fail(op, "is not defined on integers");
      result.data[o] = checkedInteger(op, dtype, intAcc[o]);
    } else {
      long double v = floatAcc[o];
      if (kind == Reduce::Mean)
        v = count ? v / count : std::numeric_limits<double>::quiet_NaN();
      result.data[o] = roundTo(dtype, double(v));
    }
  }
  return result;
}

enum class Statistic { LogSumExp, Var, Std };

/// logsumexp, var and std over `axes`, in long double: the elements of each
/// output are gathered first, since each needs two passes.
RefTensor statistic(Operation &op, Statistic kind, const RefTensor &x,
                    llvm::ArrayRef<int64_t> axes, bool keepdims,
                    int64_t ddof = 0) {
  std::vector<int64_t> outShape = reducedShape(x.shape, axes, keepdims);
  std::vector<std::vector<long double>> groups(size_t(numelOf(outShape)));
  forEachIndex(x.shape, {reductionStrides(x.shape, axes)},
               [&](int64_t linear, const std::vector<int64_t> &offsets) {
                 groups[size_t(offsets[0])].push_back(x.data[size_t(linear)]);
               });
  RefTensor result;
  result.dtype = resultDType(op);
  result.shape = outShape;
  for (const std::vector<long double> &g : groups) {
    long double value;
    if (kind == Statistic::LogSumExp) {
      // m + log(sum(exp(x - m))); an infinite maximum (or none) is the
      // result itself, a NaN anywhere gives NaN.
      long double m = -std::numeric_limits<long double>::infinity();
      bool nan = false;
      for (long double v : g) {
        nan = nan || std::isnan(v);
        m = std::max(m, v);
      }
      if (nan) {
        value = std::numeric_limits<long double>::quiet_NaN();
      } else if (std::isinf(m)) {
        value = m;
      } else {
        long double sum = 0;
        for (long double v : g)
          sum += std::exp(v - m);
        value = m + std::log(sum);
      }
    } else {
      long double n = g.size(), mean = 0, squares = 0;
      for (long double v : g)
        mean += v;
      mean /= n; // NaN when there is no element, as numpy
      for (long double v : g)
        squares += (v - mean) * (v - mean);
      value = squares / std::max<long double>(n - ddof, 0);
      if (kind == Statistic::Std)
        value = std::sqrt(value);
    }
    result.data.push_back(roundTo(result.dtype, double(value)));
  }
  return result;
}

RefTensor argmax(Operation &op, const RefTensor &x, int64_t axis,
                 bool keepdims) {
  if (axis < 0 || axis >= int64_t(x.rank()))
    fail(op, "has a bad axis");
  int64_t n = x.shape[size_t(axis)];
  if (n == 0)
    fail(op, "takes the argmax of an empty axis");
  std::vector<int64_t> strides = x.strides();
  int64_t step = strides[size_t(axis)];
  // Iterate over the outer positions: the input shape with the axis at 1.
  std::vector<int64_t> outer = x.shape;
  outer[size_t(axis)] = 1;
  RefTensor result;
  result.dtype = DTypeKind::I64;
  result.shape = reducedShape(x.shape, {axis}, keepdims);
  result.data.resize(size_t(numelOf(outer)));
  forEachIndex(outer, {strides},
               [&](int64_t linear, const std::vector<int64_t> &offsets) {
                 int64_t best = 0;
                 double bestValue = x.data[size_t(offsets[0])];
                 for (int64_t i = 1; i < n && !std::isnan(bestValue); ++i) {
                   double v = x.data[size_t(offsets[0] + i * step)];
                   // Strictly greater: the first index wins ties; a NaN
                   // wins (numpy).
                   if (v > bestValue || std::isnan(v)) {
                     best = i;
                     bestValue = v;
                   }
                 }
                 result.data[size_t(linear)] = double(best);
               });
  return result;
}

RefTensor matmul(Operation &op, const RefTensor &a, const RefTensor &b) {
  DTypeKind dtype = resultDType(op);
  if (a.rank() < 2 || b.rank() < 2)
    fail(op, "needs operands of rank >= 2");
  int64_t m = a.shape[a.rank() - 2], k = a.shape[a.rank() - 1];
  int64_t k2 = b.shape[b.rank() - 2], n = b.shape[b.rank() - 1];
  if (k != k2)
    fail(op, "contracts " + a.describe() + " with " + b.describe());
  // Batch dimensions broadcast with the tc rule (static 1 only).
  auto ta = tensorType(op.getOperand(0)), tb = tensorType(op.getOperand(1));
  size_t ba = a.rank() - 2, bb = b.rank() - 2;
  size_t batchRank = std::max(ba, bb);
  std::vector<int64_t> batch(batchRank, 1);
  std::vector<bool> fromStaticOne(batchRank, true);
  auto merge = [&](const RefTensor &t, RankedTensorType type, size_t rank) {
    size_t offset = batchRank - rank;
    for (size_t i = 0; i < rank; ++i) {
      if (type.getDimSize(int64_t(i)) == 1)
        continue;
      size_t j = offset + i;
      if (fromStaticOne[j]) {
        batch[j] = t.shape[i];
        fromStaticOne[j] = false;
      } else if (batch[j] != t.shape[i]) {
        fail(op, "has batch dimensions that do not broadcast: " + a.describe() +
                     " and " + b.describe());
      }
    }
  };
  merge(a, ta, ba);
  merge(b, tb, bb);
  auto batchStrides = [&](const RefTensor &t, size_t rank) {
    std::vector<int64_t> own(t.shape.begin(), t.shape.begin() + long(rank));
    std::vector<int64_t> s = broadcastStrides(own, batch);
    for (int64_t &x : s)
      x *= t.shape[t.rank() - 2] * t.shape[t.rank() - 1];
    return s;
  };
  std::vector<int64_t> outShape = batch;
  outShape.push_back(m);
  outShape.push_back(n);
  RefTensor result;
  result.dtype = dtype;
  result.shape = outShape;
  result.data.resize(size_t(numelOf(outShape)));
  bool integer = isInteger(dtype);
  forEachIndex(batch, {batchStrides(a, ba), batchStrides(b, bb)},
               [&](int64_t linear, const std::vector<int64_t> &offsets) {
                 const double *pa = a.data.data() + offsets[0];
                 const double *pb = b.data.data() + offsets[1];
                 double *pc = result.data.data() + linear * m * n;
                 for (int64_t i = 0; i < m; ++i)
                   for (int64_t j = 0; j < n; ++j) {
                     if (integer) {
                       __int128 acc = 0;
                       for (int64_t p = 0; p < k; ++p)
                         acc += __int128(asInteger(pa[i * k + p])) *
                                asInteger(pb[p * n + j]);
                       pc[i * n + j] = checkedInteger(op, dtype, acc);
                     } else {
                       long double acc = 0;
                       for (int64_t p = 0; p < k; ++p)
                         acc += (long double)pa[i * k + p] * pb[p * n + j];
                       pc[i * n + j] = roundTo(dtype, double(acc));
                     }
                   }
               });
  return result;
}

RefTensor softmax(Operation &op, const RefTensor &x, int64_t axis, bool log) {
  DTypeKind dtype = resultDType(op);
  if (axis < 0 || axis >= int64_t(x.rank()))
    fail(op, "has a bad axis");
  int64_t n = x.shape[size_t(axis)];
  std::vector<int64_t> strides = x.strides();
  int64_t step = strides[size_t(axis)];
  std::vector<int64_t> outer = x.shape;
  outer[size_t(axis)] = 1;
  RefTensor result;
  result.dtype = dtype;
  result.shape = x.shape;
  result.data.resize(x.data.size());
  forEachIndex(
      outer, {strides}, [&](int64_t, const std::vector<int64_t> &offsets) {
        int64_t base = offsets[0];
        double m = -std::numeric_limits<double>::infinity();
        for (int64_t i = 0; i < n; ++i)
          m = std::max(m, x.data[size_t(base + i * step)]);
        long double s = 0;
        for (int64_t i = 0; i < n; ++i)
          s += std::exp((long double)x.data[size_t(base + i * step)] - m);
        for (int64_t i = 0; i < n; ++i) {
          long double d = (long double)x.data[size_t(base + i * step)] - m;
          long double v = log ? d - std::log(s) : std::exp(d) / s;
          result.data[size_t(base + i * step)] = roundTo(dtype, double(v));
        }
      });
  return result;
}

} // namespace

std::optional<RefTensor> evalReduction(Operation &op, Operands operands) {
  if (auto r = dyn_cast<SumOp>(op))
    return reduce(op, Reduce::Sum, *operands[0], r.getAxes(), r.getKeepdims());
  if (auto r = dyn_cast<MeanOp>(op))
    return reduce(op, Reduce::Mean, *operands[0], r.getAxes(), r.getKeepdims());
  if (auto r = dyn_cast<MaxOp>(op))
    return reduce(op, Reduce::Max, *operands[0], r.getAxes(), r.getKeepdims());
  if (auto r = dyn_cast<MinOp>(op))
    return reduce(op, Reduce::Min, *operands[0], r.getAxes(), r.getKeepdims());
  if (auto r = dyn_cast<ProdOp>(op))
    return reduce(op, Reduce::Prod, *operands[0], r.getAxes(), r.getKeepdims());
  if (auto r = dyn_cast<LogSumExpOp>(op))
    return statistic(op, Statistic::LogSumExp, *operands[0], r.getAxes(),
                     r.getKeepdims());
  if (auto r = dyn_cast<VarOp>(op))
    return statistic(op, Statistic::Var, *operands[0], r.getAxes(),
                     r.getKeepdims(), int64_t(r.getDdof()));
  if (auto r = dyn_cast<StdOp>(op))
    return statistic(op, Statistic::Std, *operands[0], r.getAxes(),
                     r.getKeepdims(), int64_t(r.getDdof()));
  if (auto r = dyn_cast<ArgmaxOp>(op))
    return argmax(op, *operands[0], int64_t(r.getAxis()), r.getKeepdims());
  if (isa<MatmulOp>(op))
    return matmul(op, *operands[0], *operands[1]);
  if (auto s = dyn_cast<SoftmaxOp>(op))
    return softmax(op, *operands[0], int64_t(s.getAxis()), /*log=*/false);
  if (auto s = dyn_cast<LogSoftmaxOp>(op))
    return softmax(op, *operands[0], int64_t(s.getAxis()), /*log=*/true);
  return std::nullopt;
}

} // namespace tcc::reference::detail
