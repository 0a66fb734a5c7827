//===- ShapeInference.cpp - shape rules of the tc ops ---------------------===//

#include "dialects/tc/IR/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tcc::tc {

std::string Dim::str() const {
  if (!isDynamic())
    return std::to_string(size);
  return symbol.empty() ? "?" : symbol;
}

Shape shapeOf(RankedTensorType type) {
  Shape shape;
  for (int64_t size : type.getShape())
    shape.push_back(ShapedType::isDynamic(size) ? Dim::dynamic()
                                                : Dim::fixed(size));
  return shape;
}

SmallVector<int64_t> sizesOf(const Shape &shape) {
  return llvm::to_vector(
      llvm::map_range(shape, [](const Dim &d) { return d.size; }));
}

std::string formatShape(const Shape &shape) {
  std::string text = "[";
  llvm::interleave(
      shape, [&](const Dim &d) { text += d.str(); }, [&] { text += ", "; });
  return text + "]";
}

std::optional<int64_t> staticElementCount(const Shape &shape) {
  int64_t count = 1;
  for (const Dim &d : shape) {
    if (d.isDynamic() || d.size < 0)
      return std::nullopt;
    if (d.size != 0 && count > std::numeric_limits<int64_t>::max() / d.size)
      return std::nullopt;
    count *= d.size;
  }
  return count;
}

/// Broadcasts two aligned dimensions, or explains why not.
static FailureOr<Dim> broadcastDim(const Dim &a, const Dim &b,
                                   std::string &why) {
  if (a.isStatic(1))
    return b;
  if (b.isStatic(1))
    return a;
  if (!a.isDynamic() && !b.isDynamic()) {
    if (a.size == b.size)
      return a;
    why = a.str() + " vs " + b.str();
    return failure();
  }
  if (a.isDynamic() && b.isDynamic()) {
    if (!a.symbol.empty() && !b.symbol.empty() && a.symbol != b.symbol) {
      why = a.symbol + " vs " + b.symbol +
            " (distinct symbolic dimensions may differ at run time)";
      return failure();
    }
    return a.symbol.empty() ? b : a;
  }
  const Dim &dyn = a.isDynamic() ? a : b;
  const Dim &fixed = a.isDynamic() ? b : a;
  why = a.str() + " vs " + b.str() + " (dynamic dimension " + dyn.str() +
        " broadcasts only against 1 or itself, not against " + fixed.str() +
        ")";
  return failure();
}

FailureOr<Shape> broadcastShapes(ArrayRef<Shape> shapes,
                                 EmitErrorFn emitError) {
  size_t rank = 0;
  for (const Shape &s : shapes)
    rank = std::max(rank, s.size());
  Shape result(rank, Dim::fixed(1));
  for (const Shape &s : shapes) {
    size_t offset = rank - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      std::string why;
      FailureOr<Dim> d = broadcastDim(result[offset + i], s[i], why);
      if (failed(d)) {
        auto diag = emitError() << "cannot broadcast shapes ";
        llvm::interleave(
            shapes, [&](const Shape &x) { diag << formatShape(x); },
            [&] { diag << " and "; });
        diag << ": dimension " << (offset + i) << " is " << why;
        return failure();
      }
      result[offset + i] = *d;
    }
  }
  return result;
}

LogicalResult checkAxis(int64_t axis, int64_t rank, EmitErrorFn emitError) {
  if (axis >= 0 && axis < rank)
    return success();
  return emitError() << "axis " << axis << " is out of range for rank " << rank;
}

FailureOr<Shape> reduceShape(const Shape &input, ArrayRef<int64_t> axes,
                             bool keepdims, EmitErrorFn emitError) {
  int64_t rank = input.size();
  for (size_t i = 0; i < axes.size(); ++i) {
    if (failed(checkAxis(axes[i], rank, emitError)))
      return failure();
    if (i > 0 && axes[i] <= axes[i - 1])
      return emitError() << "reduction axes must be sorted and distinct, got ["
                         << llvm::make_range(axes.begin(), axes.end()) << "]";
  }
  Shape result;
  for (int64_t i = 0; i < rank; ++i) {
    if (!llvm::is_contained(axes, i))
      result.push_back(input[i]);
    else if (keepdims)
      result.push_back(Dim::fixed(1));
  }
  return result;
}

