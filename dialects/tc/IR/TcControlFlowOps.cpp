//===- TcControlFlowOps.cpp - verifiers of tc.scan, tc.while, tc.ifelse ---===//
//
// The messages are catalogued in docs/errors.md (DIA-160 ... DIA-179).
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc::tc;

namespace {

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

} // namespace

LogicalResult ScanOp::verify() {
  Block &body = getBodyBlock();
  size_t numInits = getInits().size(), numSeqs = getSequences().size();
  if (numSeqs == 0 && !getSteps())
    return emitOpError()
           << "needs sequences or 'steps' to know how many steps to run";
  if (numSeqs != 0 && getSteps())
    return emitOpError() << "takes 'steps' only without sequences (the "
                            "sequences' length is the number of steps)";
  if (getSteps() && cast<RankedTensorType>(getSteps().getType()).getRank() != 0)
    return emitOpError() << "'steps' must be an i64 scalar, got "
                         << getSteps().getType();
  if (body.getNumArguments() != numInits + numSeqs)
    return emitOpError() << "the body takes " << body.getNumArguments()
                         << " arguments; expected " << numInits + numSeqs
                         << " (one per carried state, then one per sequence)";
  for (auto [i, init] : llvm::enumerate(getInits()))
    if (body.getArgument(i).getType() != init.getType())
      return emitOpError() << "body argument #" << i << " has type "
                           << body.getArgument(i).getType()
                           << ", but carried state #" << i << " is "
                           << init.getType();
  int64_t length = ShapedType::kDynamic;
  for (auto [j, seq] : llvm::enumerate(getSequences())) {
    auto type = cast<RankedTensorType>(seq.getType());
    if (type.getRank() == 0)
      return emitOpError() << "sequence #" << j
                           << " must have rank at least 1, got " << type;
    int64_t n = type.getDimSize(0);
    if (!ShapedType::isDynamic(n) && !ShapedType::isDynamic(length) &&
        n != length)
      return emitOpError() << "sequences differ in length: " << length
                           << " and " << n << " (sequence #" << j << ")";
    if (!ShapedType::isDynamic(n))
      length = n;
    auto element = RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType());
    Type arg = body.getArgument(numInits + j).getType();
    if (arg != element)
      return emitOpError() << "body argument #" << numInits + j << " has type "
                           << arg << ", but an element of "
                           << "sequence #" << j << " is " << element;
  }
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError() << "the body must end with 'tc.yield'";
  if (yield.getValues().size() != getNumResults())
    return emitOpError() << "the body yields " << yield.getValues().size()
                         << " values for " << getNumResults() << " results";
  if (getNumResults() < numInits || getNumResults() == 0)
    return emitOpError() << "has " << getNumResults()
                         << " results; expected the " << numInits
                         << " final states and any stacked outputs, at "
                            "least one in all";
  for (size_t i = 0; i < numInits; ++i) {
    Type next = yield.getValues()[i].getType();
    if (next != getInits()[i].getType())
      return emitOpError() << "carried state #" << i << " changes type in a "
                           << "step: " << typeText(getInits()[i].getType())
                           << " before, " << typeText(next) << " after";
    if (getResult(i).getType() != next)
      return emitOpError() << "result #" << i << " must have the type of "
                           << "carried state #" << i << ", " << typeText(next);
  }
  for (size_t k = numInits; k < getNumResults(); ++k) {
    auto step = cast<RankedTensorType>(yield.getValues()[k].getType());
    auto result = cast<RankedTensorType>(getResult(k).getType());
    bool ok = result.getRank() == step.getRank() + 1 &&
              result.getShape().drop_front() == step.getShape() &&
              result.getElementType() == step.getElementType();
    int64_t n = ok ? result.getDimSize(0) : 0;
    if (ok && !ShapedType::isDynamic(n) && !ShapedType::isDynamic(length) &&
        n != length)
      ok = false;
    if (!ok)
      return emitOpError() << "result #" << k << " is " << typeText(result)
                           << ", but the stacked per-step output "
                           << typeText(step) << " needs the type "
                           << "[steps] + its shape";
  }
  return success();
}

