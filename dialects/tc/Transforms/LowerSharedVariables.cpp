//===- LowerSharedVariables.cpp - shared variables to arguments -----------===//

#include "dialects/tc/IR/TcOps.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringSet.h"

namespace tcc::tc {
#define GEN_PASS_DEF_LOWERSHAREDVARIABLES
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;

/// Follows view-like tensor ops (reshapes, slices, casts) back to the value
/// whose buffer `v` will share after bufferization.
static Value bufferRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ReshapeOp,
            tensor::ExtractSliceOp, tensor::CastOp>(def))
      v = def->getOperand(0);
    else
      break;
  }
  return v;
}

namespace {

struct LowerSharedVariablesPass
    : public tcc::tc::impl::LowerSharedVariablesBase<LowerSharedVariablesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<SharedOp> declarations(module.getOps<SharedOp>());
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && failed(lower(func, declarations)))
        return signalPassFailure();
  }

  LogicalResult lower(func::FuncOp func, ArrayRef<SharedOp> declarations) {
    SmallVector<SharedReadOp> reads;
    SmallVector<UpdateOp> updates;
    func.walk([&](SharedReadOp op) { reads.push_back(op); });
    func.walk([&](UpdateOp op) { updates.push_back(op); });
    if (updates.size() > 1)
      return updates[1].emitOpError("a function has at most one tc.update");

    // Which variables the function reads or writes.
    llvm::StringSet<> used, updated;
    for (SharedReadOp r : reads)
      used.insert(r.getVariable());
    if (!updates.empty())
      for (Attribute a : updates[0].getVariables()) {
        used.insert(cast<FlatSymbolRefAttr>(a).getValue());
        updated.insert(cast<FlatSymbolRefAttr>(a).getValue());
      }

    // One argument per used variable, in declaration order.
    Block &entry = func.getBody().front();
    OpBuilder b(func.getContext());
    llvm::StringMap<BlockArgument> argOf;
    for (SharedOp decl : declarations) {
      StringRef name = decl.getSymName();
      if (!used.contains(name))
        continue;
      unsigned index = func.getNumArguments();
      func.insertArgument(
          index, decl.getType(),
          b.getDictionaryAttr(
              {b.getNamedAttr(kSharedArgAttr,
                              FlatSymbolRefAttr::get(decl.getSymNameAttr())),
               b.getNamedAttr(
                   bufferization::BufferizationDialect::kWritableAttrName,
                   b.getBoolAttr(updated.contains(name)))}),
          decl.getLoc());
      argOf[name] = entry.getArgument(index);
    }
    for (SharedReadOp r : reads) {
      r.replaceAllUsesWith(argOf[r.getVariable()]);
      r.erase();
    }
    if (updates.empty())
      return success();

    // Each new value goes into its variable's buffer; a value that is
    // another updated variable's buffer is copied first.
    UpdateOp update = updates[0];
    auto ret = cast<func::ReturnOp>(entry.getTerminator());
    b.setInsertionPoint(ret);
    SmallVector<Value> results(ret.getOperands());
    SmallVector<Attribute> resultNames;
    DenseMap<Value, Value> materializedUpdates;
    for (auto [attr, value] :
         llvm::zip(update.getVariables(), update.getValues())) {
      StringRef name = cast<FlatSymbolRefAttr>(attr).getValue();
      BlockArgument dest = argOf[name];
      Value source = value;
      Value root = bufferRoot(source);
      bool aliasesOtherUpdate = llvm::any_of(updated, [&](const auto &entry) {
        return entry.getKey() != name && root == argOf[entry.getKey()];
      });
      // A view of the variable itself (`s = slice(s, step=[2])` of one
      // element) would be copied onto overlapping memory: copy it first too.
      bool viewOfItself = root == dest && value != root;
      if (aliasesOtherUpdate || viewOfItself) {
        // Copy the other variable's old value first thing, before any update
        // may be computed in place over it, then redo the views on the copy.
        SmallVector<Operation *> views;
        for (Value v = value; v != root; v = v.getDefiningOp()->getOperand(0))
          views.push_back(v.getDefiningOp());
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&entry);
        source = b.create<bufferization::AllocTensorOp>(
            update.getLoc(), cast<RankedTensorType>(root.getType()),
            ValueRange(), root);
        b.setInsertionPoint(ret);
        for (Operation *view : llvm::reverse(views)) {
          IRMapping mapping;
          mapping.map(view->getOperand(0), source);
          source = b.clone(*view, mapping)->getResult(0);
        }
      }
      // A value that an earlier update wrote already is read from there:
      // reading it after that write is a conflict for One-Shot Bufferize.
      if (Value done = materializedUpdates.lookup(value))
        source = done;
      auto materialize = b.create<bufferization::MaterializeInDestinationOp>(
          update.getLoc(), source, dest);
      materializedUpdates.try_emplace(value, materialize.getResult());
      results.push_back(materialize.getResult());
      resultNames.push_back(cast<FlatSymbolRefAttr>(attr));
    }
    b.create<func::ReturnOp>(ret.getLoc(), results);
    ret.erase();
    update.erase();
    func->setAttr(kUpdatesAttr, b.getArrayAttr(resultNames));
    for (Attribute name : resultNames) {
      unsigned index = func.getNumResults();
      func.insertResult(
          index, results[index].getType(),
          b.getDictionaryAttr(b.getNamedAttr(kUpdateOfAttr, name)));
    }
    return success();
  }
};

} // namespace
