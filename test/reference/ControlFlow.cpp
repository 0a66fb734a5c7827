//===- ControlFlow.cpp - reference tc.scan and tc.while -------------------===//
//
// The semantics of TcControlFlowOps.td, step by step: the carried states
// start at their inits, each step sees the states and row t of every
// sequence (t = i, or n - 1 - i in reverse), and its yields become the next
// states and the rows of the stacked outputs, in the order the steps ran.
// A while checks its condition on the states before each step, and stops
// when it is false or after max_steps steps.
//
//===----------------------------------------------------------------------===//

#include "test/reference/Interpreter.h"
#include "test/reference/Kernels.h"

#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference::detail {

namespace {

/// Row `t` of `seq` along axis 0.
RefTensor row(const RefTensor &seq, int64_t t) {
  std::vector<int64_t> shape(seq.shape.begin() + 1, seq.shape.end());
  int64_t size = numelOf(shape);
  std::vector<double> data(seq.data.begin() + t * size,
                           seq.data.begin() + (t + 1) * size);
  return RefTensor(seq.dtype, shape, std::move(data));
}

/// Evaluates the ops of one step of `loop`'s `block`; an error names the
/// step too, after what an inner loop added (innermost first, as the
/// compiled code's id checks name them).
void evalStep(Operation &loop, Block &block, int64_t step,
              const std::function<void(Operation &)> &evalOp) {
  try {
    for (Operation &inner : block.without_terminator())
      evalOp(inner);
  } catch (const ReferenceError &e) {
    std::string where;
    llvm::raw_string_ostream os(where);
    os << loop.getLoc();
    throw ReferenceError(std::string(e.what()) + " in step " +
                         std::to_string(step) + " of the '" +
                         loop.getName().getStringRef().str() + "' at " + where);
  }
}

const RefTensor &valueOf(llvm::DenseMap<Value, RefTensor> &env, Value v) {
  auto it = env.find(v);
  if (it == env.end())
    throw ReferenceError("'tc.scan': a value has no value");
  return it->second;
}

} // namespace

void evalScan(
    Operation &op, llvm::DenseMap<Value, RefTensor> &env,
    const std::function<void(Operation &)> &evalOp,
    const std::function<std::optional<int64_t>(llvm::StringRef)> &sizeOf) {
  auto scan = cast<ScanOp>(op);
  std::vector<RefTensor> states, sequences;
  for (Value v : scan.getInits())
    states.push_back(valueOf(env, v));
  for (Value v : scan.getSequences())
    sequences.push_back(valueOf(env, v));
  int64_t n = 0;
  if (!sequences.empty()) {
    n = sequences[0].shape[0];
    for (const RefTensor &seq : sequences)
      if (seq.shape[0] != n)
        throw ReferenceError("'tc.scan': the sequences differ in length (" +
                             std::to_string(n) + " and " +
                             std::to_string(seq.shape[0]) + ")");
  } else {
    n = std::max<int64_t>(0, int64_t(valueOf(env, scan.getSteps()).data[0]));
  }
  Block &body = scan.getBodyBlock();
  auto yield = cast<YieldOp>(body.getTerminator());
  size_t numStates = states.size();
  size_t numStacked = scan.getStacked().size();
  std::vector<std::vector<double>> stacks(numStacked);
  std::vector<std::vector<int64_t>> rowShapes(numStacked);
  for (int64_t i = 0; i < n; ++i) {
    int64_t t = scan.getReverse() ? n - 1 - i : i;
    for (size_t k = 0; k < numStates; ++k)
      env[body.getArgument(k)] = states[k];
    for (size_t j = 0; j < sequences.size(); ++j)
      env[body.getArgument(numStates + j)] = row(sequences[j], t);
    evalStep(op, body, i, evalOp);
    for (size_t k = 0; k < numStates; ++k) {
      const RefTensor &next = valueOf(env, yield.getValues()[k]);
      if (next.shape != states[k].shape)
        throw ReferenceError("'tc.scan': carried state #" + std::to_string(k) +
                             " changes shape from " + states[k].describe() +
                             " to " + next.describe() + " in step " +
                             std::to_string(i));
      states[k] = next;
    }
    for (size_t k = 0; k < numStacked; ++k) {
      const RefTensor &y = valueOf(env, yield.getValues()[numStates + k]);
      if (i > 0 && y.shape != rowShapes[k])
        throw ReferenceError("'tc.scan': output #" + std::to_string(k) +
                             " changes shape in step " + std::to_string(i));
      rowShapes[k] = y.shape;
      stacks[k].insert(stacks[k].end(), y.data.begin(), y.data.end());
    }
  }
  for (size_t k = 0; k < numStates; ++k)
    env[scan.getResult(k)] = states[k];
  for (size_t k = 0; k < numStacked; ++k) {
    Value result = scan.getResult(numStates + k);
    auto type = cast<RankedTensorType>(result.getType());
    std::vector<int64_t> shape = {n};
    if (n > 0)
      shape.insert(shape.end(), rowShapes[k].begin(), rowShapes[k].end());
    else if (auto arg =
                 dyn_cast<BlockArgument>(yield.getValues()[numStates + k]);
             arg && arg.getOwner() == &body && arg.getArgNumber() < numStates) {
      // A state saved per step: its shape.
      const std::vector<int64_t> &row = states[arg.getArgNumber()].shape;
      shape.insert(shape.end(), row.begin(), row.end());
    } else {
      // No step ran: the sizes the front end named (`tc.dims`).
      auto all = scan->getAttrOfType<ArrayAttr>("tc.dims");
      auto dims =
          all && k < all.size() ? dyn_cast<ArrayAttr>(all[k]) : ArrayAttr();
      for (auto [d, size] : llvm::enumerate(type.getShape().drop_front())) {
        std::optional<int64_t> named;
        if (dims && d < dims.size())
          if (auto text = dyn_cast<StringAttr>(dims[d]))
            named = sizeOf(text.getValue());
        if (ShapedType::isDynamic(size) && !named)
          throw ReferenceError("'tc.scan' of no steps: the size of output #" +
                               std::to_string(k) + " is unknown");
        shape.push_back(ShapedType::isDynamic(size) ? *named : size);
      }
    }
    env[result] = RefTensor(dtypeKindOf(type.getElementType()), shape,
                            std::move(stacks[k]));
  }
}

