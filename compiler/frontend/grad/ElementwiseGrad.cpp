//===- ElementwiseGrad.cpp - gradients of elementwise ops ----------------===//
//
// Unary math, binary arithmetic with broadcasting (the adjoint of an operand
// is summed over the axes broadcasting stretched), select and clip. Rounding
// and sign are piecewise constant: their gradient is zero. Ties of maximum,
// minimum and clip go to the first operand (the input, for clip).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;
using tc::ComparePredicate;

namespace {

/// `dy * f'(x)` for a unary op, given x, y = f(x) and dy.
using UnaryDerivative = TensorRef (*)(GradContext &c, TensorRef x, TensorRef y,
                                      TensorRef dy);

template <UnaryDerivative derivative>
LogicalResult unaryRule(GradContext &c, Operation *op, TensorRef dy,
                        MutableArrayRef<TensorRef> dx) {
  if (c.needs(0))
    dx[0] = derivative(c, c.operand(op, 0), c.result(op), dy);
  return success();
}

/// Piecewise-constant ops (floor, ceil, round, sign): zero gradient.
LogicalResult zeroRule(GradContext &, Operation *, TensorRef,
                       MutableArrayRef<TensorRef>) {
  return success();
}

TensorRef one(GradContext &c, TensorRef like) {
  return c.scalar(1, like.elementType());
}

TensorRef dNeg(GradContext &c, TensorRef, TensorRef, TensorRef dy) {
  return c.neg(dy);
}
TensorRef dAbs(GradContext &c, TensorRef x, TensorRef, TensorRef dy) {
  return c.mul(dy, c.unary(UnaryKind::Sign, x));
}
/// relu'(0) is 0, as in PyTorch and JAX.
TensorRef dRelu(GradContext &c, TensorRef x, TensorRef, TensorRef dy) {
  return c.where(c.cmp(ComparePredicate::gt, x, c.scalar(0, x.elementType())),
                 dy);
}
TensorRef dExp(GradContext &c, TensorRef, TensorRef y, TensorRef dy) {
  return c.mul(dy, y);
}
TensorRef dLog(GradContext &c, TensorRef x, TensorRef, TensorRef dy) {
  return c.div(dy, x);
}
TensorRef dTanh(GradContext &c, TensorRef, TensorRef y, TensorRef dy) {
  return c.mul(dy, c.sub(one(c, y), c.mul(y, y)));
}
TensorRef dSigmoid(GradContext &c, TensorRef, TensorRef y, TensorRef dy) {
  return c.mul(dy, c.mul(y, c.sub(one(c, y), y)));
}
TensorRef dSqrt(GradContext &c, TensorRef, TensorRef y, TensorRef dy) {
  return c.div(c.mul(dy, c.scalar(0.5, y.elementType())), y);
}
/// d/dx x^(-1/2) = -1/2 x^(-3/2) = -y / (2x).
TensorRef dRsqrt(GradContext &c, TensorRef x, TensorRef y, TensorRef dy) {
  return c.mul(dy, c.div(c.mul(y, c.scalar(-0.5, y.elementType())), x));
}
TensorRef dErf(GradContext &c, TensorRef x, TensorRef, TensorRef dy) {
  Type t = x.elementType();
  TensorRef e = c.unary(UnaryKind::Exp, c.neg(c.mul(x, x)));
  return c.mul(dy, c.mul(e, c.scalar(2 / std::sqrt(M_PI), t)));
}
TensorRef dLog1p(GradContext &c, TensorRef x, TensorRef, TensorRef dy) {
  return c.div(dy, c.add(x, one(c, x)));
}
TensorRef dExpm1(GradContext &c, TensorRef, TensorRef y, TensorRef dy) {
  return c.mul(dy, c.add(y, one(c, y)));
}
TensorRef dSoftplus(GradContext &c, TensorRef x, TensorRef, TensorRef dy) {
  return c.mul(dy, c.unary(UnaryKind::Sigmoid, x));
}
TensorRef dSin(GradContext &c, TensorRef x, TensorRef, TensorRef dy) {
  return c.mul(dy, c.unary(UnaryKind::Cos, x));
}
TensorRef dCos(GradContext &c, TensorRef x, TensorRef, TensorRef dy) {
  return c.neg(c.mul(dy, c.unary(UnaryKind::Sin, x)));
}

/// Fills the adjoints of a binary op's operands from their unbroadcast
/// partial products: `da` and `db` build dy * d(op)/d(operand).
template <typename DA, typename DB>
void binary(GradContext &c, Operation *op, MutableArrayRef<TensorRef> dx, DA da,
            DB db) {
  TensorRef a = c.operand(op, 0), b = c.operand(op, 1);
  if (c.needs(0))
    dx[0] = c.unbroadcast(da(a, b), a.shape);
  if (c.needs(1))
    dx[1] = c.unbroadcast(db(a, b), b.shape);
}

LogicalResult addRule(GradContext &c, Operation *op, TensorRef dy,
                      MutableArrayRef<TensorRef> dx) {
  binary(
      c, op, dx, [&](TensorRef, TensorRef) { return dy; },
      [&](TensorRef, TensorRef) { return dy; });
  return success();
}

LogicalResult subRule(GradContext &c, Operation *op, TensorRef dy,
                      MutableArrayRef<TensorRef> dx) {
  binary(
      c, op, dx, [&](TensorRef, TensorRef) { return dy; },
      [&](TensorRef, TensorRef) { return c.neg(dy); });
  return success();
}

LogicalResult mulRule(GradContext &c, Operation *op, TensorRef dy,
                      MutableArrayRef<TensorRef> dx) {
  binary(
      c, op, dx, [&](TensorRef, TensorRef b) { return c.mul(dy, b); },
      [&](TensorRef a, TensorRef) { return c.mul(dy, a); });
  return success();
}

/// d(a/b)/db = -a/b^2 = -(a/b)/b.
LogicalResult divRule(GradContext &c, Operation *op, TensorRef dy,
                      MutableArrayRef<TensorRef> dx) {
  TensorRef y = c.result(op);
  binary(
      c, op, dx, [&](TensorRef, TensorRef b) { return c.div(dy, b); },
      [&](TensorRef, TensorRef b) { return c.neg(c.div(c.mul(dy, y), b)); });
  return success();
}

/// d(a^b)/da = b a^(b-1); d(a^b)/db = a^b log(a), taken as 0 where a <= 0
/// (where a^b is only defined for integral b and not differentiable in b).
LogicalResult powRule(GradContext &c, Operation *op, TensorRef dy,
                      MutableArrayRef<TensorRef> dx) {
  TensorRef y = c.result(op);
  binary(
      c, op, dx,
      [&](TensorRef a, TensorRef b) {
        TensorRef p =
            c.builder.binary(c.loc, BinaryKind::Pow, a, c.sub(b, one(c, b)));
        return c.mul(dy, c.mul(b, p));
      },
      [&](TensorRef a, TensorRef) {
        TensorRef zero = c.scalar(0, a.elementType());
        TensorRef positive = c.cmp(ComparePredicate::gt, a, zero);
        // log of a positive stand-in where a <= 0, so no NaN is produced
        // for the branch select drops.
        TensorRef safe = c.builder.select(c.loc, positive, a, one(c, a));
        TensorRef log = c.unary(UnaryKind::Log, safe);
        return c.where(positive, c.mul(dy, c.mul(y, log)));
      });
  return success();
}

/// maximum (pick = ge) and minimum (pick = le): the adjoint goes to the
/// operand that was chosen, to the first one on ties.
template <ComparePredicate pick>
LogicalResult extremumRule(GradContext &c, Operation *op, TensorRef dy,
                           MutableArrayRef<TensorRef> dx) {
  TensorRef a = c.operand(op, 0), b = c.operand(op, 1);
  TensorRef first = c.cmp(pick, a, b);
  binary(
      c, op, dx, [&](TensorRef, TensorRef) { return c.where(first, dy); },
      [&](TensorRef, TensorRef) { return c.whereNot(first, dy); });
  return success();
}

/// select(cond, t, f): the adjoint goes where it was taken from.
LogicalResult selectRule(GradContext &c, Operation *op, TensorRef dy,
                         MutableArrayRef<TensorRef> dx) {
  TensorRef cond = c.operand(op, 0);
  if (c.needs(1))
    dx[1] = c.unbroadcast(c.where(cond, dy), c.operand(op, 1).shape);
  if (c.needs(2))
    dx[2] = c.unbroadcast(c.whereNot(cond, dy), c.operand(op, 2).shape);
  return success();
}

/// clip(x, low, high) = minimum(maximum(x, low), high): x gets the adjoint
/// where low <= x <= high (ties included), low where x < low <= high, and
/// high where the result is high (also when low > high).
LogicalResult clipRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  TensorRef x = c.operand(op, 0), low = c.operand(op, 1),
            high = c.operand(op, 2);
  TensorRef raised = c.builder.binary(c.loc, BinaryKind::Maximum, x, low);
  TensorRef underHigh = c.cmp(ComparePredicate::le, raised, high);
  TensorRef dRaised = c.where(underHigh, dy);
  TensorRef xChosen = c.cmp(ComparePredicate::ge, x, low);
  if (c.needs(0))
    dx[0] = c.unbroadcast(c.where(xChosen, dRaised), x.shape);
  if (c.needs(1))
    dx[1] = c.unbroadcast(c.whereNot(xChosen, dRaised), low.shape);
  if (c.needs(2))
    dx[2] = c.unbroadcast(c.whereNot(underHigh, dy), high.shape);
  return success();
}

} // namespace

