//===- WhileGrad.cpp - backpropagation through while loops ----------------===//
//
// A while that ran n steps is a scan of n steps, but n is known only at
// run time while a scan's stacked buffers are sized before the loop. So
// the adjoint is a scan backwards over all `max_steps` rows of the states
// the while saved (endWhile adds them): a row below n is a step that ran,
// recomputed from its saved state and differentiated with the ordinary
// rules as in grad through scan (LoopGrad.cpp); a row at or above n passes
// the adjoints through unchanged. The choice is an ifelse, so the rows
// that did not run cost a branch and a copy of the adjoints, not a step.
// The condition has no gradient (it is a bool).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"
#include "compiler/frontend/grad/GradRules.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tcc;

/// The values that `region`'s ops use from outside `op`.
static llvm::SetVector<Value> capturedBy(Operation *op, Region &region) {
  llvm::SetVector<Value> values;
  region.walk([&](Operation *inner) {
    for (Value v : inner->getOperands()) {
      Operation *owner = v.getDefiningOp();
      if (!owner)
        owner = v.getParentBlock()->getParentOp();
      if (!owner || !op->isAncestor(owner) ||
          (owner == op && v.getDefiningOp() == op))
        values.insert(v);
    }
  });
  return values;
}

static bool isFloat(Value v) {
  return isa<FloatType>(cast<ShapedType>(v.getType()).getElementType());
}

LogicalResult GraphBuilder::gradWhile(tc::WhileOp loop,
                                      const llvm::DenseSet<Value> &active,
                                      const llvm::DenseSet<Value> &relevant,
                                      llvm::DenseMap<Value, TensorRef> &adjoint,
                                      Location loc) {
  size_t numStates = loop.getInits().size();
  if (loop.getSavedStates().size() != numStates)
    return error(loc) << "grad through a while loop needs the states it "
                         "saved for each step (a while built by "
                         "GraphBuilder::beginWhile, or a .tg while)";
  auto needs = [&](Value v) {
    return isFloat(v) && active.contains(v) && relevant.contains(v);
  };
  bool anyIn = false;
  for (size_t k = 0; k < numStates; ++k)
    anyIn |= adjoint.count(loop.getResult(k)) != 0;
  SmallVector<Value> captured;
  for (Value v : capturedBy(loop, loop.getBody()))
    if (needs(v))
      captured.push_back(v);
  bool anyOut = !captured.empty();
  for (Value v : loop.getInits())
    anyOut |= needs(v);
  if (!anyIn || !anyOut)
    return success();

  grad::GradContext ctx(*this, loc);
  Type i64 = builder.getI64Type();
  tc::Dim maxSteps = valueRef(loop.getSavedStates()[0]).shape[0];
  // Carried backwards: the float states' adjoints, then the sums of the
  // captured values' adjoints.
  SmallVector<size_t> floatStates;
  SmallVector<TensorRef> inits;
  for (size_t k = 0; k < numStates; ++k) {
    Value init = loop.getInits()[k];
    if (!isFloat(init))
      continue;
    floatStates.push_back(k);
    auto it = adjoint.find(loop.getResult(k));
    inits.push_back(it != adjoint.end() ? it->second
                                        : ctx.zerosLike(valueRef(init)));
  }
  for (Value v : captured)
    inits.push_back(ctx.zerosLike(valueRef(v)));
  // Iterated backwards: the saved states and the row numbers.
  SmallVector<TensorRef> sequences;
  for (Value saved : loop.getSavedStates())
    sequences.push_back(valueRef(saved));
  sequences.push_back(arange(loc, maxSteps, 0, 1, i64));
  TensorRef trips = valueRef(loop.getTripCount());
  for (const TensorRef &t : inits)
    if (!t)
      return failure();
  for (const TensorRef &t : sequences)
    if (!t)
      return failure();
  FailureOr<SmallVector<TensorRef>> args =
      beginScan(loc, inits, sequences, std::nullopt, /*reverse=*/true);
  if (failed(args))
    return failure();
  size_t at = 0;
  ArrayRef<TensorRef> dStates = ArrayRef(*args).slice(at, floatStates.size());
  at += floatStates.size();
  ArrayRef<TensorRef> dCaptured = ArrayRef(*args).slice(at, captured.size());
  at += captured.size();
  ArrayRef<TensorRef> states = ArrayRef(*args).slice(at, numStates);
  at += numStates;
  TensorRef row = (*args)[at];
  TensorRef ran = compare(loc, tc::ComparePredicate::lt, row, trips);

  // The forward step again, from the saved state.
  Block &body = loop.getBodyBlock();
  IRMapping map;
  for (size_t k = 0; k < numStates; ++k)
    map.map(body.getArgument(k), states[k].value);
  SmallVector<Operation *> step;
  for (Operation &op : body.without_terminator()) {
    Operation *copy = builder.clone(op, map);
    step.push_back(copy);
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
  llvm::DenseMap<Value, TensorRef> local;
  auto seed = [&](Value v, const TensorRef &d) {
    auto [it, first] = local.try_emplace(v, d);
    if (!first)
      it->second = binary(loc, BinaryKind::Add, it->second, d);
  };
  for (auto [i, k] : llvm::enumerate(floatStates))
    seed(map.lookupOrDefault(yield.getValues()[k]), dStates[i]);
  llvm::DenseSet<Value> stepActive, stepRelevant;
  for (size_t k : floatStates)
    stepActive.insert(states[k].value);
  for (Value v : captured)
    stepActive.insert(v);
  for (auto &[v, d] : local)
    stepRelevant.insert(v);
  markActive(step, stepActive);
  markRelevant(step, stepRelevant);
  if (failed(backpropagate(step, stepActive, stepRelevant, local, loc))) {
    abandonScan();
    return failure();
  }
  auto adjointOf = [&](const TensorRef &v) {
    auto it = local.find(v.value);
    return it != local.end() ? it->second : ctx.zerosLike(v);
  };
  // A row that did not run passes the adjoints on unchanged.
  SmallVector<TensorRef> next;
  for (auto [i, k] : llvm::enumerate(floatStates))
    next.push_back(ifElse(loc, ran, adjointOf(states[k]), dStates[i]));
  for (auto [m, v] : llvm::enumerate(captured)) {
    auto it = local.find(v);
    if (it == local.end()) {
      next.push_back(dCaptured[m]);
      continue;
    }
    next.push_back(
        ifElse(loc, ran, binary(loc, BinaryKind::Add, dCaptured[m], it->second),
               dCaptured[m]));
  }
  SmallVector<TensorRef> results = endScan(loc, next, {});
  if (results.empty())
    return failure();
  auto accumulate = [&](Value v, TensorRef d) {
    if (!d)
      return;
    auto [it, first] = adjoint.try_emplace(v, d);
    if (!first)
      it->second = binary(loc, BinaryKind::Add, it->second, d);
  };
  at = 0;
  for (size_t k : floatStates)
    accumulate(loop.getInits()[k], results[at++]);
  for (Value v : captured)
    accumulate(v, results[at++]);
  return success();
}
