//===- GraphBuilderControlFlow.cpp - scans over steps ---------------------===//
//
// A scan's body is built in a detached block between beginScan and
// endScan, with the builder's own ops, so a body is checked like any other
// code, and may read any value built before it. endScan makes the tc.scan
// op around the block once the body's results, and so the scan's result
// types, are known. Symbolic shapes carry through: the body sees the
// states' shapes and the sequences' rows, the stacked outputs get the
// number of steps (`T`) as their leading dimension.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"

using namespace mlir;
using namespace tcc;
using tc::Dim;
using tc::Shape;

/// Whether `value` is defined in `block` or in a region nested in it.
static bool isInBlock(Value value, Block *block) {
  for (Block *b = value.getParentBlock(); b;) {
    if (b == block)
      return true;
    Operation *parent = b->getParentOp();
    b = parent ? parent->getBlock() : nullptr;
  }
  return false;
}

FailureOr<SmallVector<TensorRef>>
GraphBuilder::beginScan(Location loc, ArrayRef<TensorRef> inits,
                        ArrayRef<TensorRef> sequences, std::optional<Dim> steps,
                        bool reverse) {
  if (!currentFunction)
    return error(loc) << "a scan must be inside a function";
  for (const TensorRef &t : inits)
    if (!t)
      return failure();
  for (const TensorRef &t : sequences)
    if (!t)
      return failure();
  if (sequences.empty() && !steps)
    return error(loc) << "a scan needs sequences to iterate over or a number "
                         "of steps (n_steps=...)";
  if (!sequences.empty() && steps)
    return error(loc) << "a scan over sequences runs once per element: "
                         "n_steps is their length (slice the sequences to "
                         "run fewer steps)";
  Dim length = steps ? *steps : Dim();
  for (auto [j, seq] : llvm::enumerate(sequences)) {
    if (seq.shape.empty())
      return error(loc) << "sequence #" << j << " of the scan is a scalar ("
                        << describeTensor(seq.elementType(), seq.shape)
                        << "); a scan iterates along axis 0";
    const Dim &n = seq.shape.front();
    if (j == 0) {
      length = n;
      continue;
    }
    // Anonymous sizes (`?`) are checked before the call (tc-shape-checks).
    bool anonymous = (n.isDynamic() && n.symbol.empty()) ||
                     (length.isDynamic() && length.symbol.empty());
    if (!anonymous && !(n == length))
      return error(loc) << "the sequences of a scan differ in length: "
                        << length.str() << " (sequence #0) and " << n.str()
                        << " (sequence #" << j << ")";
  }
  if (steps && steps->isDynamic() && !tc::productOf(*steps))
    return error(loc) << "the number of steps " << steps->str()
                      << " is not known before the call: give a size such "
                         "as T or 2*N from the function's inputs";

  OpenScan open{loc,    new Block(), builder.saveInsertionPoint(),
                {},     {},          steps,
                length, reverse,     nullptr,
                {},     {},          {},
                {}};
  open.inits.assign(inits.begin(), inits.end());
  open.sequences.assign(sequences.begin(), sequences.end());
  SmallVector<TensorRef> args;
  for (const TensorRef &init : inits) {
    Value arg = open.body->addArgument(init.type(), init.value.getLoc());
    valueShapes[arg] = init.shape;
    args.push_back(TensorRef{arg, init.shape});
  }
  for (const TensorRef &seq : sequences) {
    Shape row(seq.shape.begin() + 1, seq.shape.end());
    Value arg = open.body->addArgument(tensorType(row, seq.elementType()),
                                       seq.value.getLoc());
    valueShapes[arg] = row;
    args.push_back(TensorRef{arg, row});
  }
  builder.setInsertionPointToEnd(open.body);
  openScans.push_back(std::move(open));
  return args;
}

