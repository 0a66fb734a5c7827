//===- ShapeInference.cpp - shape rules of the tc ops ---------------------===//

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/SliceRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tcc::tc {

std::string Dim::str() const {
  if (!isDynamic())
    return std::to_string(size);
  return symbol.empty() ? "?" : symbol;
}

std::string DimProduct::str() const {
  std::string text;
  if (factors.empty() || coef != 1)
    text = std::to_string(coef);
  for (const std::string &f : factors)
    text += (text.empty() ? "" : "*") + f;
  return text;
}

bool isProductSymbol(StringRef symbol) {
  return !symbol.empty() && !llvm::all_of(symbol, [](char c) {
    return llvm::isAlnum(c) || c == '_';
  });
}

std::optional<DimProduct> productOf(const Dim &dim) {
  DimProduct p;
  if (!dim.isDynamic()) {
    p.coef = dim.size;
    return p;
  }
  if (dim.symbol.empty())
    return std::nullopt;
  // Split at the '*'s outside parentheses; no recursion.
  StringRef text = dim.symbol;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : '*';
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    if (c != '*' || depth != 0)
      continue;
    StringRef piece = text.slice(start, i);
    start = i + 1;
    if (piece.empty())
      return std::nullopt;
    int64_t value;
    if (llvm::isDigit(piece[0])) {
      if (piece.getAsInteger(10, value) ||
          llvm::MulOverflow(p.coef, value, p.coef))
        return std::nullopt;
      continue;
    }
    p.factors.push_back(piece.str());
  }
  if (depth != 0)
    return std::nullopt;
  llvm::sort(p.factors);
  return p;
}

Dim productDim(DimProduct product) {
  if (product.factors.empty() || product.coef == 0)
    return Dim::fixed(product.coef);
  llvm::sort(product.factors);
  return Dim::dynamic(product.str());
}

std::optional<DimProduct> multiply(const DimProduct &a, const DimProduct &b) {
  DimProduct r;
  if (llvm::MulOverflow(a.coef, b.coef, r.coef))
    return std::nullopt;
  r.factors = a.factors;
  r.factors.append(b.factors.begin(), b.factors.end());
  llvm::sort(r.factors);
  return r;
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

/// Whether two dynamic dimensions may have the same size at run time: an
/// anonymous one, the same name, or a product (`B*T` may equal `N`; the
/// tc-shape-checks pass compares them before the call). Distinct plain
/// names are taken as distinct sizes.
static bool mayBeEqual(const Dim &a, const Dim &b) {
  return a.symbol.empty() || b.symbol.empty() || a.symbol == b.symbol ||
         isProductSymbol(a.symbol) || isProductSymbol(b.symbol);
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
    if (!mayBeEqual(a, b)) {
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

LogicalResult checkReducesElements(StringRef op, const Shape &input,
                                   ArrayRef<int64_t> axes,
                                   EmitErrorFn emitError) {
  for (int64_t axis : axes)
    if (axis >= 0 && axis < (int64_t)input.size() && input[axis].isStatic(0))
      return emitError() << "'" << op << "' over axis " << axis
                         << ", which is empty: " << op
                         << " of no elements has no value";
  return success();
}

FailureOr<Shape> matmulShape(const Shape &lhs, const Shape &rhs,
                             EmitErrorFn emitError) {
  if (lhs.size() < 2 || rhs.size() < 2)
    return emitError() << "matmul needs operands of rank >= 2, got "
                       << formatShape(lhs) << " and " << formatShape(rhs);
  const Dim &k1 = lhs[lhs.size() - 1];
  const Dim &k2 = rhs[rhs.size() - 2];
  bool kMatch = k1.isDynamic() && k2.isDynamic() ? mayBeEqual(k1, k2)
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
    if (!isValidSliceStep(step[i]))
      return emitError() << "slice step " << step[i] << " of dimension " << i
                         << " must be nonzero";
    if (!input[i].isDynamic()) {
      result.push_back(Dim::fixed(
          adjustSlice(input[i].size, begin[i], end[i], step[i]).length));
      continue;
    }
    SliceForm form = classifySlice(begin[i], end[i], step[i]);
    if (form.kind != SliceForm::Kind::Computed) {
      result.push_back(Dim::fixed(form.length));
      continue;
    }
    // An anonymous size gets a placeholder name: a length that does not
    // depend on it (0 for `-1:0:2`) is static all the same.
    std::optional<DimProduct> n = productOf(input[i]);
    std::string size = n ? n->str() : "N";
    std::string length = slicedLengthExpr(size, begin[i], end[i], step[i]);
    if (length == "0")
      result.push_back(Dim::fixed(0));
    else if (length == size)
      result.push_back(input[i]);
    else
      result.push_back(n ? Dim::dynamic("(" + length + ")") : Dim::dynamic());
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
        // N + N is 2*N, N + 2 is `(N+2)` (as tc-shape-checks writes sums);
        // with an anonymous size the sum has no name.
        std::optional<DimProduct> a = productOf(result[i]), b = productOf(s[i]);
        if (!result[i].isDynamic() && !s[i].isDynamic())
          result[i].size += s[i].size;
        else if (a && b && a->factors == b->factors &&
                 !llvm::AddOverflow(a->coef, b->coef, a->coef))
          result[i] = productDim(*a);
        else if (a && b && a->coef != 0 && b->coef != 0)
          result[i] = Dim::dynamic("(" + a->str() + "+" + b->str() + ")");
        else if (a && b)
          result[i] = a->coef == 0 ? s[i] : result[i];
        else
          result[i] = Dim::dynamic();
        continue;
      }
      if (!(s[i] == first[i]) && !(s[i].isDynamic() && first[i].isDynamic() &&
                                   mayBeEqual(s[i], first[i])))
        return emitError() << "cannot concatenate shapes " << formatShape(first)
                           << " and " << formatShape(s) << " along axis "
                           << axis << ": dimension " << i << " differs";
    }
  }
  return result;
}

