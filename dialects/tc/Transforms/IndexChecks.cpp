//===- IndexChecks.cpp - a prologue that checks every id ------------------===//
//
// A gather's ids are data, so no check before the call can vouch for them,
// and a bad one must fail the call with nothing written. This pass moves
// everything the ids are computed from to the front of the function and
// puts after it one scan per checked op that records the first bad id in a
// check record (the function's new last result). tc-check-exit later
// returns from the function right there when the record says a check
// failed: the prologue only computes, so a refused call has written no
// shared variable. The runtime turns the record into a Status that names
// the function, the op's location, the id and the valid range.
//
// Ids used inside a scan or while body differ from step to step: such a
// loop carries a record of its own (LoopRecordState.h) that its steps fill
// with the first bad id and the step it was found at; the loop, and what
// it reads, then belongs to the prologue, and its final record joins the
// function's. A while's condition is checked on copies (WhileCondChecks.h).
// Ids that the compile time keeps in range are not checked
// (StaticIdRange.h).
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/SourcePlace.h"
#include "dialects/tc/IR/TcOps.h"
#include "dialects/tc/Transforms/IdCheckRecord.h"
#include "dialects/tc/Transforms/LoopRecordState.h"
#include "dialects/tc/Transforms/Passes.h"
#include "dialects/tc/Transforms/StaticIdRange.h"
#include "dialects/tc/Transforms/WhileCondChecks.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <deque>

namespace tcc::tc {
#define GEN_PASS_DEF_INDEXCHECKS
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::idchecks;

namespace {

/// The scans and whiles around `op` in its function, outermost first (a
/// while's own cond region included).
SmallVector<Operation *> loopsAround(Operation *op) {
  SmallVector<Operation *> loops;
  for (Operation *parent = op->getParentOp();
       parent && !isa<func::FuncOp>(parent); parent = parent->getParentOp())
    if (isa<ScanOp, WhileOp>(parent))
      loops.push_back(parent);
  std::reverse(loops.begin(), loops.end());
  return loops;
}

/// Whether `op` is in a while's cond region, and which while.
WhileOp condOwner(Operation *op) {
  auto loop = dyn_cast_or_null<WhileOp>(op->getParentOp());
  return loop && op->getParentRegion() == &loop.getCond() ? loop : WhileOp();
}

/// The body block of a tc.scan or tc.while.
Block &bodyOf(Operation *loop) {
  if (auto scan = dyn_cast<ScanOp>(loop))
    return scan.getBodyBlock();
  return cast<WhileOp>(loop).getBodyBlock();
}

/// The manifest's description of check `c`: its op, its place, and the
/// loops around it, outermost first.
DictionaryAttr describe(OpBuilder &b, const IdCheck &c,
                        ArrayRef<Operation *> loops) {
  NamedAttrList d;
  d.append("kind", b.getStringAttr(c.kind));
  d.append("where", b.getStringAttr(sourcePlace(c.op->getLoc())));
  if (c.dimension >= 0)
    d.append("dimension", b.getI64IntegerAttr(c.dimension));
  if (!loops.empty()) {
    SmallVector<Attribute> names;
    for (Operation *loop : loops)
      names.push_back(b.getStringAttr(describeLoop(loop)));
    d.append("loops", b.getArrayAttr(names));
  }
  return d.getDictionary(b.getContext());
}

struct IndexChecksPass
    : public tcc::tc::impl::IndexChecksBase<IndexChecksPass> {
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        addPrologue(func);
  }

  void addPrologue(func::FuncOp func) {
    Block &body = func.getBody().front();
    OpBuilder b(func.getContext());
    // Every check in program order (its number), loop bodies included.
    // The checks are built again where they are scanned (liveChecks): a
    // loop that gets a record is replaced, and a check's ids or bound may
    // be the old loop's results.
    DenseMap<Operation *, SmallVector<int64_t>> numbersAt;
    SmallVector<Attribute> described;
    Location firstLoc = func.getLoc();
    int64_t deepest = 0;
    // The checked ops of each while's condition (WhileCondChecks.h).
    DenseMap<Operation *, SmallVector<Operation *>> condChecked;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      SmallVector<Operation *> loops = loopsAround(op);
      SmallVector<IdCheck> checks = checksOf(op);
      // Number 0: ids that are always good need no check.
      if (llvm::all_of(checks, alwaysInRange))
        return;
      for (const IdCheck &c : checks) {
        if (alwaysInRange(c)) {
          numbersAt[op].push_back(0);
          continue;
        }
        if (described.empty())
          firstLoc = op->getLoc();
        numbersAt[op].push_back((int64_t)described.size() + 1);
        described.push_back(describe(b, c, loops));
        deepest = std::max(deepest, (int64_t)loops.size());
      }
      if (WhileOp owner = condOwner(op); owner && numbersAt.count(op))
        condChecked[owner].push_back(op);
    });
    // A copy of a while's condition checked after the loop.
    struct AfterLoop {
      Value stepsRun, maxSteps;
      int64_t stepField;
    };
    DenseMap<Operation *, AfterLoop> afterLoop;
    // The checks of `op`, numbered, as they are now.
    std::deque<IdCheck> live;
    auto liveChecks = [&](Operation *op) {
      SmallVector<const IdCheck *> found;
      SmallVector<IdCheck> checks = checksOf(op);
      SmallVector<int64_t> numbers = numbersAt.lookup(op);
      for (auto [c, number] : llvm::zip(checks, numbers)) {
        if (number == 0)
          continue;
        c.number = number;
        if (auto it = afterLoop.find(op); it != afterLoop.end()) {
          c.stepsRun = it->second.stepsRun;
          c.maxSteps = it->second.maxSteps;
          c.stepField = it->second.stepField;
        }
        live.push_back(c);
        found.push_back(&live.back());
      }
      return found;
    };
    // `copies` of the checked ops `originals` check as they do.
    auto addCopies = [&](ArrayRef<Operation *> originals,
                         ArrayRef<Operation *> copies) {
      for (auto [original, copy] : llvm::zip(originals, copies))
        numbersAt[copy] = numbersAt.lookup(original);
    };
    if (described.empty())
      return;
    int64_t width = kRecordFields + std::min(deepest, kMaxLoopSteps);