LogicalResult GraphBuilder::updateInLoop(Location loc, StringRef name,
                                         TensorRef next) {
  if (openScans.empty() ||
      (openScans.back().cond && !openScans.back().condition))
    return error(loc) << "shared variable '" << name
                      << "' can be updated inside a loop's body only";
  OpenScan &open = openScans.back();
  if (!next)
    return failure();
  if (!hasShared(name))
    return error(loc) << "'" << name
                      << "' is not a shared variable and cannot be updated";
  if (llvm::is_contained(open.updated, name))
    return error(loc) << "shared variable '" << name
                      << "' is updated more than once in the "
                      << (open.cond ? "while loop's" : "scan's") << " body";
  // Its blocks are not what the body reads (the gathered whole value).
  if (shardedRows.count(name))
    return error(loc) << "shared variable '" << name
                      << "' is sharded across the ranks and cannot be updated "
                         "in a "
                      << (open.cond ? "while loop's" : "scan's")
                      << " body; carry it as a state and update it with the "
                         "loop's result";
  RankedTensorType type = sharedType(name);
  if (next.type() != type)
    return error(loc) << "update of '" << name << "' has type "
                      << describeTensor(next.elementType(), next.shape)
                      << " but the variable is "
                      << describeTensor(type.getElementType(),
                                        tc::shapeOf(type));
  // The variable's value at the call's start (the function's one read)
  // starts the state; endScan or endWhile makes the loop read the state
  // instead. A while's condition sees the states too.
  unsigned position = open.inits.size() + open.updated.size();
  Value arg = open.body->insertArgument(position, type, loc);
  valueShapes[arg] = tc::shapeOf(type);
  if (open.cond)
    valueShapes[open.cond->insertArgument(position, type, loc)] =
        tc::shapeOf(type);
  open.updated.push_back(name.str());
  open.updatedNext.push_back(next);
  return success();
}

LogicalResult
GraphBuilder::carryUpdatedVariables(Location loc, OpenScan &open,
                                    SmallVectorImpl<TensorRef> &next) {
  size_t numUserStates = open.inits.size();
  auto usedIn = [](Block *block) {
    return [block](OpOperand &use) {
      return block->findAncestorOpInBlock(*use.getOwner()) != nullptr;
    };
  };
  for (auto [k, pair] :
       llvm::enumerate(llvm::zip(open.updated, open.updatedNext))) {
    auto [name, value] = pair;
    TensorRef read = readShared(loc, name);
    if (!read)
      return failure();
    Value arg = open.body->getArgument(numUserStates + k);
    read.value.replaceUsesWithIf(arg, usedIn(open.body));
    if (open.cond)
      read.value.replaceUsesWithIf(open.cond->getArgument(numUserStates + k),
                                   usedIn(open.cond));
    TensorRef step = value;
    if (step.value == read.value)
      step.value = arg;
    open.inits.push_back(read);
    next.push_back(step);
  }
  return success();
}

LogicalResult GraphBuilder::checkNextStates(Location loc, StringRef loop,
                                            ArrayRef<TensorRef> inits,
                                            ArrayRef<TensorRef> next,
                                            ArrayRef<Location> nextLocs) {
  if (next.size() != inits.size())
    return error(loc) << "the " << loop << "'s body gives " << next.size()
                      << " next values for " << inits.size()
                      << " carried states";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inits, next))) {
    auto [init, value] = pair;
    if (init.elementType() == value.elementType() && init.shape == value.shape)
      continue;
    Location at = i < nextLocs.size() ? nextLocs[i] : loc;
    return error(at) << "carried state #" << i << " of the " << loop << " is "
                     << describeTensor(init.elementType(), init.shape)
                     << " before a step and "
                     << describeTensor(value.elementType(), value.shape)
                     << " after it; a carried state keeps its shape and dtype";
  }
  return success();
}