/// `a * b`, or nothing when it overflows int64.
static std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t product;
  if (llvm::MulOverflow(a, b, product))
    return std::nullopt;
  return product;
}

/// Resolves a reshape target and checks it against the input, or says why
/// it is invalid. With `allowInfer`, one static -1 in `to` is inferred.
///
/// Symbolic target dimensions must come from the input. They cancel out:
/// the input's other dimensions, when static, must hold as many elements as
/// the target's other dimensions ([N, 2, 3] -> [N, 6], [N, 4] -> [N, 2, -1]).
/// Anonymous dynamic dimensions (`?`, as the verifier sees every dynamic
/// size) match nothing, so only what the static sizes prove is checked.
static FailureOr<Shape> resolveReshape(const Shape &from, const Shape &to,
                                       bool allowInfer, std::string &problem) {
  std::string what =
      "reshape of " + formatShape(from) + " to " + formatShape(to);
  auto fail = [&](std::string message) -> FailureOr<Shape> {
    problem = std::move(message);
    return failure();
  };
  std::optional<size_t> inferred;
  for (auto [i, d] : llvm::enumerate(to)) {
    if (d.isDynamic() || d.size >= 0)
      continue;
    if (!allowInfer)
      return fail(what + ": negative dimension");
    if (d.size != -1)
      return fail("reshape to a negative dimension " + std::to_string(d.size));
    if (inferred)
      return fail("reshape can infer only one dimension (-1)");
    inferred = i;
  }

  auto dynamicCount = [](const Shape &s) {
    return llvm::count_if(s, [](const Dim &d) { return d.isDynamic(); });
  };
  if (dynamicCount(to) > 1)
    return fail(what + ": at most one dimension may be dynamic");

  // Cancel each symbolic target dimension against one of the input.
  SmallVector<bool> used(from.size(), false);
  SmallVector<bool> matchedTo(to.size(), false);
  for (auto [i, d] : llvm::enumerate(to)) {
    if (!d.isDynamic() || d.symbol.empty())
      continue;
    size_t j = 0;
    while (j < from.size() && (used[j] || !(from[j] == d)))
      ++j;
    if (j == from.size())
      return fail(what + ": the input has no dimension " + d.symbol);
    used[j] = true;
    matchedTo[i] = true;
  }
  // What is left on each side: the input's count (when static) and the
  // product of the target's static sizes.
  std::string symbols;
  const Dim *leftDynamic = nullptr;
  Shape restFrom;
  for (auto [j, d] : llvm::enumerate(from)) {
    if (used[j])
      symbols += d.symbol + " x ";
    else if (d.isDynamic() && !leftDynamic)
      leftDynamic = &d;
    if (!used[j])
      restFrom.push_back(d);
  }
  std::optional<int64_t> toKnown = 1;
  bool toAnonymous = false;
  for (auto [i, d] : llvm::enumerate(to)) {
    if (matchedTo[i] || (inferred && i == *inferred))
      continue;
    if (d.isDynamic())
      toAnonymous = true;
    else if (toKnown)
      toKnown = checkedMul(*toKnown, d.size);
  }

  Shape result = to;
  std::optional<int64_t> fromCount = staticElementCount(restFrom);
  if (leftDynamic) {
    // Nothing is known about the count: -1 stays dynamic, and a target
    // without a dynamic size of its own cannot hold the input.
    if (inferred)
      result[*inferred] = Dim::dynamic();
    else if (!toAnonymous && symbols.empty())
      return fail(what + ": a dynamic input cannot take a static shape");
    else if (!toAnonymous)
      return fail(what + ": the target has no place for the input's " +
                  "dimension " + leftDynamic->str());
  } else if (!fromCount) {
    // More elements than int64 counts: nothing to check.
    if (inferred)
      result[*inferred] = Dim::dynamic();
  } else {
    auto count = [&](int64_t n) {
      return "(" + symbols + std::to_string(n) + " elements)";
    };
    std::string cannot = "cannot reshape " + formatShape(from) + " " +
                         count(*fromCount) + " to " + formatShape(to);
    if (inferred || toAnonymous) {
      // The dynamic size is the quotient; a zero product leaves it open.
      bool divides = toKnown && (*toKnown == 0 ? !inferred && *fromCount == 0
                                               : *fromCount % *toKnown == 0);
      if (!divides)
        return fail(cannot);
      if (inferred)
        result[*inferred] = Dim::fixed(*fromCount / *toKnown);
    } else if (toKnown != fromCount) {
      if (symbols.empty() || !toKnown)
        return fail(cannot);
      return fail(cannot + " " + count(*toKnown));
    }
  }
  if (dynamicCount(result) > 1)
    return fail(what + ": at most one dimension may be dynamic");
  return result;
}

