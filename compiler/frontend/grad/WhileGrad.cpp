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

using namespace mlir;
using namespace tcc;

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
    return grad::isFloatTensor(v) && active.contains(v) && relevant.contains(v);
  };
  bool anyIn = false;
  for (size_t k = 0; k < numStates; ++k)
    anyIn |= adjoint.count(loop.getResult(k)) != 0;
  SmallVector<Value> captured;
  for (Value v : grad::valuesFromAbove(loop, &loop.getBody()))
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
  grad::CarriedAdjoints carried = grad::carriedAdjoints(
      ctx, loop.getInits(), loop->getResults().take_front(numStates), captured,
      adjoint);
  ArrayRef<size_t> floatStates = carried.floatStates;
  SmallVector<TensorRef> &inits = carried.inits;
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

  // The forward step again, from the saved state, differentiated.
  Block &body = loop.getBodyBlock();
  IRMapping map;
  for (size_t k = 0; k < numStates; ++k)
    map.map(body.getArgument(k), states[k].value);
  SmallVector<std::pair<unsigned, TensorRef>> seeds;
  for (auto [i, k] : llvm::enumerate(floatStates))
    seeds.push_back({unsigned(k), dStates[i]});
  SmallVector<Value> inputs;
  for (size_t k : floatStates)
    inputs.push_back(states[k].value);
  inputs.append(captured.begin(), captured.end());
  llvm::DenseMap<Value, TensorRef> local;
  if (failed(differentiateStep(body, map, seeds, inputs, local, loc))) {
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
  at = 0;
  for (size_t k : floatStates)
    grad::accumulate(*this, adjoint, loop.getInits()[k], results[at++], loc);
  for (Value v : captured)
    grad::accumulate(*this, adjoint, v, results[at++], loc);
  return success();
}