SmallVector<TensorRef> GraphBuilder::endScan(Location loc,
                                             ArrayRef<TensorRef> next,
                                             ArrayRef<TensorRef> perStep,
                                             ArrayRef<Location> nextLocs) {
  if (openScans.empty()) {
    error(loc) << "no scan to end";
    return {};
  }
  if (openScans.back().cond) {
    error(loc) << "the innermost open loop is a while (call endWhile)";
    return {};
  }
  OpenScan open = std::move(openScans.back());
  openScans.pop_back();
  std::unique_ptr<Block> body(open.body);
  builder.restoreInsertionPoint(open.resume);
  for (const TensorRef &t : next)
    if (!t)
      return {};
  for (const TensorRef &t : perStep)
    if (!t)
      return {};
  size_t numUserStates = open.inits.size();
  if (failed(checkNextStates(loc, "scan", open.inits, next, nextLocs)))
    return {};
  if (next.empty() && perStep.empty() && open.updated.empty()) {
    error(loc) << "the scan has no carried state and no output";
    return {};
  }
  // The shared variables advanced in the body are carried states after
  // the user's.
  SmallVector<TensorRef> allNext(next.begin(), next.end());
  if (failed(carryUpdatedVariables(loc, open, allNext)))
    return {};
  next = allNext;
  // The stacked outputs' dynamic sizes, for the lowering to allocate them
  // before the loop: names of the function's dimensions.
  SmallVector<Type> resultTypes;
  SmallVector<Shape> resultShapes;
  for (const TensorRef &init : open.inits) {
    resultTypes.push_back(init.type());
    resultShapes.push_back(init.shape);
  }
  // The states each step starts from are stacked too, for grad's
  // backward pass (grad/LoopGrad.cpp); the lowering drops stacked outputs
  // that nothing reads, so they cost nothing otherwise.
  SmallVector<TensorRef> stacked(perStep.begin(), perStep.end());
  for (unsigned k = 0; k < open.inits.size(); ++k)
    stacked.push_back(TensorRef{body->getArgument(k), open.inits[k].shape});
  SmallVector<Attribute> stackedDims;
  for (auto [k, value] : llvm::enumerate(stacked)) {
    Shape shape = {open.length};
    SmallVector<Attribute> dims;
    for (const Dim &d : value.shape) {
      shape.push_back(d);
      if (!d.isDynamic()) {
        dims.push_back(builder.getI64IntegerAttr(d.size));
        continue;
      }
      // A product of the inputs' dimension names can be computed before
      // the loop; so can the size of a value from above, or of a state.
      std::optional<tc::DimProduct> product = tc::productOf(d);
      bool named =
          product && llvm::all_of(product->factors, [&](const std::string &f) {
            return inputSymbols.contains(f);
          });
      if (!named && !isa<BlockArgument>(value.value) &&
          isInBlock(value.value, body.get())) {
        error(value.value.getLoc())
            << "output #" << k << " of the scan's steps is "
            << describeTensor(value.elementType(), value.shape)
            << ", of a size not known before the loop; the stacked "
               "outputs are allocated before the first step";
        return {};
      }
      dims.push_back(builder.getStringAttr(named ? d.symbol : ""));
    }
    stackedDims.push_back(builder.getArrayAttr(dims));
    if (failed(checkSize(loc, value.elementType(), shape)))
      return {};
    resultTypes.push_back(tensorType(shape, value.elementType()));
    resultShapes.push_back(shape);
  }
  SmallVector<Value> yielded;
  for (const TensorRef &t : next)
    yielded.push_back(t.value);
  for (const TensorRef &t : stacked)
    yielded.push_back(t.value);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(body.get());
    builder.create<tc::YieldOp>(loc, yielded);
  }
  Value stepsValue;
  if (open.steps) {
    TensorRef size = dimensionSize(open.loc, *open.steps);
    if (!size)
      return {};
    stepsValue = size.value;
  }
  SmallVector<Value> inits, sequences;
  for (const TensorRef &t : open.inits)
    inits.push_back(t.value);
  for (const TensorRef &t : open.sequences)
    sequences.push_back(t.value);
  auto scan = builder.create<tc::ScanOp>(open.loc, resultTypes, inits,
                                         sequences, stepsValue, open.reverse);
  scan.getBody().push_back(body.release());
  if (!stackedDims.empty())
    scan->setAttr(tc::TcDialect::kDimsAttr, builder.getArrayAttr(stackedDims));
  if (!open.inits.empty()) {
    scan->setAttr(kSavedStatesAttr, builder.getUnitAttr());
    recordSavedShapes(scan, open, open.length);
  }
  SmallVector<TensorRef> results;
  for (auto [result, shape] : llvm::zip(scan.getResults(), resultShapes)) {
    valueShapes[result] = shape;
    results.push_back(TensorRef{result, shape});
  }
  // The caller sees the final states and its own stacked outputs, then
  // the final values of the variables advanced in the body.
  SmallVector<TensorRef> visible(results.begin(),
                                 results.begin() + numUserStates);
  visible.append(results.begin() + open.inits.size(),
                 results.begin() + open.inits.size() + perStep.size());
  visible.append(results.begin() + numUserStates,
                 results.begin() + open.inits.size());
  return visible;
}