FailureOr<Shape> matmulShape(const Shape &lhs, const Shape &rhs,
                             EmitErrorFn emitError) {
  if (lhs.size() < 2 || rhs.size() < 2)
    return emitError() << "matmul needs operands of rank >= 2, got "
                       << formatShape(lhs) << " and " << formatShape(rhs);
  const Dim &k1 = lhs[lhs.size() - 1];
  const Dim &k2 = rhs[rhs.size() - 2];
  bool kMatch =
      k1.isDynamic() && k2.isDynamic()
          ? (k1.symbol.empty() || k2.symbol.empty() || k1.symbol == k2.symbol)
          : k1.size == k2.size;
  if (!kMatch)
    return emitError() << "matmul contraction dimensions differ: "
                       << formatShape(lhs) << " x " << formatShape(rhs) << " ("
                       << k1.str() << " vs " << k2.str() << ")";
  Shape lhsBatch(lhs.begin(), lhs.end() - 2);
  Shape rhsBatch(rhs.begin(), rhs.end() - 2);
  FailureOr<Shape> batch = broadcastShapes({lhsBatch, rhsBatch}, [&] {
    return emitError() << "matmul batch dimensions of " << formatShape(lhs)
                       << " and " << formatShape(rhs) << " do not broadcast: ";
  });
  if (failed(batch))
    return failure();
  Shape result = *batch;
  result.push_back(lhs[lhs.size() - 2]);
  result.push_back(rhs[rhs.size() - 1]);
  return result;
}

FailureOr<Shape> transposeShape(const Shape &input, ArrayRef<int64_t> perm,
                                EmitErrorFn emitError) {
  if (perm.size() != input.size())
    return emitError() << "permutation of length " << perm.size()
                       << " does not match rank " << input.size();
  SmallVector<bool> seen(input.size(), false);
  Shape result;
  for (int64_t p : perm) {
    if (p < 0 || p >= (int64_t)input.size() || seen[p])
      return emitError() << "[" << llvm::make_range(perm.begin(), perm.end())
                         << "] is not a permutation of [0, " << input.size()
                         << ")";
    seen[p] = true;
    result.push_back(input[p]);
  }
  return result;
}

FailureOr<Shape> sliceShape(const Shape &input, ArrayRef<int64_t> begin,
                            ArrayRef<int64_t> end, ArrayRef<int64_t> step,
                            EmitErrorFn emitError) {
  size_t rank = input.size();
  if (begin.size() != rank || end.size() != rank || step.size() != rank)
    return emitError() << "slice bounds need " << rank
                       << " entries each (the rank), got begin " << begin.size()
                       << ", end " << end.size() << ", step " << step.size();
  Shape result;
  for (size_t i = 0; i < rank; ++i) {
    bool endFits = input[i].isDynamic() || end[i] <= input[i].size;
    if (begin[i] < 0 || begin[i] > end[i] || !endFits || step[i] < 1)
      return emitError() << "slice " << begin[i] << ":" << end[i] << ":"
                         << step[i] << " is out of bounds for dimension " << i
                         << " of shape " << formatShape(input)
                         << " (need 0 <= begin <= end <= size, step >= 1)";
    result.push_back(Dim::fixed(llvm::divideCeil(end[i] - begin[i], step[i])));
  }
  return result;
}

