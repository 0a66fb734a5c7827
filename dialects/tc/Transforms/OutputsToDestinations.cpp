//===- OutputsToDestinations.cpp - borrow flags and output buffers --------===//

#include "dialects/tc/IR/TcOps.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

namespace tcc::tc {
#define GEN_PASS_DEF_OUTPUTSTODESTINATIONS
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;

static constexpr StringLiteral kWritable =
    bufferization::BufferizationDialect::kWritableAttrName;

/// Whether every use of `v`, and of every view of it (a slice, a reshape),
/// happens at or before `point` in the entry block, so that writing `v`'s
/// buffer right after `point` is safe.
static bool allUsesBefore(Value v, Operation *point) {
  return llvm::all_of(v.getUsers(), [&](Operation *user) {
    Operation *top = point->getBlock()->findAncestorOpInBlock(*user);
    if (!top || !(top == point || top->isBeforeInBlock(point)))
      return false;
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ReshapeOp,
            tensor::ExtractSliceOp, tensor::CastOp>(user))
      return allUsesBefore(user->getResult(0), point);
    return true;
  });
}

/// Whether `op` writes a shared variable's new value into its argument (as
/// tc-lower-shared-variables materializes updates).
static bool isSharedUpdate(Operation *op, func::FuncOp func) {
  auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(op);
  if (!m)
    return false;
  auto arg = dyn_cast<BlockArgument>(m.getDest());
  return arg && arg.getOwner() == &func.getBody().front() &&
         func.getArgAttr(arg.getArgNumber(), kSharedArgAttr);
}

/// Gives every use of `op`'s result its own clone of `op`, placed before
/// the use's ancestor in `op`'s block: never inside another op's body, where
/// CSE would merge a cloned generic's `linalg.index` with the enclosing
/// generic's (an id computed by `arange`, read back for the check record,
/// came out as the record's field number).
static void unshare(Operation *op, OpBuilder &b) {
  SmallVector<OpOperand *> uses = llvm::to_vector(
      llvm::map_range(op->getUses(), [](OpOperand &u) { return &u; }));
  for (OpOperand *use : llvm::drop_begin(uses)) {
    Operation *at = op->getBlock()->findAncestorOpInBlock(*use->getOwner());
    b.setInsertionPoint(at ? at : use->getOwner());
    use->set(b.clone(*op)->getResult(0));
  }
}

/// Gives every use of a fresh buffer — a `tensor.empty`, or a `linalg.fill`
/// of one (a reduction's initial value) — its own copy. CSE merges identical
/// ones, and a merged one would let `eliminate-empty-tensors` point two
/// unrelated computations at the same destination buffer, which then
/// conflict.
static void unshareEmptyTensors(func::FuncOp func) {
  OpBuilder b(func.getContext());
  // A partly built fresh tensor (the first pieces of a concat, which CSE
  // merges when two concats start alike) is unshared too, last piece first,
  // so that each use rebuilds its own chain down to its own empty tensor.
  SmallVector<tensor::InsertSliceOp> inserts;
  func.walk([&](tensor::InsertSliceOp op) {
    Value dest = op.getDest();
    while (auto inner = dest.getDefiningOp<tensor::InsertSliceOp>())
      dest = inner.getDest();
    if (dest.getDefiningOp<tensor::EmptyOp>() ||
        dest.getDefiningOp<linalg::FillOp>())
      inserts.push_back(op);
  });
  // The clones go right after the original (not before each use, which
  // may follow an update's write into a variable that the piece reads).
  for (tensor::InsertSliceOp op : llvm::reverse(inserts)) {
    SmallVector<OpOperand *> uses = llvm::to_vector(
        llvm::map_range(op->getUses(), [](OpOperand &u) { return &u; }));
    b.setInsertionPointAfter(op);
    for (OpOperand *use : llvm::drop_begin(uses))
      use->set(b.clone(*op)->getResult(0));
  }
  // Fills: linalg.fill, and generics without inputs (a constant tensor, an
  // argmax's initial index) that CSE may have merged.
  SmallVector<linalg::LinalgOp> fills;
  func.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op->getNumResults() == 1 &&
        op.getNumDpsInits() == 1 &&
        (isa<linalg::FillOp>(op) || op.getNumDpsInputs() == 0) &&
        op.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
      fills.push_back(op);
  });
  for (linalg::LinalgOp fill : fills)
    unshare(fill, b);
  SmallVector<tensor::EmptyOp> empties;
  func.walk([&](tensor::EmptyOp op) { empties.push_back(op); });
  for (tensor::EmptyOp empty : empties)
    unshare(empty, b);
}

/// Moves `point` (an op of `entry`) past every op of `entry` that reads
/// `v` or a value that may be `v` itself: a view of it, or a result of the
/// loop or branch whose region yields it (an `ifelse` whose else branch is
/// `v`). Writing `v`'s destination right after `point` must come after all
/// of them: One-Shot Bufferize cannot copy around a materialization, so a
/// read of such an alias after it is a conflict it cannot avoid (tcc-difftest
/// seed 26169). The return and the updates of shared variables are not
/// moved past: they come after the outputs.
static void moveLastUse(Value v, Block &entry, func::FuncOp func,
                        Operation *&point) {
  for (Operation *user : v.getUsers()) {
    Operation *top = entry.findAncestorOpInBlock(*user);
    if (top && !isa<func::ReturnOp>(top) && !isSharedUpdate(top, func) &&
        point->isBeforeInBlock(top))
      point = top;
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ReshapeOp,
            tensor::ExtractSliceOp, tensor::CastOp>(user))
      moveLastUse(user->getResult(0), entry, func, point);
    if (isa<RegionBranchTerminatorOpInterface>(user))
      for (Value result : user->getParentOp()->getResults())
        if (isa<TensorType>(result.getType()))
          moveLastUse(result, entry, func, point);
  }
}

