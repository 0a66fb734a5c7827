//===- OutlineKernels.cpp - one function per loop nest --------------------===//
//
// Every loop nest at the top of a graph function becomes a function of its
// own, `NAME_kernelK`, called where the nest was (Passes.td says why). The
// kernel takes the buffers the nest reads and writes as arguments, and
// recomputes inside itself every pure value it uses (constants, views,
// sizes), so that LLVM still sees constant trip counts, and views of one
// buffer as views of one pointer. Its buffer arguments are `llvm.noalias`
// where the buffer is fresh or an argument of a public function: the
// runtime never passes overlapping buffers when either is written, a
// fresh allocation overlaps nothing, and neither do two views of the
// arena that are live at once (tcc-plan-arena).
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/NoaliasPointers.h"
#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

constexpr const char *kKernelAttr = "tcc.kernel";

/// Whether the kernel recomputes `op`'s value rather than taking it as an
/// argument: a pure op without regions. A view of the arena is taken as an
/// argument, so that it stays a buffer of its own to LLVM.
bool recomputed(Operation *op) {
  return op && op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         !(op->getNumResults() == 1 && tcc::arenaView(op->getResult(0)));
}

/// tcc-outline-kernels, as Passes.td describes it.
struct OutlineKernelsPass
    : public tcc::impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> graphFunctions;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal() && !f->hasAttr(kKernelAttr))
        graphFunctions.push_back(f);
    for (func::FuncOp f : graphFunctions) {
      SmallVector<Operation *> nests;
      collectNests(f.getBody().front(), nests);
      // The kernels follow their function, in the order of their nests.
      Operation *after = f;
      unsigned count = 0;
      for (Operation *nest : nests)
        after = outline(symbols, f, after, nest, count++);
    }
  }

  /// The loop nests of `block`, in order. A guard without results (an
  /// `scf.if` around the work that runs only when the index checks passed)
  /// is not a nest: the nests inside it are, or a whole training step
  /// would be one kernel again.
  static void collectNests(Block &block, SmallVectorImpl<Operation *> &nests) {
    for (Operation &op : block) {
      if (op.getNumRegions() == 0)
        continue;
      auto guard = dyn_cast<scf::IfOp>(op);
      if (guard && guard->getNumResults() == 0) {
        for (Region &region : guard->getRegions())
          for (Block &inner : region)
            collectNests(inner, nests);
        continue;
      }
      nests.push_back(&op);
    }
  }

  /// The values `nest` uses from outside it, each either recomputed in the
  /// kernel (`pure`, in an order that defines operands first) or passed
  /// (`args`).
  static void capture(Operation *nest, SmallVectorImpl<Operation *> &pure,
                      SmallVectorImpl<Value> &args) {
    llvm::SetVector<Value> used;
    used.insert(nest->getOperands().begin(), nest->getOperands().end());
    getUsedValuesDefinedAbove(nest->getRegions(), used);
    llvm::SetVector<Operation *> seen;
    llvm::SetVector<Value> passed;
    // Depth first, so that an op comes after the ops its operands need.
    std::function<void(Value)> visit = [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!recomputed(def)) {
        passed.insert(v);
        return;
      }
      if (seen.contains(def))
        return;
      for (Value operand : def->getOperands())
        visit(operand);
      seen.insert(def);
    };
    for (Value v : used)
      visit(v);
    pure.assign(seen.begin(), seen.end());
    args.assign(passed.begin(), passed.end());
  }

  /// Outlines `nest` into a kernel placed after `after`; returns the kernel.
  Operation *outline(SymbolTable &symbols, func::FuncOp parent,
                     Operation *after, Operation *nest, unsigned index) {
    SmallVector<Operation *> pure;
    SmallVector<Value> args;
    capture(nest, pure, args);

    MLIRContext *ctx = nest->getContext();
    OpBuilder b(ctx);
    b.setInsertionPointAfter(after);
    SmallVector<Type> argTypes;
    for (Value v : args)
      argTypes.push_back(v.getType());
    auto kernel = b.create<func::FuncOp>(
        nest->getLoc(), (parent.getSymName() + "_kernel" + Twine(index)).str(),
        b.getFunctionType(argTypes, nest->getResultTypes()));
    kernel.setPrivate();
    kernel->setAttr(kKernelAttr, b.getUnitAttr());
    // LLVM would inline a function called once back into its caller, and
    // compile one large function again.
    kernel->setAttr("passthrough",
                    b.getArrayAttr({b.getStringAttr("noinline")}));
    symbols.insert(kernel);
    for (auto [i, v] : llvm::enumerate(args))
      if (isa<MemRefType>(v.getType()) && tcc::distinctBuffer(v))
        kernel.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
    // convert-func-to-llvm drops these; tcc-noalias-pointers puts them back.
    tcc::recordNoaliasPointers(kernel);

    Block *entry = kernel.addEntryBlock();
    IRMapping map;
    for (auto [v, arg] : llvm::zip(args, entry->getArguments()))
      map.map(v, arg);
    OpBuilder body = OpBuilder::atBlockEnd(entry);
    for (Operation *op : pure)
      body.clone(*op, map);
    Operation *inside = body.clone(*nest, map);
    body.create<func::ReturnOp>(nest->getLoc(), inside->getResults());

    OpBuilder call(nest);
    auto callOp = call.create<func::CallOp>(nest->getLoc(), kernel, args);
    nest->replaceAllUsesWith(callOp.getResults());
    nest->erase();
    return kernel;
  }
};

} // namespace