FailureOr<Shape> concatShape(ArrayRef<Shape> inputs, int64_t axis,
                             EmitErrorFn emitError) {
  if (inputs.empty())
    return emitError() << "concatenation needs at least one input";
  const Shape &first = inputs.front();
  if (failed(checkAxis(axis, first.size(), emitError)))
    return failure();
  Shape result = first;
  for (const Shape &s : inputs.drop_front()) {
    if (s.size() != first.size())
      return emitError() << "cannot concatenate shapes " << formatShape(first)
                         << " and " << formatShape(s) << " of different rank";
    for (size_t i = 0; i < s.size(); ++i) {
      if ((int64_t)i == axis) {
        if (result[i].isDynamic() || s[i].isDynamic())
          result[i] = Dim::dynamic();
        else
          result[i].size += s[i].size;
        continue;
      }
      if (!(s[i] == first[i]) &&
          !(s[i].isDynamic() && first[i].isDynamic() &&
            (s[i].symbol.empty() || first[i].symbol.empty())))
        return emitError() << "cannot concatenate shapes " << formatShape(first)
                           << " and " << formatShape(s) << " along axis "
                           << axis << ": dimension " << i << " differs";
    }
  }
  return result;
}

/// Why reshaping `from` to `to` is invalid, or nothing when it is valid.
static std::optional<std::string> reshapeProblem(const Shape &from,
                                                 const Shape &to) {
  int64_t dynamicTo =
      llvm::count_if(to, [](const Dim &d) { return d.isDynamic(); });
  bool fromDynamic =
      llvm::any_of(from, [](const Dim &d) { return d.isDynamic(); });
  std::string what = "reshape of " + formatShape(from) + " to " +
                     formatShape(to);
  if (dynamicTo > 1)
    return what + ": at most one dimension may be dynamic";
  if (llvm::any_of(to,
                   [](const Dim &d) { return !d.isDynamic() && d.size < 0; }))
    return what + ": negative dimension";
  if (dynamicTo == 0 && fromDynamic)
    return what + ": a dynamic input cannot take a static shape";
  std::optional<int64_t> fromCount = staticElementCount(from);
  if (!fromCount)
    return std::nullopt;
  std::string count = " (" + std::to_string(*fromCount) + " elements)";
  if (dynamicTo == 0) {
    if (fromCount != staticElementCount(to))
      return "cannot reshape " + formatShape(from) + count + " to " +
             formatShape(to);
    return std::nullopt;
  }
  int64_t known = 1;
  for (const Dim &d : to)
    if (!d.isDynamic())
      known *= d.size;
  if (known == 0 ? *fromCount != 0 : *fromCount % known != 0)
    return "cannot reshape " + formatShape(from) + count + " to " +
           formatShape(to);
  return std::nullopt;
}

LogicalResult checkReshape(const Shape &from, const Shape &to,
                           EmitErrorFn emitError) {
  if (std::optional<std::string> problem = reshapeProblem(from, to))
    return emitError() << *problem;
  return success();
}

bool isValidReshape(const Shape &from, const Shape &to) {
  return !reshapeProblem(from, to).has_value();
}

LogicalResult checkBroadcastTo(const Shape &from, const Shape &to,
                               EmitErrorFn emitError) {
  if (from.size() > to.size())
    return emitError() << "cannot broadcast " << formatShape(from)
                       << " to the lower-rank shape " << formatShape(to);
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < to.size(); ++i) {
    const Dim &t = to[i];
    if (i < offset) {
      if (t.isDynamic())
        return emitError() << "cannot broadcast " << formatShape(from) << " to "
                           << formatShape(to) << ": new dimension " << i
                           << " must be static";
      continue;
    }
    const Dim &f = from[i - offset];
    bool ok = f.isStatic(1)
                  ? !t.isDynamic()
                  : (f.isDynamic() ? t.isDynamic() && (f.symbol.empty() ||
                                                       t.symbol.empty() ||
                                                       f.symbol == t.symbol)
                                   : f.size == t.size);
    if (f.isStatic(1) && t.isDynamic())
      ok = false;
    if (!ok)
      return emitError() << "cannot broadcast " << formatShape(from) << " to "
                         << formatShape(to) << ": dimension " << i << " is "
                         << f.str() << " vs " << t.str();
  }
  return success();
}

} // namespace tcc::tc
