//===- IndexingGrad.cpp - gradients of gathers, scatters and constructors ===//
//
// take, take_along_axis, scatter_add and dynamic_slice move elements by ids
// known only at run time, so their adjoints move them back with the same
// ids: a gather's adjoint is a scatter_add into zeros, a scatter_add's is a
// gather. The ids were checked by the forward op, so the adjoint cannot
// fail on them. Constructors (iota, one_hot, random) have no float operand
// that the result varies with: their rule gives zero; full passes the sum
// of its adjoint to its scalar value.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;
using tc::Dim;
using tc::Shape;

namespace {

/// No gradient reaches any operand (the result is constant in them).
LogicalResult zeroRule(GradContext &, Operation *, TensorRef,
                       MutableArrayRef<TensorRef>) {
  return success();
}

/// take: the adjoint rows are added back at their ids (repeated ids add).
LogicalResult takeRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  int64_t axis = cast<tc::TakeOp>(op).getAxis();
  TensorRef x = c.operand(op, 0);
  dx[0] =
      c.builder.scatterAdd(c.loc, c.zerosLike(x), c.operand(op, 1), dy, axis);
  return success();
}

/// scatter_add: the input's adjoint is the result's; the updates' is the
/// result's adjoint gathered at the ids.
LogicalResult scatterAddRule(GradContext &c, Operation *op, TensorRef dy,
                             MutableArrayRef<TensorRef> dx) {
  int64_t axis = cast<tc::ScatterAddOp>(op).getAxis();
  if (c.needs(0))
    dx[0] = dy;
  if (c.needs(2))
    dx[2] = c.builder.take(c.loc, dy, c.operand(op, 1), axis);
  return success();
}

/// take_along_axis: each picked element's adjoint goes back to the place
/// its id names. With the ids one-hot along a new last axis (negative ids
/// made positive first), that is `sum_k onehot(ids)[.., k, .., j] * dy[..,
/// k, ..]` over the ids' axis, moved back to `axis`. The one-hot compares
/// the ids with `iota(n)`, n the input's size along `axis`, static or not.
LogicalResult takeAlongAxisRule(GradContext &c, Operation *op, TensorRef dy,
                                MutableArrayRef<TensorRef> dx) {
  int64_t axis = cast<tc::TakeAlongAxisOp>(op).getAxis();
  TensorRef x = c.operand(op, 0), ids = c.operand(op, 1);
  const Dim &n = x.shape[axis];
  Type idType = ids.elementType();
  TensorRef size =
      n.isDynamic()
          ? c.builder.cast(c.loc, c.builder.size(c.loc, x, axis), idType)
          : c.scalar(double(n.size), idType);
  TensorRef wrapped = c.builder.select(
      c.loc, c.cmp(tc::ComparePredicate::lt, ids, c.scalar(0, idType)),
      c.add(ids, size), ids);
  Shape idColumn = ids.shape;
  idColumn.push_back(Dim::fixed(1));
  TensorRef positions = c.builder.iota(c.loc, {n}, 0, idType); // [n]
  TensorRef hot = c.builder.cast(
      c.loc,
      c.cmp(tc::ComparePredicate::eq,
            c.builder.reshape(c.loc, wrapped, idColumn), positions),
      x.elementType()); // [.., n]
  if (!hot)
    return failure();
  int64_t rank = x.shape.size();
  Shape column = dy.shape;
  column.push_back(Dim::fixed(1));
  TensorRef spread = c.mul(hot, c.builder.reshape(c.loc, dy, column));
  TensorRef summed = c.builder.reduce(c.loc, ReduceKind::Sum, spread, {axis},
                                      /*keepdims=*/false); // n last
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank - 1; ++i) {
    if (i == axis)
      perm.push_back(rank - 1);
    perm.push_back(i);
  }
  if (axis == rank - 1)
    perm.push_back(rank - 1);
  dx[0] = c.builder.transpose(c.loc, summed, perm);
  return success();
}

/// dynamic_slice: zeros with the slice added at its run-time start, one
/// axis at a time (from the last), as scatter_add of the rows
/// `start + [0, size)`. Axes taken whole (start 0) need no scatter.
LogicalResult dynamicSliceRule(GradContext &c, Operation *op, TensorRef dy,
                               MutableArrayRef<TensorRef> dx) {
  auto slice = cast<tc::DynamicSliceOp>(op);
  TensorRef x = c.operand(op, 0);
  ArrayRef<int64_t> sizes = slice.getSizes();
  Type i64 = IntegerType::get(c.builder.getContext(), 64);
  TensorRef g = dy;
  for (int64_t axis = int64_t(sizes.size()) - 1; axis >= 0 && g; --axis) {
    if (x.shape[axis].isStatic(sizes[axis]))
      continue;
    Shape target = g.shape;
    target[axis] = x.shape[axis];
    TensorRef zeros =
        c.builder.full(c.loc, target, c.scalar(0, x.elementType()));
    TensorRef start =
        c.builder.cast(c.loc, c.operand(op, 1 + axis), i64); // rank 0
    TensorRef rows =
        c.add(c.builder.iota(c.loc, {Dim::fixed(sizes[axis])}, 0, i64), start);
    if (!zeros || !rows)
      return failure();
    g = c.builder.scatterAdd(c.loc, zeros, rows, g, axis);
  }
  dx[0] = g;
  return success();
}

/// full: every element is the value, so the value's adjoint is the sum.
LogicalResult fullRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  if (!c.needs(0))
    return success();
  if (dy.shape.empty()) {
    dx[0] = dy;
    return success();
  }
  auto axes = llvm::to_vector(llvm::seq<int64_t>(0, dy.shape.size()));
  dx[0] = c.builder.reduce(c.loc, ReduceKind::Sum, dy, axes,
                           /*keepdims=*/false);
  return success();
}

} // namespace

void tcc::grad::registerIndexingGradRules(GradRuleTable &t) {
  t.add<tc::TakeOp>(takeRule);
  t.add<tc::TakeAlongAxisOp>(takeAlongAxisRule);
  t.add<tc::ScatterAddOp>(scatterAddRule);
  t.add<tc::DynamicSliceOp>(dynamicSliceRule);
  t.add<tc::FullOp>(fullRule);
  t.add<tc::IotaOp>(zeroRule);
  t.add<tc::OneHotOp>(zeroRule);
  t.add<tc::RandomOp>(zeroRule);
}
