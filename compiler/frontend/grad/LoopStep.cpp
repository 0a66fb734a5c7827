//===- LoopStep.cpp - one loop step differentiated, for scan and while ----===//
//
// Backpropagation through a scan (LoopGrad.cpp) and through a while
// (WhileGrad.cpp) build the same backward step: a backward scan carries
// the adjoints of the float states and the sums of the adjoints of the
// values the body reads from above, recomputes the forward step from the
// state it saved, and differentiates it with the ordinary rules. They
// differ in what they iterate over and in what a step that did not run
// does; the parts they share are here.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"
#include "compiler/frontend/grad/GradRules.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tcc;

bool grad::isFloatTensor(Value v) {
  return isa<FloatType>(cast<ShapedType>(v.getType()).getElementType());
}

llvm::SetVector<Value> grad::valuesFromAbove(Operation *op, Region *only) {
  // Upstream's getUsedValuesDefinedAbove misses those of a block not yet in
  // a region, such as the body of a scan being built.
  llvm::SetVector<Value> values;
  auto visit = [&](Operation *inner) {
    if (inner == op)
      return;
    for (Value v : inner->getOperands()) {
      Operation *owner = v.getDefiningOp();
      if (!owner)
        owner = v.getParentBlock()->getParentOp();
      if (!owner || !op->isAncestor(owner) ||
          (owner == op && v.getDefiningOp() == op))
        values.insert(v);
    }
  };
  if (only)
    only->walk(visit);
  else
    op->walk(visit);
  return values;
}

SmallVector<Value> grad::operandsAndCaptures(Operation *op) {
  SmallVector<Value> values(op->getOperands());
  if (op->getNumRegions() == 0)
    return values;
  for (Value v : valuesFromAbove(op))
    if (!llvm::is_contained(values, v))
      values.push_back(v);
  return values;
}

void grad::accumulate(GraphBuilder &builder,
                      llvm::DenseMap<Value, TensorRef> &adjoint, Value v,
                      TensorRef d, Location loc) {
  if (!d)
    return;
  auto [it, first] = adjoint.try_emplace(v, d);
  if (!first)
    it->second = builder.binary(loc, BinaryKind::Add, it->second, d);
}

grad::CarriedAdjoints
grad::carriedAdjoints(GradContext &ctx, ValueRange inits, ValueRange finals,
                      ArrayRef<Value> captured,
                      const llvm::DenseMap<Value, TensorRef> &adjoint) {
  CarriedAdjoints carried;
  for (auto [k, init] : llvm::enumerate(inits)) {
    if (!isFloatTensor(init))
      continue;
    carried.floatStates.push_back(k);
    auto it = adjoint.find(finals[k]);
    carried.inits.push_back(it != adjoint.end() ? it->second
                                                : ctx.zerosLike(ctx.ref(init)));
  }
  for (Value v : captured)
    carried.inits.push_back(ctx.zerosLike(ctx.ref(v)));
  return carried;
}

LogicalResult GraphBuilder::differentiateStep(
    Block &body, IRMapping &map, ArrayRef<std::pair<unsigned, TensorRef>> seeds,
    ArrayRef<Value> inputs, llvm::DenseMap<Value, TensorRef> &local,
    Location loc) {
  SmallVector<Operation *> step;
  for (Operation &op : body.without_terminator()) {
    Operation *copy = builder.clone(op, map);
    step.push_back(copy);
    // The copies have the symbolic shapes of the originals.
    SmallVector<Value> from, to;
    op.walk(
        [&](Operation *o) { from.append(o->result_begin(), o->result_end()); });
    copy->walk(
        [&](Operation *o) { to.append(o->result_begin(), o->result_end()); });
    for (auto [f, t] : llvm::zip(from, to))
      if (auto it = valueShapes.find(f); it != valueShapes.end())
        valueShapes[t] = it->second;
  }
  auto yield = llvm::cast<tc::YieldOp>(body.getTerminator());
  for (auto [index, d] : seeds)
    grad::accumulate(*this, local,
                     map.lookupOrDefault(yield.getValues()[index]), d, loc);
  llvm::DenseSet<Value> active(inputs.begin(), inputs.end()), relevant;
  for (auto &[v, d] : local)
    relevant.insert(v);
  markActive(step, active);
  markRelevant(step, relevant);
  return backpropagate(step, active, relevant, local, loc);
}
