//===- GradContext.cpp - what gradient rules build with ------------------===//
//
// Shorthands over the GraphBuilder for the rules, and the two shape moves
// every family needs: summing a broadcast adjoint back to its operand
// (unbroadcast) and stretching a reduced adjoint to its input (expandLike).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;
using tc::Dim;
using tc::Shape;

TensorRef GradContext::scalar(double value, Type elementType) {
  return builder.constant(loc, value, elementType);
}

TensorRef GradContext::add(TensorRef a, TensorRef b) {
  return builder.binary(loc, BinaryKind::Add, a, b);
}
TensorRef GradContext::sub(TensorRef a, TensorRef b) {
  return builder.binary(loc, BinaryKind::Sub, a, b);
}
TensorRef GradContext::mul(TensorRef a, TensorRef b) {
  return builder.binary(loc, BinaryKind::Mul, a, b);
}
TensorRef GradContext::div(TensorRef a, TensorRef b) {
  return builder.binary(loc, BinaryKind::Div, a, b);
}
TensorRef GradContext::neg(TensorRef a) {
  return builder.unary(loc, UnaryKind::Neg, a);
}
TensorRef GradContext::unary(UnaryKind kind, TensorRef a) {
  return builder.unary(loc, kind, a);
}
TensorRef GradContext::cmp(tc::ComparePredicate predicate, TensorRef a,
                           TensorRef b) {
  return builder.compare(loc, predicate, a, b);
}

TensorRef GradContext::where(TensorRef cond, TensorRef g) {
  if (!g)
    return {};
  return builder.select(loc, cond, g, scalar(0, g.elementType()));
}

TensorRef GradContext::whereNot(TensorRef cond, TensorRef g) {
  if (!g)
    return {};
  return builder.select(loc, cond, scalar(0, g.elementType()), g);
}

TensorRef GradContext::unbroadcast(TensorRef g, const Shape &to) {
  if (!g)
    return {};
  int64_t lead = int64_t(g.shape.size()) - int64_t(to.size());
  if (lead > 0) {
    auto axes = llvm::to_vector(llvm::seq<int64_t>(0, lead));
    g = builder.reduce(loc, ReduceKind::Sum, g, axes, /*keepdims=*/false);
    if (!g)
      return {};
  }
  SmallVector<int64_t> axes;
  for (auto [i, d] : llvm::enumerate(to))
    if (d.isStatic(1) && !g.shape[i].isStatic(1))
      axes.push_back(i);
  // An empty axis list would reduce every axis.
  if (!axes.empty())
    g = builder.reduce(loc, ReduceKind::Sum, g, axes, /*keepdims=*/true);
  return g;
}

TensorRef GradContext::keepReducedAxes(TensorRef g, const Shape &input,
                                       ArrayRef<int64_t> axes, bool keepdims) {
  if (!g || keepdims)
    return g;
  Shape kept = input;
  for (int64_t a : axes)
    kept[a] = Dim::fixed(1);
  if (kept.empty() || kept == g.shape)
    return g;
  return builder.reshape(loc, g, kept);
}

/// Whether `from` broadcasts to `to` with broadcast_to: equal dimensions,
/// or 1 against a static size (broadcast_to cannot invent a dynamic size).
static bool broadcastsStatically(const Shape &from, const Shape &to) {
  if (from.size() > to.size())
    return false;
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < to.size(); ++i) {
    if (i < offset) {
      if (to[i].isDynamic())
        return false;
      continue;
    }
    const Dim &f = from[i - offset], &t = to[i];
    bool same = f.isDynamic()
                    ? t.isDynamic() && !f.symbol.empty() && f.symbol == t.symbol
                    : f.size == t.size;
    if (!same && !(f.isStatic(1) && !t.isDynamic()))
      return false;
  }
  return true;
}

TensorRef GradContext::expandLike(TensorRef g, TensorRef like) {
  if (!g || !like)
    return {};
  if (g.shape == like.shape)
    return g;
  if (broadcastsStatically(g.shape, like.shape))
    return builder.broadcastTo(loc, g, like.shape);
  // A dynamic size comes from a tensor that has it: selecting between g and
  // g under a mask of `like`'s shape broadcasts g there (the mask's values do
  // not matter; the fused loop reads them and discards them).
  TensorRef mask =
      builder.cast(loc, like, IntegerType::get(builder.getContext(), 1));
  return builder.select(loc, mask, g, g);
}

TensorRef GradContext::reverse(TensorRef g, int64_t axis) {
  if (!g || g.shape[axis].isDynamic() || g.shape[axis].size <= 1)
    return g;
  int64_t k = g.shape[axis].size;
  Type i64 = IntegerType::get(builder.getContext(), 64);
  TensorRef ids = builder.arange(loc, Dim::fixed(k), double(k - 1), -1, i64);
  return builder.take(loc, g, ids, axis);
}

TensorRef GradContext::zerosLike(TensorRef like) {
  if (!like)
    return {};
  return expandLike(scalar(0, like.elementType()), like);
}

TensorRef GradContext::count(TensorRef input, ArrayRef<int64_t> axes) {
  Type elt = input.elementType();
  int64_t fixed = 1;
  TensorRef dynamic;
  for (int64_t a : axes) {
    const Dim &d = input.shape[a];
    if (!d.isDynamic()) {
      fixed *= d.size;
      continue;
    }
    TensorRef n = builder.cast(loc, builder.size(loc, input, a), elt);
    dynamic = dynamic ? mul(dynamic, n) : n;
  }
  if (!dynamic)
    return scalar(double(fixed), elt);
  return fixed == 1 ? dynamic : mul(dynamic, scalar(double(fixed), elt));
}

const GradRuleTable &tcc::grad::gradRules() {
  static const GradRuleTable table = [] {
    GradRuleTable t;
    registerElementwiseGradRules(t);
    registerReductionGradRules(t);
    registerContractionGradRules(t);
    registerDataMovementGradRules(t);
    registerIndexingGradRules(t);
    registerScanGradRules(t);
    registerConvGradRules(t);
    registerCollectiveGradRules(t);
    registerControlFlowGradRules(t);
    return t;
  }();
  return table;
}
