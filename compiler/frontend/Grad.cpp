//===- Grad.cpp - reverse-mode symbolic differentiation -------------------===//
//
// GraphBuilder::grad: the gradient of a scalar with respect to values of the
// function being built, as more tc ops of that function. The body is one
// block in definition order, so one forward pass finds the ops that depend
// on a `wrt` (active), one backward pass the ops `y` depends on (relevant),
// and a second backward pass over the ops that are both asks each op's rule
// (grad/GradRules.h) for the adjoints of its operands, summing the adjoints
// of values used more than once. Values taken as constants
// (consider_constant) pass no gradient back to what they are made of.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"
#include "compiler/frontend/grad/GradRules.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tcc;

static bool isFloatTensor(Value v) {
  return isa<FloatType>(cast<ShapedType>(v.getType()).getElementType());
}

SmallVector<TensorRef> GraphBuilder::grad(TensorRef y, ArrayRef<TensorRef> wrt,
                                          Location loc,
                                          ArrayRef<Location> wrtLocs,
                                          ArrayRef<TensorRef> constants) {
  SmallVector<TensorRef> results(wrt.size());
  unsigned errorsAtStart = errorCount;
  if (!y || llvm::any_of(wrt, [](const TensorRef &r) { return !r; }) ||
      llvm::any_of(constants, [](const TensorRef &r) { return !r; }))
    return results;
  auto locOf = [&](size_t i) { return i < wrtLocs.size() ? wrtLocs[i] : loc; };
  if (!currentFunction) {
    error(loc) << "grad is only defined inside a function";
    return results;
  }
  Block *body = &currentFunction.getBody().front();
  std::string yType =
      elementTypeName(y.elementType()) + tc::formatShape(y.shape);
  if (!y.shape.empty()) {
    error(loc) << "grad differentiates a scalar, got " << yType
               << "; reduce it first (sum or mean)";
    return results;
  }
  if (!isa<FloatType>(y.elementType())) {
    error(loc) << "grad differentiates a floating-point scalar, got " << yType;
    return results;
  }
  for (auto [i, w] : llvm::enumerate(wrt)) {
    if (Value(w.value).getParentBlock() != body) {
      error(locOf(i)) << "grad with respect to a value of another function";
      return results;
    }
    if (!isa<FloatType>(w.elementType())) {
      error(locOf(i)) << "grad with respect to a tensor of "
                      << elementTypeName(w.elementType())
                      << tc::formatShape(w.shape)
                      << ": only floating-point tensors have gradients";
      return results;
    }
  }
  if (y.value.getParentBlock() != body) {
    error(loc) << "grad of a value of another function";
    return results;
  }
  llvm::DenseSet<Value> stopAt;
  for (const TensorRef &c : constants) {
    if (Value(c.value).getParentBlock() != body) {
      error(loc) << "grad with a constant (consider_constant) of another "
                    "function";
      return results;
    }
    stopAt.insert(c.value);
  }

  // The ops up to y's, in definition order (none when y is an argument).
  SmallVector<Operation *> ops;
  if (Operation *def = y.value.getDefiningOp())
    for (Operation &op : *body) {
      ops.push_back(&op);
      if (&op == def)
        break;
    }

  // Active: floating-point values that depend on a wrt.
  llvm::DenseSet<Value> active;
  for (const TensorRef &w : wrt)
    active.insert(w.value);
  markActive(ops, active);

  // Relevant: values y depends on.
  llvm::DenseSet<Value> relevant{y.value};
  markRelevant(ops, relevant);

  // Adjoints, summed over uses.
  llvm::DenseMap<Value, TensorRef> adjoint;
  adjoint[y.value] = constant(loc, 1.0, y.elementType());
  grad::GradContext ctx(*this, loc);
  if (failed(backpropagate(ops, active, relevant, adjoint, loc, &stopAt)))
    return results;

  for (auto [i, w] : llvm::enumerate(wrt)) {
    auto it = adjoint.find(w.value);
    results[i] = it != adjoint.end() ? it->second : ctx.zerosLike(w);
    // Data parallelism: each rank's gradient of its shard's loss, averaged,
    // is the gradient of the whole batch's (mean) loss.
    if (options.dataParallel && w.value.getDefiningOp<tc::SharedReadOp>())
      results[i] = allReduce(locOf(i), results[i], "mean");
  }
  if (errorCount != errorsAtStart)
    return SmallVector<TensorRef>(wrt.size());
  return results;
}