    // Loops, innermost first, carry the first bad id their bodies find.
    DenseMap<Operation *, Value> loopRecords;
    auto sourcesAt = [&](OpBuilder &sb, ArrayRef<Operation *> ops) {
      SmallVector<RecordSource> sources;
      for (Operation *op : ops) {
        if (auto it = loopRecords.find(op); it != loopRecords.end()) {
          RecordSource s;
          s.loopRecord = it->second;
          sources.push_back(s);
          continue;
        }
        for (const IdCheck *c : liveChecks(op))
          sources.push_back(scanOf(sb, *c));
      }
      return sources;
    };
    auto checkedIn = [&](Block &block) {
      SmallVector<Operation *> ops;
      for (Operation &op : block.without_terminator())
        if (numbersAt.count(&op) || loopRecords.count(&op))
          ops.push_back(&op);
      return ops;
    };
    SmallVector<Operation *> loops;
    func.walk([&](Operation *op) {
      if (isa<ScanOp, WhileOp>(op))
        loops.push_back(op);
    });
    for (Operation *loop : loops) {
      // A while's condition is checked at the start of the body, on the
      // states the step begins with.
      SmallVector<Operation *> inCond = condChecked.lookup(loop);
      if (!inCond.empty()) {
        auto w = cast<WhileOp>(loop);
        OpBuilder cb = OpBuilder::atBlockBegin(&w.getBodyBlock());
        addCopies(inCond, copyCondChecks(w, inCond, cb,
                                         w.getBodyBlock().getArguments()));
      }
      SmallVector<Operation *> ops = checkedIn(bodyOf(loop));
      if (ops.empty())
        continue;
      int64_t depth = (int64_t)loopsAround(loop).size();
      LoopStep step;
      step.stepField = depth < kMaxLoopSteps ? kRecordFields + depth : -1;
      Location loc = loop->getLoc();
      LoopWithRecord done =
          addRecordState(loop, width, [&](OpBuilder &lb, Value prior) {
            step.prior = prior;
            return packRecord(lb, loc, sourcesAt(lb, ops), width, &step);
          });
      loopRecords[done.loop] = done.record;
      if (inCond.empty())
        continue;
      // ... and after the loop on its final states, when the condition
      // ended it.
      auto w = cast<WhileOp>(done.loop);
      OpBuilder ab(w);
      ab.setInsertionPointAfter(w);
      SmallVector<Operation *> copies = copyCondChecks(
          w, inCond, ab,
          w.getResults().take_front(w.getCondBlock().getNumArguments()));
      addCopies(inCond, copies);
      for (Operation *copy : copies)
        afterLoop[copy] = {w.getTripCount(), w.getMaxSteps(), step.stepField};
    }
    SmallVector<Operation *> topLevel = checkedIn(body);

    // What the scans read, and everything it is computed from, goes first:
    // all of it is pure, so moving it earlier changes no value.
    llvm::SetVector<Operation *> needed;
    BackwardSliceOptions options;
    options.inclusive = true;
    for (Operation *op : topLevel) {
      SmallVector<Value, 2> roots;
      if (Value record = loopRecords.lookup(op))
        roots.push_back(record);
      for (const IdCheck *c : liveChecks(op))
        for (Value v : {c->ids, c->boundSource, c->stepsRun, c->maxSteps})
          if (v)
            roots.push_back(v);
      for (Value v : roots)
        if (Operation *def = v.getDefiningOp())
          getBackwardSlice(def, &needed, options);
    }
    // A loop in the slice (a scan whose stacked result the ids or the
    // bound come from) reads values from above in its body, which
    // getBackwardSlice (MLIR 19) does not follow: they go first too, or the
    // loop would move above them.
    for (bool grew = true; grew;) {
      grew = false;
      SmallVector<Operation *> withRegions;
      for (Operation *op : needed)
        if (op->getNumRegions() != 0)
          withRegions.push_back(op);
      for (Operation *loop : withRegions)
        loop->walk([&](Operation *inner) {
          for (Value v : inner->getOperands()) {
            Operation *def = v.getDefiningOp();
            if (def && !loop->isAncestor(def) && !needed.contains(def)) {
              getBackwardSlice(def, &needed, options);
              grew = true;
            }
          }
        });
    }
    Operation *firstOther = nullptr;
    for (Operation &op :
         llvm::make_early_inc_range(body.without_terminator())) {
      bool isNeeded = needed.contains(&op);
      if (!isNeeded && !firstOther)
        firstOther = &op;
      else if (isNeeded && firstOther)
        op.moveBefore(firstOther);
    }

    if (firstOther)
      b.setInsertionPoint(firstOther);
    else
      b.setInsertionPoint(body.getTerminator());
    Value packed = packRecord(b, firstLoc, sourcesAt(b, topLevel), width);

    auto ret = cast<func::ReturnOp>(body.getTerminator());
    unsigned index = func.getNumResults();
    NamedAttrList attrs;
    attrs.append(kCheckRecordAttr, b.getUnitAttr());
    func.insertResult(index, packed.getType(),
                      attrs.getDictionary(func.getContext()));
    ret->insertOperands(index, packed);
    func->setAttr(kIndexChecksAttr, b.getArrayAttr(described));
  }
};

} // namespace