/// A reshape between named (symbolic product) shapes: the products of both
/// sides, factor by factor. [B, T, C] to [B*T, C], [B*T, C] to [B, T, C],
/// [N, 5] to [-1, 3] (the -1 is `(5*N/3)`; the runtime checks that 3
/// divides 5*N). At most one target dimension is unknown (-1 or `?`); it is
/// the quotient. Fails without a problem when the input has an anonymous
/// dimension.
static FailureOr<Shape> resolveProductReshape(const Shape &from,
                                              const Shape &to, bool allowInfer,
                                              std::string &problem) {
  DimProduct in;
  for (const Dim &d : from) {
    std::optional<DimProduct> p = productOf(d);
    if (!p)
      return failure();
    std::optional<DimProduct> m = multiply(in, *p);
    if (!m)
      return failure();
    in = *m;
  }
  DimProduct out;
  std::optional<size_t> unknown;
  std::string what =
      "reshape of " + formatShape(from) + " to " + formatShape(to);
  for (auto [i, d] : llvm::enumerate(to)) {
    std::optional<DimProduct> p;
    if (!d.isDynamic() && d.size < 0) {
      if (!allowInfer || d.size != -1)
        return failure();
    } else {
      p = productOf(d);
    }
    if (!p) {
      if (unknown)
        return failure(); // the classic rules say which
      unknown = i;
      continue;
    }
    std::optional<DimProduct> m = multiply(out, *p);
    if (!m)
      return failure();
    out = *m;
  }
  // Cancel the target's factors against the input's.
  SmallVector<std::string, 2> rest = in.factors;
  for (const std::string &f : out.factors) {
    auto it = llvm::find(rest, f);
    if (it == rest.end()) {
      problem = what + ": the input has no dimension " + f;
      return failure();
    }
    rest.erase(it);
  }
  // "N x 4 elements", as the classic rules count.
  auto count = [](const DimProduct &p) {
    std::string text;
    for (const std::string &f : p.factors)
      text += f + " x ";
    return "(" + text + std::to_string(p.coef) + " elements)";
  };
  std::string cannot = "cannot reshape " + formatShape(from) + " " + count(in) +
                       " to " + formatShape(to);
  Shape result = to;
  if (!unknown) {
    if (!rest.empty() || in.coef != out.coef) {
      problem = cannot + " " + count(out);
      return failure();
    }
    return result;
  }
  DimProduct quotient{1, rest};
  if (out.coef == 0) {
    if (!to[*unknown].isDynamic()) {
      problem = what + ": -1 is not determined when the other sizes are 0";
      return failure();
    }
    result[*unknown] = Dim::dynamic();
    return result;
  }
  if (in.coef % out.coef == 0) {
    quotient.coef = in.coef / out.coef;
    if (quotient.coef == 0) {
      // Empty either way: the size stays open for the lowering to compute.
      result[*unknown] = Dim::dynamic();
      return result;
    }
  } else if (rest.empty()) {
    problem = cannot;
    return failure();
  } else {
    // Not a product: an expression the runtime evaluates after checking
    // that it divides.
    quotient.factors = {"(" + DimProduct{in.coef, rest}.str() + "/" +
                        std::to_string(out.coef) + ")"};
  }
  result[*unknown] = productDim(quotient);
  return result;
}

