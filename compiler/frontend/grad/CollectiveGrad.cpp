//===- CollectiveGrad.cpp - gradients of the collectives ------------------===//
//
// The loss of a data-parallel program is the sum of the ranks' losses, so
// the adjoint of a value that every rank received is the sum of the ranks'
// adjoints: the gradient of all_gather is reduce_scatter (sum), of
// reduce_scatter (sum) all_gather, of all_reduce sum all_reduce sum, of
// all_reduce mean all_reduce mean; max and min share the summed adjoint
// equally among the elements (of every rank) equal to the result; the root
// of a broadcast receives the sum of every rank's adjoint, the others none.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;
using tc::ComparePredicate;

namespace {

/// hits * total / (number of hits over all ranks), hits = (x == y): equal
/// shares among ties, as the reductions' max and min do.
TensorRef shareAmongTies(GradContext &c, TensorRef x, TensorRef y,
                         TensorRef total, TensorRef ties) {
  Type t = x.elementType();
  TensorRef hits = c.builder.cast(c.loc, c.cmp(ComparePredicate::eq, x, y), t);
  if (!ties)
    ties = c.builder.allReduce(c.loc, hits, "sum");
  return c.mul(hits, c.div(total, ties));
}

LogicalResult allReduceRule(GradContext &c, Operation *op, TensorRef dy,
                            MutableArrayRef<TensorRef> dx) {
  StringRef reduction = cast<tc::AllReduceOp>(op).getReduction();
  if (reduction == "sum" || reduction == "mean") {
    dx[0] = c.builder.allReduce(c.loc, dy, reduction);
    return success();
  }
  TensorRef total = c.builder.allReduce(c.loc, dy, "sum");
  dx[0] = shareAmongTies(c, c.operand(op, 0), c.result(op), total, {});
  return success();
}

LogicalResult allGatherRule(GradContext &c, Operation *op, TensorRef dy,
                            MutableArrayRef<TensorRef> dx) {
  int64_t ranks = cast<tc::AllGatherOp>(op).getRanksAttr().getInt();
  dx[0] = c.builder.reduceScatter(c.loc, dy, "sum", ranks);
  return success();
}

LogicalResult reduceScatterRule(GradContext &c, Operation *op, TensorRef dy,
                                MutableArrayRef<TensorRef> dx) {
  auto scatter = cast<tc::ReduceScatterOp>(op);
  int64_t ranks = scatter.getRanksAttr().getInt();
  StringRef reduction = scatter.getReduction();
  TensorRef gathered = c.builder.allGather(c.loc, dy, ranks);
  if (reduction == "sum") {
    dx[0] = gathered;
    return success();
  }
  Type t = dy.elementType();
  if (reduction == "mean") {
    dx[0] = c.div(gathered, c.scalar(double(ranks), t));
    return success();
  }
  // max/min: this rank's elements equal to the result of their block.
  TensorRef x = c.operand(op, 0);
  TensorRef y = c.builder.allGather(c.loc, c.result(op), ranks);
  TensorRef hits = c.builder.cast(c.loc, c.cmp(ComparePredicate::eq, x, y), t);
  TensorRef ties = c.builder.allReduce(c.loc, hits, "sum");
  dx[0] = shareAmongTies(c, x, y, gathered, ties);
  return success();
}

LogicalResult broadcastRule(GradContext &c, Operation *op, TensorRef dy,
                            MutableArrayRef<TensorRef> dx) {
  int64_t root = cast<tc::BroadcastOp>(op).getRootAttr().getInt();
  TensorRef total = c.builder.allReduce(c.loc, dy, "sum");
  TensorRef rank = c.builder.processRank(c.loc);
  TensorRef rootRank = c.scalar(double(root), rank.elementType());
  dx[0] = c.where(c.cmp(ComparePredicate::eq, rank, rootRank), total);
  return success();
}

} // namespace

void tcc::grad::registerCollectiveGradRules(GradRuleTable &t) {
  t.add<tc::AllReduceOp>(allReduceRule);
  t.add<tc::AllGatherOp>(allGatherRule);
  t.add<tc::ReduceScatterOp>(reduceScatterRule);
  t.add<tc::BroadcastOp>(broadcastRule);
}