namespace {

struct OutputsToDestinationsPass
    : public tcc::tc::impl::OutputsToDestinationsBase<
          OutputsToDestinationsPass> {
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal()) {
        // Outputs become destination tensors; MLIR input may return
        // anything (found by fuzzing: a scalar result crashed here).
        auto notTensor = [](Type t) { return !isa<RankedTensorType>(t); };
        if (llvm::any_of(func.getResultTypes(), notTensor)) {
          func.emitError() << "results must be ranked tensors, got "
                           << func.getFunctionType();
          signalPassFailure();
          continue;
        }
        unshareEmptyTensors(func);
        convert(func);
      }
  }

  void convert(func::FuncOp func) {
    OpBuilder b(func.getContext());
    Block &entry = func.getBody().front();
    unsigned numInputs = func.getNumArguments();

    // Inputs: writable exactly when borrowed (shared-variable arguments
    // already carry their flag).
    for (unsigned i = 0; i < numInputs; ++i)
      if (!func.getArgAttr(i, kWritable))
        func.setArgAttr(
            i, kWritable,
            b.getBoolAttr(func.getArgAttr(i, TcDialect::kBorrowAttr) !=
                          nullptr));

    auto ret = cast<func::ReturnOp>(entry.getTerminator());
    SmallVector<Attribute> outputs;
    DenseMap<Value, Value> materialized;
    SmallVector<bool> takenInputs(numInputs, false);
    for (unsigned r = 0; r < func.getNumResults(); ++r) {
      // The check record becomes an argument after bufferization
      // (tc-check-exit).
      if (func.getResultAttr(r, kUpdateOfAttr) ||
          func.getResultAttr(r, kCheckRecordAttr))
        continue;
      Value original = ret.getOperand(r);
      // A value already materialized for an earlier output is read from
      // there: reading the original after that write would be a conflict.
      Value value = original;
      if (Value done = materialized.lookup(original))
        value = done;
      auto nameAttr =
          func.getResultAttrOfType<StringAttr>(r, TcDialect::kNameAttr);
      StringAttr name =
          nameAttr ? nameAttr : b.getStringAttr("result" + std::to_string(r));
      bool borrowed = func.getResultAttr(r, TcDialect::kBorrowAttr) != nullptr;
      Attribute dims = func.getResultAttr(r, TcDialect::kDimsAttr);

      // Where to materialize: after the value's last use in the body, so
      // that no later read of the value follows the write into the
      // destination; an argument's value (a variable the function may
      // update, an input) is copied first thing. Updates of shared
      // variables (materialized just before the return) come after: one
      // may write the buffer that holds the value, in place.
      Operation *def = value.getDefiningOp();
      Operation *point = def;
      if (def)
        moveLastUse(value, entry, func, point);
      if (point)
        b.setInsertionPointAfter(point);
      else
        b.setInsertionPointToStart(&entry);

      // A borrowed output may live in a borrowed input of the same type
      // that nothing reads afterwards.
      std::optional<unsigned> dest;
      if (borrowed) {
        for (unsigned i = 0; i < numInputs && !dest; ++i) {
          BlockArgument arg = entry.getArgument(i);
          bool candidate =
              !takenInputs[i] && arg.getType() == value.getType() &&
              func.getArgAttr(i, TcDialect::kBorrowAttr) &&
              !func.getArgAttr(i, kSharedArgAttr) &&
              func.getArgAttr(i, TcDialect::kDimsAttr) == dims &&
              (value == arg || (point && allUsesBefore(arg, point)));
          if (candidate)
            dest = i;
        }
      }
      Value result;
      if (dest) {
        takenInputs[*dest] = true;
        BlockArgument arg = entry.getArgument(*dest);
        result = value == arg
                     ? value
                     : b.create<bufferization::MaterializeInDestinationOp>(
                            ret.getLoc(), value, arg)
                           .getResult();
      } else {
        // A destination argument that the runtime supplies.
        NamedAttrList attrs;
        attrs.append(kOutputArgAttr, name);
        attrs.append(kWritable, b.getBoolAttr(true));
        if (borrowed)
          attrs.append(TcDialect::kBorrowAttr, b.getUnitAttr());
        if (dims)
          attrs.append(TcDialect::kDimsAttr, dims);
        unsigned index = func.getNumArguments();
        func.insertArgument(index, value.getType(),
                            attrs.getDictionary(func.getContext()),
                            ret.getLoc());
        dest = index;
        result = b.create<bufferization::MaterializeInDestinationOp>(
                      ret.getLoc(), value, entry.getArgument(index))
                     .getResult();
      }
      ret.setOperand(r, result);
      materialized[original] = result;
      // Updates of the same value read it from the output too: reading the
      // original after the output's write into its buffer is a conflict
      // for One-Shot Bufferize.
      if (Operation *written = result.getDefiningOp())
        for (OpOperand &use : llvm::make_early_inc_range(original.getUses()))
          if (use.getOperandNumber() == 0 &&
              isSharedUpdate(use.getOwner(), func) &&
              written->isBeforeInBlock(use.getOwner()))
            use.set(result);
      NamedAttrList output;
      output.append("name", name);
      output.append("arg", b.getI64IntegerAttr(*dest));
      if (borrowed)
        output.append("borrow", b.getUnitAttr());
      if (func.getResultAttr(r, TcDialect::kReturnInternalTypeAttr))
        output.append("internal", b.getUnitAttr());
      outputs.push_back(output.getDictionary(func.getContext()));
    }
    func->setAttr(kOutputsAttr, b.getArrayAttr(outputs));
  }
};

} // namespace
