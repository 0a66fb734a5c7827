//===- ReductionGrad.cpp - gradients of reductions -----------------------===//
//
// sum, mean, max, min, prod, logsumexp, var and std, with and without
// keepdims. The adjoint of the result is first given back its reduced axes
// (size 1), then broadcast over the input by the rule's arithmetic.
// max and min split the adjoint equally among tied maxima (minima), so the
// gradient's sum is the adjoint, as in PyTorch's amax and JAX.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;
using tc::ComparePredicate;

namespace {

/// The input and the adjoint with the reduced axes kept; `result()` gives
/// the result so too (made only for the rules that read it).
struct Reduction {
  GradContext &c;
  Operation *op;
  TensorRef x, dy;
  SmallVector<int64_t> axes;
  bool keepdims;

  TensorRef result() {
    return c.keepReducedAxes(c.result(op), x.shape, axes, keepdims);
  }
};

template <typename Op> Reduction kept(GradContext &c, Op op, TensorRef dy) {
  TensorRef x = c.operand(op, 0);
  auto axes = llvm::to_vector(op.getAxes());
  bool keep = op.getKeepdims();
  return Reduction{c,    op,  x, c.keepReducedAxes(dy, x.shape, axes, keep),
                   axes, keep};
}

template <typename Op>
LogicalResult sumRule(GradContext &c, Operation *op, TensorRef dy,
                      MutableArrayRef<TensorRef> dx) {
  Reduction r = kept(c, cast<Op>(op), dy);
  dx[0] = c.expandLike(r.dy, r.x);
  return success();
}

LogicalResult meanRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  Reduction r = kept(c, cast<tc::MeanOp>(op), dy);
  dx[0] = c.expandLike(c.div(r.dy, c.count(r.x, r.axes)), r.x);
  return success();
}

/// max and min: equal shares among the elements equal to the result.
template <typename Op>
LogicalResult extremumRule(GradContext &c, Operation *op, TensorRef dy,
                           MutableArrayRef<TensorRef> dx) {
  Reduction r = kept(c, cast<Op>(op), dy);
  Type t = r.x.elementType();
  TensorRef hit = c.cmp(ComparePredicate::eq, r.x, r.result());
  TensorRef hits = c.builder.cast(c.loc, hit, t);
  TensorRef ties = c.builder.reduce(c.loc, ReduceKind::Sum, hits, r.axes,
                                    /*keepdims=*/true);
  dx[0] = c.mul(hits, c.div(r.dy, ties));
  return success();
}

/// prod: dy * (product of the other elements), exact with zeros: where x is
/// the only zero of its group, the product of the others; where the group
/// has another zero, 0; elsewhere y / x.
LogicalResult prodRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  Reduction r = kept(c, cast<tc::ProdOp>(op), dy);
  Type t = r.x.elementType();
  TensorRef zero = c.scalar(0, t), one = c.scalar(1, t);
  TensorRef isZero = c.cmp(ComparePredicate::eq, r.x, zero);
  TensorRef zeros = c.builder.reduce(c.loc, ReduceKind::Sum,
                                     c.builder.cast(c.loc, isZero, t), r.axes,
                                     /*keepdims=*/true);
  TensorRef nonzero = c.builder.select(c.loc, isZero, one, r.x);
  TensorRef othersOfZero = c.builder.reduce(c.loc, ReduceKind::Prod, nonzero,
                                            r.axes, /*keepdims=*/true);
  TensorRef onlyZero = c.cmp(ComparePredicate::eq, zeros, one);
  TensorRef atZero = c.where(onlyZero, othersOfZero);
  TensorRef elsewhere = c.div(r.result(), nonzero);
  TensorRef others = c.builder.select(c.loc, isZero, atZero, elsewhere);
  dx[0] = c.mul(r.dy, others);
  return success();
}

/// logsumexp: dy * softmax(x) = dy * exp(x - y).
LogicalResult logSumExpRule(GradContext &c, Operation *op, TensorRef dy,
                            MutableArrayRef<TensorRef> dx) {
  Reduction r = kept(c, cast<tc::LogSumExpOp>(op), dy);
  dx[0] = c.mul(r.dy, c.unary(UnaryKind::Exp, c.sub(r.x, r.result())));
  return success();
}

/// var: dy * 2 (x - mean) / (n - ddof); std = sqrt(var): dy / (2 std) times
/// var's.
template <typename Op, bool isStd>
LogicalResult momentRule(GradContext &c, Operation *op, TensorRef dy,
                         MutableArrayRef<TensorRef> dx) {
  auto moment = cast<Op>(op);
  Reduction r = kept(c, moment, dy);
  Type t = r.x.elementType();
  TensorRef mean =
      c.builder.reduce(c.loc, ReduceKind::Mean, r.x, r.axes, /*keepdims=*/true);
  TensorRef dof =
      c.sub(c.count(r.x, r.axes), c.scalar(double(moment.getDdof()), t));
  TensorRef scale = isStd ? c.div(r.dy, c.mul(dof, r.result()))
                          : c.div(c.mul(r.dy, c.scalar(2, t)), dof);
  dx[0] = c.mul(c.sub(r.x, mean), scale);
  return success();
}

} // namespace

void tcc::grad::registerReductionGradRules(GradRuleTable &t) {
  t.add<tc::SumOp>(sumRule<tc::SumOp>);
  t.add<tc::MeanOp>(meanRule);
  t.add<tc::MaxOp>(extremumRule<tc::MaxOp>);
  t.add<tc::MinOp>(extremumRule<tc::MinOp>);
  t.add<tc::ProdOp>(prodRule);
  t.add<tc::LogSumExpOp>(logSumExpRule);
  t.add<tc::VarOp>(momentRule<tc::VarOp, false>);
  t.add<tc::StdOp>(momentRule<tc::StdOp, true>);
}