void evalWhile(Operation &op, llvm::DenseMap<Value, RefTensor> &env,
               const std::function<void(Operation &)> &evalOp) {
  auto loop = cast<WhileOp>(op);
  std::vector<RefTensor> states;
  for (Value v : loop.getInits())
    states.push_back(valueOf(env, v));
  int64_t maxSteps =
      std::max<int64_t>(0, int64_t(valueOf(env, loop.getMaxSteps()).data[0]));
  Block &cond = loop.getCondBlock(), &body = loop.getBodyBlock();
  auto condYield = cast<YieldOp>(cond.getTerminator());
  auto yield = cast<YieldOp>(body.getTerminator());
  size_t numStates = states.size();
  std::vector<std::vector<double>> saved(numStates);
  int64_t n = 0;
  for (; n < maxSteps; ++n) {
    for (size_t k = 0; k < numStates; ++k)
      env[cond.getArgument(k)] = states[k];
    evalStep(op, cond, n, evalOp);
    if (valueOf(env, condYield.getValues()[0]).data.at(0) == 0)
      break;
    for (size_t k = 0; k < numStates; ++k) {
      env[body.getArgument(k)] = states[k];
      saved[k].insert(saved[k].end(), states[k].data.begin(),
                      states[k].data.end());
    }
    evalStep(op, body, n, evalOp);
    for (size_t k = 0; k < numStates; ++k) {
      const RefTensor &next = valueOf(env, yield.getValues()[k]);
      if (next.shape != states[k].shape)
        throw ReferenceError("'tc.while': carried state #" + std::to_string(k) +
                             " changes shape from " + states[k].describe() +
                             " to " + next.describe() + " in step " +
                             std::to_string(n));
      states[k] = next;
    }
  }
  for (size_t k = 0; k < numStates; ++k)
    env[loop.getResult(k)] = states[k];
  env[loop.getTripCount()] = RefTensor(DTypeKind::I64, {}, {double(n)});
  for (auto [k, result] : llvm::enumerate(loop.getSavedStates())) {
    std::vector<int64_t> shape = {maxSteps};
    shape.insert(shape.end(), states[k].shape.begin(), states[k].shape.end());
    saved[k].resize(numelOf(shape), 0.0);
    env[result] = RefTensor(states[k].dtype, shape, std::move(saved[k]));
  }
}

} // namespace tcc::reference::detail
