//===- GpuMergeModules.cpp - all kernels in one GPU module ----------------===//

#include "compiler/pipelines/gpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace tcc {
#define GEN_PASS_DEF_GPUMERGEMODULESPASS
#include "compiler/pipelines/gpu/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kMergedName = "tcc_kernels";

/// tcc-gpu-merge-modules, as Passes.td describes it.
struct GpuMergeModulesPass
    : public tcc::impl::GpuMergeModulesPassBase<GpuMergeModulesPass> {
  using GpuMergeModulesPassBase::GpuMergeModulesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> modules =
        llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
    if (modules.empty())
      return;
    // After the host functions, where a reader looks for the kernels.
    auto b = OpBuilder::atBlockEnd(module.getBody());
    auto merged =
        b.create<gpu::GPUModuleOp>(module.getLoc(), "tcc_kernels_tmp");
    SymbolTable mergedSymbols(merged);
    // The kernel @M::@F becomes @tcc_kernels::@M.
    llvm::StringMap<StringAttr> renamed;
    for (gpu::GPUModuleOp old : modules) {
      for (Operation &op :
           llvm::make_early_inc_range(old.getBody()->without_terminator())) {
        auto func = dyn_cast<gpu::GPUFuncOp>(op);
        if (!func || !func.isKernel()) {
          // A function the kernel calls (an integer power...), copied
          // into each module that uses it: one copy is enough.
          auto symbol = dyn_cast<SymbolOpInterface>(op);
          if (!symbol) {
            old.emitError("an outlined GPU module holds an unexpected op");
            return signalPassFailure();
          }
          if (mergedSymbols.lookup(symbol.getNameAttr())) {
            op.erase();
            continue;
          }
          op.remove();
          mergedSymbols.insert(&op);
          continue;
        }
        StringAttr newName = StringAttr::get(&getContext(), old.getName());
        renamed[(old.getName() + "::" + func.getName()).str()] = newName;
        func->remove();
        func.setName(newName);
        mergedSymbols.insert(func);
      }
      old->erase();
    }
    merged.setName(kMergedName);
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr kernel = launch.getKernel();
      std::string key = (kernel.getRootReference().getValue() +
                         "::" + kernel.getLeafReference().getValue())
                            .str();
      auto it = renamed.find(key);
      if (it == renamed.end()) {
        launch.emitError("a launch of an unknown kernel");
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(SymbolRefAttr::get(
          &getContext(), kMergedName, {FlatSymbolRefAttr::get(it->second)}));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