LogicalResult WhileOp::verify() {
  size_t numInits = getInits().size();
  if (cast<RankedTensorType>(getMaxSteps().getType()).getRank() != 0)
    return emitOpError() << "'max_steps' must be an i64 scalar, got "
                         << typeText(getMaxSteps().getType());
  Block &cond = getCondBlock(), &body = getBodyBlock();
  for (auto [name, block] : {std::pair<StringRef, Block *>{"cond", &cond},
                             std::pair<StringRef, Block *>{"body", &body}}) {
    if (block->getNumArguments() != numInits)
      return emitOpError() << "the " << name << " region takes "
                           << block->getNumArguments()
                           << " arguments; expected " << numInits
                           << " (one per carried state)";
    for (auto [i, init] : llvm::enumerate(getInits()))
      if (block->getArgument(i).getType() != init.getType())
        return emitOpError()
               << "argument #" << i << " of the " << name << " region has type "
               << typeText(block->getArgument(i).getType())
               << ", but carried state #" << i << " is "
               << typeText(init.getType());
    if (!isa<YieldOp>(block->getTerminator()))
      return emitOpError() << "the " << name << " region must end with "
                           << "'tc.yield'";
  }
  auto condYield = cast<YieldOp>(cond.getTerminator());
  auto bool0 = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (condYield.getValues().size() != 1 ||
      condYield.getValues()[0].getType() != bool0)
    return emitOpError() << "the cond region must yield one i1 scalar "
                            "(tensor<i1>)";
  auto next = cast<YieldOp>(body.getTerminator()).getValues();
  if (next.size() != numInits)
    return emitOpError() << "the body yields " << next.size() << " values for "
                         << numInits << " carried states";
  for (auto [i, value] : llvm::enumerate(next))
    if (value.getType() != getInits()[i].getType())
      return emitOpError() << "carried state #" << i << " changes type in a "
                           << "step: " << typeText(getInits()[i].getType())
                           << " before, " << typeText(value.getType())
                           << " after";
  size_t numResults = getNumResults();
  if (numResults != numInits + 1 && numResults != 2 * numInits + 1)
    return emitOpError() << "has " << numResults << " results; expected the "
                         << numInits << " final states and the number of "
                         << "steps, then optionally the " << numInits
                         << " states saved per step";
  for (size_t i = 0; i < numInits; ++i)
    if (getResult(i).getType() != getInits()[i].getType())
      return emitOpError() << "result #" << i << " must have the type of "
                           << "carried state #" << i << ", "
                           << typeText(getInits()[i].getType());
  auto i64 = RankedTensorType::get({}, IntegerType::get(getContext(), 64));
  if (getTripCount().getType() != i64)
    return emitOpError() << "result #" << numInits
                         << " (the number of steps) must be tensor<i64>, got "
                         << typeText(getTripCount().getType());
  for (auto [i, saved] : llvm::enumerate(getSavedStates())) {
    auto state = cast<RankedTensorType>(getInits()[i].getType());
    auto type = cast<RankedTensorType>(saved.getType());
    if (type.getRank() != state.getRank() + 1 ||
        type.getShape().drop_front() != state.getShape() ||
        type.getElementType() != state.getElementType())
      return emitOpError() << "result #" << numInits + 1 + i << " is "
                           << typeText(type) << ", but the saved states of "
                           << typeText(state) << " need the type "
                           << "[max_steps] + its shape";
  }
  return success();
}

LogicalResult IfElseOp::verify() {
  auto condition = cast<RankedTensorType>(getCondition().getType());
  if (condition.getRank() != 0)
    return emitOpError() << "the condition must be a rank-0 i1 tensor, got "
                         << typeText(condition);
  return success();
}