void GraphBuilder::markActive(ArrayRef<Operation *> ops,
                              llvm::DenseSet<Value> &active) {
  for (Operation *op : ops)
    if (llvm::any_of(grad::operandsAndCaptures(op),
                     [&](Value v) { return active.contains(v); }))
      for (Value r : op->getResults())
        if (isFloatTensor(r))
          active.insert(r);
}

void GraphBuilder::markRelevant(ArrayRef<Operation *> ops,
                                llvm::DenseSet<Value> &relevant) {
  for (Operation *op : llvm::reverse(ops))
    if (llvm::any_of(op->getResults(),
                     [&](Value r) { return relevant.contains(r); }))
      for (Value v : grad::operandsAndCaptures(op))
        relevant.insert(v);
}

LogicalResult GraphBuilder::backpropagate(
    ArrayRef<Operation *> ops, const llvm::DenseSet<Value> &active,
    const llvm::DenseSet<Value> &relevant,
    llvm::DenseMap<Value, TensorRef> &adjoint, Location loc,
    const llvm::DenseSet<Value> *constants) {
  grad::GradContext ctx(*this, loc);
  const grad::GradRuleTable &rules = grad::gradRules();
  // The adjoints of constants (consider_constant), set aside when their op
  // is reached so that it passes nothing back, and put back at the end: a
  // constant that is also a wrt keeps its own gradient. (Every use of a
  // value comes after its op, so its adjoint is complete by then.)
  SmallVector<std::pair<Value, TensorRef>> heldBack;
  for (Operation *op : llvm::reverse(ops)) {
    if (constants)
      for (Value r : op->getResults())
        if (constants->contains(r))
          if (auto it = adjoint.find(r); it != adjoint.end()) {
            heldBack.emplace_back(r, it->second);
            adjoint.erase(it);
          }
    if (auto scan = dyn_cast<tc::ScanOp>(op)) {
      if (failed(gradScan(scan, active, relevant, adjoint, loc)))
        return failure();
      continue;
    }
    if (auto loop = dyn_cast<tc::WhileOp>(op)) {
      if (failed(gradWhile(loop, active, relevant, adjoint, loc)))
        return failure();
      continue;
    }
    if (op->getNumResults() != 1)
      continue;
    Value result = op->getResult(0);
    auto dy = adjoint.find(result);
    if (dy == adjoint.end() || !active.contains(result))
      continue;
    // A wrt itself (an input, a shared read) passes nothing further back.
    SmallVector<bool> needed;
    for (Value v : op->getOperands())
      needed.push_back(active.contains(v) && relevant.contains(v));
    if (!llvm::is_contained(needed, true))
      continue;
    grad::GradRule rule = rules.lookup(op);
    if (!rule) {
      error(loc) << "grad cannot differentiate through '"
                 << op->getName().getStringRef()
                 << "': it has no gradient rule (see docs/graph-format.md, "
                    "Gradients)";
      return failure();
    }
    ctx.needed = needed;
    SmallVector<TensorRef> dx(op->getNumOperands());
    unsigned errorsBefore = errorCount;
    if (failed(rule(ctx, op, dy->second, dx)) || errorCount != errorsBefore)
      return failure();
    for (auto [i, d] : llvm::enumerate(dx)) {
      if (!d || !needed[i])
        continue;
      Value v = op->getOperand(i);
      if (d.type() != v.getType()) {
        error(loc) << "internal error: the gradient rule of '"
                   << op->getName().getStringRef() << "' gave " << d.type()
                   << " for an operand of type " << v.getType();
        return failure();
      }
      grad::accumulate(*this, adjoint, v, d, loc);
    }
  }
  for (auto &[value, held] : heldBack)
    adjoint[value] = held;
  return success();
}
