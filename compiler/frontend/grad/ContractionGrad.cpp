//===- ContractionGrad.cpp - gradients of matmul and softmax -------------===//
//
// matmul (2-D, batched, and rank-3 by rank-2: the batch axes a matrix
// operand was broadcast over are summed), softmax and log_softmax (from
// their results, so no exponential can overflow).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;

namespace {

/// `x` with its last two axes swapped.
TensorRef swapLastTwo(GradContext &c, TensorRef x) {
  int64_t rank = x.shape.size();
  auto perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 1], perm[rank - 2]);
  return c.builder.transpose(c.loc, x, perm);
}

/// All dimensions of `shape` but the last as one (`[B, T, C]` gives `B*T`),
/// or std::nullopt when one of them is anonymous.
std::optional<tc::Dim> rowsOf(const tc::Shape &shape) {
  tc::DimProduct rows;
  for (const tc::Dim &d : ArrayRef<tc::Dim>(shape).drop_back()) {
    std::optional<tc::DimProduct> factor = tc::productOf(d);
    if (!factor)
      return std::nullopt;
    std::optional<tc::DimProduct> product = tc::multiply(rows, *factor);
    if (!product)
      return std::nullopt;
    rows = *product;
  }
  return tc::productDim(rows);
}

/// C = A B: dA = dC B^T, dB = A^T dC, each summed over the batch axes its
/// operand was broadcast along.
LogicalResult matmulRule(GradContext &c, Operation *op, TensorRef dy,
                         MutableArrayRef<TensorRef> dx) {
  TensorRef a = c.operand(op, 0), b = c.operand(op, 1);
  if (c.needs(0))
    dx[0] =
        c.unbroadcast(c.builder.matmul(c.loc, dy, swapLastTwo(c, b)), a.shape);
  if (!c.needs(1))
    return success();
  // [..., M, K] x [K, N]: dB = A^T dC over all rows at once, one 2-D
  // product of the rows [R, K] and [R, N]; a batched product summed over
  // the batch held a [..., K, N] temporary and left BLAS.
  std::optional<tc::Dim> rows;
  if (a.shape.size() >= 3 && b.shape.size() == 2)
    rows = rowsOf(a.shape);
  if (rows) {
    TensorRef aRows = c.builder.reshape(c.loc, a, {*rows, a.shape.back()});
    TensorRef dyRows = c.builder.reshape(c.loc, dy, {*rows, dy.shape.back()});
    dx[1] = c.builder.matmul(c.loc, swapLastTwo(c, aRows), dyRows);
    return success();
  }
  dx[1] =
      c.unbroadcast(c.builder.matmul(c.loc, swapLastTwo(c, a), dy), b.shape);
  return success();
}

/// y = softmax(x): dx = y * (dy - sum(dy * y, axis)).
LogicalResult softmaxRule(GradContext &c, Operation *op, TensorRef dy,
                          MutableArrayRef<TensorRef> dx) {
  int64_t axis = cast<tc::SoftmaxOp>(op).getAxis();
  TensorRef y = c.result(op);
  TensorRef dot = c.builder.reduce(c.loc, ReduceKind::Sum, c.mul(dy, y), {axis},
                                   /*keepdims=*/true);
  dx[0] = c.mul(y, c.sub(dy, dot));
  return success();
}

/// y = log_softmax(x): dx = dy - exp(y) * sum(dy, axis).
LogicalResult logSoftmaxRule(GradContext &c, Operation *op, TensorRef dy,
                             MutableArrayRef<TensorRef> dx) {
  int64_t axis = cast<tc::LogSoftmaxOp>(op).getAxis();
  TensorRef y = c.result(op);
  TensorRef total =
      c.builder.reduce(c.loc, ReduceKind::Sum, dy, {axis}, /*keepdims=*/true);
  dx[0] = c.sub(dy, c.mul(c.unary(UnaryKind::Exp, y), total));
  return success();
}

} // namespace

void tcc::grad::registerContractionGradRules(GradRuleTable &t) {
  t.add<tc::MatmulOp>(matmulRule);
  t.add<tc::SoftmaxOp>(softmaxRule);
  t.add<tc::LogSoftmaxOp>(logSoftmaxRule);
}
