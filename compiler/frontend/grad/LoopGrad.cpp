//===- LoopGrad.cpp - backpropagation through scans and ifelse ------------===//
//
// The adjoint of a scan is another scan, over the same steps backwards.
// The forward scan stacks the state each step starts from (endScan adds
// those results; the lowering drops them when no grad reads them), so the
// backward scan needs no more memory per step than one state: each
// backward step recomputes its forward step from the saved state and the
// step's sequence rows, then differentiates that step with the ordinary
// rules (backpropagate, so a scan in the body recurses here). It carries
// the adjoints of the states and the sums of the adjoints of the values
// the body reads from above (weights), and stacks the adjoints of the
// sequence rows.
//
// Row order: the forward step i reads row t(i) of a sequence (t(i) = i,
// or n - 1 - i going backwards) and stacks at i. The backward scan runs
// backwards over sequences indexed by i: the saved states, the adjoints
// of the stacked outputs, and the forward sequences in step order (read
// through reversed ids when the forward scan went backwards); its own
// stacked adjoints come out in reverse step order and are put back into
// sequence order the same way.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"
#include "compiler/frontend/grad/GradRules.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tcc;

LogicalResult GraphBuilder::gradScan(tc::ScanOp scan,
                                     const llvm::DenseSet<Value> &active,
                                     const llvm::DenseSet<Value> &relevant,
                                     llvm::DenseMap<Value, TensorRef> &adjoint,
                                     Location loc) {
  size_t numStates = scan.getInits().size();
  size_t numSeqs = scan.getSequences().size();
  bool saved = scan->hasAttr(kSavedStatesAttr);
  if (numStates != 0 && !saved)
    return error(loc) << "grad through a scan needs the states it saved "
                         "for each step (a scan built by "
                         "GraphBuilder::beginScan, or a .tg scan)";
  size_t numOutputs =
      scan.getNumResults() - numStates - (saved ? numStates : 0);
  auto needs = [&](Value v) {
    return grad::isFloatTensor(v) && active.contains(v) && relevant.contains(v);
  };
  // Which adjoints flow in: the final states' and the stacked outputs'.
  bool anyIn = false;
  for (size_t r = 0; r < numStates + numOutputs; ++r)
    anyIn |= adjoint.count(scan.getResult(r)) != 0;
  // The values the body reads from above (an operand too, such as a
  // sequence the body also reads whole, gets both adjoints).
  llvm::SetVector<Value> above = grad::valuesFromAbove(scan);
  SmallVector<Value> captured;
  for (Value v : above)
    if (needs(v))
      captured.push_back(v);
  bool anyOut = !captured.empty();
  for (Value v : scan->getOperands())
    anyOut |= needs(v);
  if (!anyIn || !anyOut)
    return success();

  // The number of steps and the ids that reverse the steps' order.
  Value lengthOf = numOutputs + numStates > 0 ? scan.getResult(numStates)
                                              : Value(scan.getSequences()[0]);
  tc::Dim length = valueRef(lengthOf).shape[0];
  TensorRef reversedIds;
  auto reverseRows = [&](TensorRef t) -> TensorRef {
    if (!reversedIds) {
      Type i64 = builder.getI64Type();
      TensorRef n = dimensionSize(loc, length);
      if (!n)
        return {};
      TensorRef last = binary(loc, BinaryKind::Sub, n, constant(loc, 1.0, i64));
      reversedIds =
          binary(loc, BinaryKind::Sub, last, arange(loc, length, 0, 1, i64));
    }
    return take(loc, t, reversedIds, 0);
  };

  grad::GradContext ctx(*this, loc);
  grad::CarriedAdjoints carried = grad::carriedAdjoints(
      ctx, scan.getInits(), scan->getResults().take_front(numStates), captured,
      adjoint);
  ArrayRef<size_t> floatStates = carried.floatStates;
  SmallVector<TensorRef> &inits = carried.inits;
  // Iterated backwards: the saved states, the stacked outputs' adjoints,
  // the forward sequences in step order.
  SmallVector<TensorRef> sequences;
  for (size_t k = 0; k < numStates; ++k)
    sequences.push_back(valueRef(scan.getResult(numStates + numOutputs + k)));
  SmallVector<size_t> outputsIn;
  for (size_t j = 0; j < numOutputs; ++j) {
    auto it = adjoint.find(scan.getResult(numStates + j));
    if (it == adjoint.end())
      continue;
    outputsIn.push_back(j);
    sequences.push_back(it->second);
  }
  for (Value seq : scan.getSequences())
    sequences.push_back(scan.getReverse() ? reverseRows(valueRef(seq))
                                          : valueRef(seq));
  for (const TensorRef &t : inits)
    if (!t)
      return failure();
  for (const TensorRef &t : sequences)
    if (!t)
      return failure();
  std::optional<tc::Dim> steps;
  if (sequences.empty())
    steps = length;
  FailureOr<SmallVector<TensorRef>> args =
      beginScan(loc, inits, sequences, steps, /*reverse=*/true);
  if (failed(args))
    return failure();
  size_t at = 0;
  ArrayRef<TensorRef> dStates = ArrayRef(*args).slice(at, floatStates.size());
  at += floatStates.size();
  ArrayRef<TensorRef> dCaptured = ArrayRef(*args).slice(at, captured.size());
  at += captured.size();
  ArrayRef<TensorRef> states = ArrayRef(*args).slice(at, numStates);
  at += numStates;
  ArrayRef<TensorRef> dOutputs = ArrayRef(*args).slice(at, outputsIn.size());
  at += outputsIn.size();
  ArrayRef<TensorRef> rows = ArrayRef(*args).slice(at, numSeqs);

  // The forward step again, from the saved state, differentiated.
  Block &body = scan.getBodyBlock();
  IRMapping map;
  for (size_t k = 0; k < numStates; ++k)
    map.map(body.getArgument(k), states[k].value);
  for (size_t m = 0; m < numSeqs; ++m)
    map.map(body.getArgument(numStates + m), rows[m].value);
  SmallVector<std::pair<unsigned, TensorRef>> seeds;
  for (auto [i, k] : llvm::enumerate(floatStates))
    seeds.push_back({unsigned(k), dStates[i]});
  for (auto [i, j] : llvm::enumerate(outputsIn))
    seeds.push_back({unsigned(numStates + j), dOutputs[i]});
  SmallVector<Value> inputs;
  for (size_t k : floatStates)
    inputs.push_back(states[k].value);
  for (const TensorRef &row : rows)
    if (grad::isFloatTensor(row.value))
      inputs.push_back(row.value);
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
  SmallVector<TensorRef> next, perStep;
  for (size_t k : floatStates)
    next.push_back(adjointOf(states[k]));
  for (auto [m, v] : llvm::enumerate(captured)) {
    auto it = local.find(v);
    next.push_back(it != local.end()
                       ? binary(loc, BinaryKind::Add, dCaptured[m], it->second)
                       : dCaptured[m]);
  }
  SmallVector<size_t> rowsOut;
  for (size_t m = 0; m < numSeqs; ++m)
    if (needs(scan.getSequences()[m])) {
      rowsOut.push_back(m);
      perStep.push_back(adjointOf(rows[m]));
    }
  if (perStep.empty() && next.empty()) {
    abandonScan();
    return success();
  }
  SmallVector<TensorRef> results = endScan(loc, next, perStep);
  if (results.empty())
    return failure();

  at = 0;
  for (size_t k : floatStates)
    grad::accumulate(*this, adjoint, scan.getInits()[k], results[at++], loc);
  for (Value v : captured)
    grad::accumulate(*this, adjoint, v, results[at++], loc);
  for (size_t m : rowsOut) {
    TensorRef d = results[at++];
    grad::accumulate(*this, adjoint, scan.getSequences()[m],
                     scan.getReverse() ? d : reverseRows(d), loc);
  }
  return success();
}

/// ifelse: the adjoint goes to the value taken, through another ifelse, so
/// only the taken branch's gradient is computed either.
static LogicalResult gradIfElse(grad::GradContext &ctx, Operation *op,
                                TensorRef dy, MutableArrayRef<TensorRef> dx) {
  TensorRef condition = ctx.operand(op, 0);
  TensorRef zeros = ctx.zerosLike(dy);
  if (ctx.needs(1))
    dx[1] = ctx.builder.ifElse(ctx.loc, condition, dy, zeros);
  if (ctx.needs(2))
    dx[2] = ctx.builder.ifElse(ctx.loc, condition, zeros, dy);
  return success();
}

void grad::registerControlFlowGradRules(GradRuleTable &table) {
  table.add<tc::IfElseOp>(gradIfElse);
}