void tcc::grad::registerElementwiseGradRules(GradRuleTable &t) {
  t.add<tc::NegOp>(unaryRule<dNeg>);
  t.add<tc::AbsOp>(unaryRule<dAbs>);
  t.add<tc::ReluOp>(unaryRule<dRelu>);
  t.add<tc::ExpOp>(unaryRule<dExp>);
  t.add<tc::LogOp>(unaryRule<dLog>);
  t.add<tc::TanhOp>(unaryRule<dTanh>);
  t.add<tc::SigmoidOp>(unaryRule<dSigmoid>);
  t.add<tc::SqrtOp>(unaryRule<dSqrt>);
  t.add<tc::RsqrtOp>(unaryRule<dRsqrt>);
  t.add<tc::ErfOp>(unaryRule<dErf>);
  t.add<tc::Log1pOp>(unaryRule<dLog1p>);
  t.add<tc::Expm1Op>(unaryRule<dExpm1>);
  t.add<tc::SoftplusOp>(unaryRule<dSoftplus>);
  t.add<tc::SinOp>(unaryRule<dSin>);
  t.add<tc::CosOp>(unaryRule<dCos>);
  t.add<tc::FloorOp>(zeroRule);
  t.add<tc::CeilOp>(zeroRule);
  t.add<tc::RoundOp>(zeroRule);
  t.add<tc::SignOp>(zeroRule);
  t.add<tc::AddOp>(addRule);
  t.add<tc::SubOp>(subRule);
  t.add<tc::MulOp>(mulRule);
  t.add<tc::DivOp>(divRule);
  t.add<tc::PowOp>(powRule);
  t.add<tc::MaximumOp>(extremumRule<ComparePredicate::ge>);
  t.add<tc::MinimumOp>(extremumRule<ComparePredicate::le>);
  t.add<tc::SelectOp>(selectRule);
  t.add<tc::ClipOp>(clipRule);
}