/// Whether a reshape needs resolveProductReshape: products in a shape, or
/// more than one dynamic (or -1) target dimension.
static bool needsProducts(const Shape &from, const Shape &to) {
  auto isProduct = [](const Dim &d) { return isProductSymbol(d.symbol); };
  int64_t open =
      llvm::count_if(to, [](const Dim &d) { return d.isDynamic(); }) +
      llvm::any_of(to, [](const Dim &d) { return d.isStatic(-1); });
  return llvm::any_of(from, isProduct) || llvm::any_of(to, isProduct) ||
         open > 1;
}

/// Both ways of resolving a reshape: the product rules where the shapes
/// need them, the classic rules (and their messages) otherwise, preferring
/// a named result to an anonymous one.
static FailureOr<Shape> resolveAnyReshape(const Shape &from, const Shape &to,
                                          bool allowInfer,
                                          std::string &problem) {
  if (needsProducts(from, to)) {
    std::string productProblem;
    FailureOr<Shape> result =
        resolveProductReshape(from, to, allowInfer, productProblem);
    if (succeeded(result))
      return result;
    if (!productProblem.empty()) {
      problem = productProblem;
      return failure();
    }
    return resolveReshape(from, to, allowInfer, problem);
  }
  FailureOr<Shape> result = resolveReshape(from, to, allowInfer, problem);
  if (failed(result) || llvm::none_of(*result, [](const Dim &d) {
        return d.isDynamic() && d.symbol.empty();
      }))
    return result;
  std::string ignored;
  FailureOr<Shape> named = resolveProductReshape(from, to, allowInfer, ignored);
  return succeeded(named) ? named : result;
}

FailureOr<Shape> inferReshape(const Shape &from, const Shape &to,
                              EmitErrorFn emitError) {
  std::string problem;
  FailureOr<Shape> result = resolveAnyReshape(from, to, true, problem);
  if (failed(result))
    return emitError() << problem;
  return result;
}

LogicalResult checkReshape(const Shape &from, const Shape &to,
                           EmitErrorFn emitError) {
  std::string problem;
  if (failed(resolveAnyReshape(from, to, false, problem)))
    return emitError() << problem;
  return success();
}

bool isValidReshape(const Shape &from, const Shape &to) {
  std::string problem;
  return succeeded(resolveAnyReshape(from, to, false, problem));
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
    bool ok = f.isStatic(1) ? !t.isDynamic()
                            : (f.isDynamic() ? t.isDynamic() && mayBeEqual(f, t)
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