void GraphBuilder::nameLoopStates(ArrayRef<std::string> names) {
  if (!openScans.empty())
    openScans.back().stateNames.assign(names.begin(), names.end());
}

void GraphBuilder::recordSavedShapes(Operation *loop, const OpenScan &open,
                                     const Dim &rows) {
  auto dimAttr = [&](const Dim &d) -> Attribute {
    if (d.isDynamic())
      return builder.getStringAttr(d.str());
    return builder.getI64IntegerAttr(d.size);
  };
  size_t numUserStates = open.inits.size() - open.updated.size();
  SmallVector<Attribute> states;
  for (auto [k, init] : llvm::enumerate(open.inits)) {
    std::string name;
    if (k >= numUserStates)
      name = open.updated[k - numUserStates];
    else if (k < open.stateNames.size())
      name = open.stateNames[k];
    SmallVector<Attribute> shape = {dimAttr(rows)};
    for (const Dim &d : init.shape)
      shape.push_back(dimAttr(d));
    NamedAttrList entry;
    entry.append("name", builder.getStringAttr(name));
    entry.append("shape", builder.getArrayAttr(shape));
    states.push_back(entry.getDictionary(builder.getContext()));
  }
  loop->setAttr(kSavedShapesAttr, builder.getArrayAttr(states));
}

void GraphBuilder::abandonScan() {
  if (openScans.empty())
    return;
  OpenScan open = std::move(openScans.back());
  openScans.pop_back();
  builder.restoreInsertionPoint(open.resume);
  open.body->dropAllDefinedValueUses();
  delete open.body;
  if (open.cond) {
    open.cond->dropAllDefinedValueUses();
    delete open.cond;
  }
}

TensorRef GraphBuilder::ifElse(Location loc, TensorRef condition,
                               TensorRef onTrue, TensorRef onFalse) {
  if (!condition || !onTrue || !onFalse)
    return {};
  if (!condition.elementType().isInteger(1) || !condition.shape.empty()) {
    error(loc) << "the condition of ifelse is one bool (bool[]), got "
               << describeTensor(condition.elementType(), condition.shape)
               << "; for an elementwise choice use select";
    return {};
  }
  if (onTrue.elementType() != onFalse.elementType() ||
      !(onTrue.shape == onFalse.shape)) {
    error(loc) << "the two values of ifelse differ: "
               << describeTensor(onTrue.elementType(), onTrue.shape) << " and "
               << describeTensor(onFalse.elementType(), onFalse.shape)
               << "; both branches give one dtype and shape";
    return {};
  }
  return make(builder.create<tc::IfElseOp>(loc, onTrue.type(), condition.value,
                                           onTrue.value, onFalse.value),
              onTrue.shape);
}
