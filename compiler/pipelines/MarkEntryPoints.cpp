//===- MarkEntryPoints.cpp - C interface and noalias buffers --------------===//
//
// tcc-mark-entry-points (Passes.td), before lowering to LLVM: what
// tcc-emit-entry-points wraps later, and what lets LLVM vectorize.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace tcc {
#define GEN_PASS_DEF_MARKENTRYPOINTSPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// tcc-mark-entry-points, as Passes.td describes it.
struct MarkEntryPointsPass
    : public tcc::impl::MarkEntryPointsPassBase<MarkEntryPointsPass> {
  using MarkEntryPointsPassBase::MarkEntryPointsPassBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || func.isPrivate())
        continue;
      func->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (isa<MemRefType>(func.getArgument(i).getType()))
          func.setArgAttr(i, "llvm.noalias", UnitAttr::get(context));
    }
  }
};

} // namespace
