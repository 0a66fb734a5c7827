//===- CheckExit.cpp - return before any write when an id is bad ----------===//
//
// On buffers: the check record that tc-index-checks returns becomes the
// function's last argument, which the runtime supplies zeroed and reads
// after the call; what follows the prologue's last write to it runs only
// when no check failed (an scf.if). Everything before that point is the
// prologue, which only computes, and this pass makes sure of it: a write
// into a shared variable there is a compile error, never a half-applied
// update. For the GPU the record is computed in device memory and copied to
// the argument, which stays in host memory, so the host can branch on it.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Transforms/IdCheckRecord.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace tcc::tc {
#define GEN_PASS_DEF_CHECKEXIT
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;

namespace {

/// The buffer `v` views (through subviews, casts, reshapes).
Value rootOf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    v = view.getViewSource();
  }
  return v;
}

struct CheckExitPass : public tcc::tc::impl::CheckExitBase<CheckExitPass> {
  using CheckExitBase::CheckExitBase;

  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func->hasAttr(kIndexChecksAttr))
        continue;
      if (failed(addExit(func)))
        return signalPassFailure();
    }
  }

  LogicalResult addExit(func::FuncOp func) {
    Block &entry = func.getBody().front();
    auto ret = dyn_cast<func::ReturnOp>(entry.getTerminator());
    // [check, id, position, bound], then the steps of the loops around
    // the ids (IdCheckRecord.h).
    auto recordType = func.getNumResults() == 1
                          ? dyn_cast<MemRefType>(func.getResultTypes()[0])
                          : MemRefType();
    if (!ret || !recordType || recordType.getRank() != 1 ||
        recordType.getDimSize(0) < idchecks::kRecordFields ||
        recordType.getDimSize(0) >
            idchecks::kRecordFields + idchecks::kMaxLoopSteps ||
        !recordType.getElementType().isInteger(64) ||
        !recordType.getLayout().isIdentity())
      return func.emitError()
             << "internal: expected the check record as the only result "
                "after bufferization, got "
             << func.getFunctionType();

    // The record becomes the last argument, written where it was built.
    Value built = ret.getOperand(0);
    NamedAttrList attrs;
    attrs.append(kCheckRecordAttr, UnitAttr::get(&getContext()));
    unsigned index = func.getNumArguments();
    func.insertArgument(index, recordType, attrs.getDictionary(&getContext()),
                        ret.getLoc());
    Value record = entry.getArgument(index);
    OpBuilder b(&getContext());
    if (gpu) {
      // Kernels write the record in device memory; one copy after its last
      // write brings it to the host argument.
      Operation *lastWrite = built.getDefiningOp();
      for (Operation *user : built.getUsers()) {
        Operation *top = entry.findAncestorOpInBlock(*user);
        if (top && top != ret &&
            (!lastWrite || lastWrite->getBlock() != &entry ||
             lastWrite->isBeforeInBlock(top)))
          lastWrite = top;
      }
      if (lastWrite && lastWrite->getBlock() == &entry)
        b.setInsertionPointAfter(lastWrite);
      else
        b.setInsertionPointToStart(&entry);
      b.create<memref::CopyOp>(ret.getLoc(), built, record);
    } else if (auto alloc = built.getDefiningOp<memref::AllocOp>();
               alloc && alloc->getBlock() == &entry) {
      built.replaceAllUsesExcept(record, ret);
      ret->setOperand(0, record);
      alloc->erase();
    } else {
      if (Operation *def = built.getDefiningOp())
        b.setInsertionPointAfter(def);
      else
        b.setInsertionPointToStart(&entry);
      b.create<memref::CopyOp>(ret.getLoc(), built, record);
    }
    ret->eraseOperands(0, 1);
    func.eraseResult(0);

    // The prologue ends with the last write into the record.
    Operation *last = nullptr;
    for (Operation *user : record.getUsers()) {
      Operation *top = entry.findAncestorOpInBlock(*user);
      if (top && top != entry.getTerminator() &&
          (!last || last->isBeforeInBlock(top)))
        last = top;
    }
    if (!last)
      return func.emitError() << "internal: the check record is never written";

    // A failed call must leave every shared variable as it was. The
    // prologue may compute a value in place in a shared variable's buffer
    // (ids that are also the variable's update): on the host, such a
    // variable is copied aside first and copied back when a check fails.
    // So is a borrowed input that the prologue computes an output in (a
    // loop with checked ids whose result is that output: difftest seed
    // 739245 of the loop-ids campaign).
    SetVector<BlockArgument> written;
    for (Operation &op : entry) {
      WalkResult walk = op.walk([&](MemoryEffectOpInterface effects) {
        SmallVector<MemoryEffects::EffectInstance> list;
        effects.getEffects(list);
        for (const MemoryEffects::EffectInstance &e : list) {
          if (!isa<MemoryEffects::Write>(e.getEffect()) || !e.getValue())
            continue;
          auto arg = dyn_cast<BlockArgument>(rootOf(e.getValue()));
          if (!arg || arg.getOwner() != &entry)
            continue;
          auto var = func.getArgAttrOfType<FlatSymbolRefAttr>(
              arg.getArgNumber(), kSharedArgAttr);
          bool borrowedInput = !var && func.getArgAttr(arg.getArgNumber(),
                                                       TcDialect::kBorrowAttr);
          if (!var && !borrowedInput)
            continue;
          auto type = dyn_cast<MemRefType>(arg.getType());
          if (!gpu && type && (type.hasStaticShape() || borrowedInput)) {
            written.insert(arg);
            continue;
          }
          if (borrowedInput)
            continue;
          effects->emitError()
              << "the ids that '" << func.getSymName()
              << "' checks are computed into shared variable '"
              << var.getValue()
              << "', which the call updates: a refused call would change "
                 "it; compute the ids separately from the update";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return failure();
      if (&op == last)
        break;
    }
    SmallVector<std::pair<Value, Value>> saved; // (variable, its old value)
    b.setInsertionPointToStart(&entry);
    for (BlockArgument arg : written) {
      auto type = cast<MemRefType>(arg.getType());
      SmallVector<Value> sizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          sizes.push_back(b.create<memref::DimOp>(arg.getLoc(), arg, d));
      Value old = b.create<memref::AllocOp>(
          arg.getLoc(), MemRefType::get(type.getShape(), type.getElementType()),
          sizes);
      b.create<memref::CopyOp>(arg.getLoc(), arg, old);
      saved.emplace_back(arg, old);
    }

    // if (record[0] == 0) { the rest }: the rest of the body moves into an
    // scf.if (buffer deallocation does not take a cf.cond_br yet).
    b.setInsertionPointAfter(last);
    Location loc = last->getLoc();
    Value zeroIndex = b.create<arith::ConstantIndexOp>(loc, 0);
    Value code = b.create<memref::LoadOp>(loc, record, ValueRange{zeroIndex});
    Value zero = b.create<arith::ConstantIntOp>(loc, 0, 64);
    Value passed =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, code, zero);
    auto guard = b.create<scf::IfOp>(loc, passed,
                                     /*withElseRegion=*/!saved.empty());
    Operation *yield = guard.thenBlock()->getTerminator();
    while (guard->getNextNode() != entry.getTerminator())
      guard->getNextNode()->moveBefore(yield);
    if (!saved.empty()) {
      b.setInsertionPoint(guard.elseBlock()->getTerminator());
      for (auto [var, old] : saved)
        b.create<memref::CopyOp>(loc, old, var);
    }
    return success();
  }
};

} // namespace
