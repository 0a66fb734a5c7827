//===- GraphBuilderWhile.cpp - while loops --------------------------------===//
//
// A while's two regions are built like a scan's body, in detached blocks:
// beginWhile opens the condition, whileBody closes it with its bool and
// opens the body, endWhile makes the tc.while around both. The states
// keep their symbolic shapes; the number of steps is an i64 scalar known
// only at run time, at most the bound `max_steps`.
//
// For grad, the while stacks the state each step starts from in
// `max_steps` rows (the lowering drops them when no grad reads them).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"

using namespace mlir;
using namespace tcc;
using tc::Dim;
using tc::Shape;

FailureOr<SmallVector<TensorRef>>
GraphBuilder::beginWhile(Location loc, ArrayRef<TensorRef> inits,
                         Dim maxSteps) {
  if (!currentFunction)
    return error(loc) << "a while loop must be inside a function";
  for (const TensorRef &t : inits)
    if (!t)
      return failure();
  if (inits.empty())
    return error(loc) << "a while loop needs a carried state (x = x0) for "
                         "its condition to change";
  if (maxSteps.isDynamic() && !tc::productOf(maxSteps))
    return error(loc) << "the bound max_steps=" << maxSteps.str()
                      << " is not known before the call: give a size such "
                         "as 50 or N from the function's inputs";
  OpenScan open{loc,      new Block(), builder.saveInsertionPoint(),
                {},       {},          maxSteps,
                maxSteps, false,       new Block(),
                {},       {},          {},
                {}};
  open.inits.assign(inits.begin(), inits.end());
  SmallVector<TensorRef> args;
  for (const TensorRef &init : inits) {
    Value arg = open.cond->addArgument(init.type(), init.value.getLoc());
    valueShapes[arg] = init.shape;
    args.push_back(TensorRef{arg, init.shape});
  }
  builder.setInsertionPointToEnd(open.cond);
  openScans.push_back(std::move(open));
  return args;
}

FailureOr<SmallVector<TensorRef>> GraphBuilder::whileBody(Location loc,
                                                          TensorRef condition) {
  if (openScans.empty() || !openScans.back().cond || openScans.back().condition)
    return error(loc) << "no while condition to end (call beginWhile first)";
  OpenScan &open = openScans.back();
  if (!condition)
    return failure();
  if (!condition.elementType().isInteger(1) || !condition.shape.empty())
    return error(loc) << "the condition of a while loop is one bool "
                         "(bool[]), got "
                      << describeTensor(condition.elementType(),
                                        condition.shape)
                      << "; reduce it to one, as in max(abs(x)) > tol";
  builder.create<tc::YieldOp>(loc, condition.value);
  open.condition = condition.value;
  SmallVector<TensorRef> args;
  for (const TensorRef &init : open.inits) {
    Value arg = open.body->addArgument(init.type(), init.value.getLoc());
    valueShapes[arg] = init.shape;
    args.push_back(TensorRef{arg, init.shape});
  }
  builder.setInsertionPointToEnd(open.body);
  return args;
}

SmallVector<TensorRef> GraphBuilder::endWhile(Location loc,
                                              ArrayRef<TensorRef> next,
                                              ArrayRef<Location> nextLocs) {
  if (openScans.empty() || !openScans.back().condition) {
    error(loc) << "no while body to end (call beginWhile and whileBody "
                  "first)";
    return {};
  }
  auto fail = [&]() -> SmallVector<TensorRef> {
    abandonScan();
    return {};
  };
  OpenScan &open = openScans.back();
  for (const TensorRef &t : next)
    if (!t)
      return fail();
  if (failed(checkNextStates(loc, "while loop", open.inits, next, nextLocs)))
    return fail();
  // The shared variables advanced in the body are carried states after
  // the user's.
  size_t numUserStates = open.inits.size();
  SmallVector<TensorRef> allNext(next.begin(), next.end());
  if (failed(carryUpdatedVariables(loc, open, allNext)))
    return fail();
  next = allNext;
  SmallVector<Type> resultTypes;
  SmallVector<Shape> resultShapes;
  for (const TensorRef &init : open.inits) {
    resultTypes.push_back(init.type());
    resultShapes.push_back(init.shape);
  }
  Type i64 = builder.getI64Type();
  resultTypes.push_back(tensorType({}, i64));
  resultShapes.push_back({});
  // The states each step starts from, for grad's backward pass.
  for (const TensorRef &init : open.inits) {
    Shape shape = {*open.steps};
    shape.append(init.shape.begin(), init.shape.end());
    if (failed(checkSize(loc, init.elementType(), shape)))
      return fail();
    resultTypes.push_back(tensorType(shape, init.elementType()));
    resultShapes.push_back(shape);
  }
  SmallVector<Value> yielded;
  for (const TensorRef &t : next)
    yielded.push_back(t.value);
  builder.create<tc::YieldOp>(loc, yielded);
  OpenScan done = std::move(openScans.back());
  openScans.pop_back();
  std::unique_ptr<Block> cond(done.cond), body(done.body);
  builder.restoreInsertionPoint(done.resume);
  TensorRef maxSteps = dimensionSize(done.loc, *done.steps);
  if (!maxSteps) {
    cond->dropAllDefinedValueUses();
    body->dropAllDefinedValueUses();
    return {};
  }
  SmallVector<Value> inits;
  for (const TensorRef &t : done.inits)
    inits.push_back(t.value);
  auto loop =
      builder.create<tc::WhileOp>(done.loc, resultTypes, inits, maxSteps.value);
  loop.getCond().push_back(cond.release());
  loop.getBody().push_back(body.release());
  loop->setAttr(kSavedStatesAttr, builder.getUnitAttr());
  recordSavedShapes(loop, done, *done.steps);
  SmallVector<TensorRef> results;
  for (auto [result, shape] : llvm::zip(loop.getResults(), resultShapes)) {
    valueShapes[result] = shape;
    results.push_back(TensorRef{result, shape});
  }
  // The caller sees the final states and the number of steps, then the
  // final values of the variables advanced in the body.
  SmallVector<TensorRef> visible(results.begin(),
                                 results.begin() + numUserStates);
  visible.push_back(results[done.inits.size()]);
  visible.append(results.begin() + numUserStates,
                 results.begin() + done.inits.size());
  return visible;
}
