//===- GpuSinkGlobals.cpp - kernels read globals on the device ------------===//
//
// A constant that is no splat (rng_advance's increment, say) is a
// `memref.global` in host memory. A kernel that was passed the host's
// pointer to it reads an illegal address on the device (found by the GPU
// check on an H100: ops.tg's `draw`). Inside the launch the global is a
// symbol, which kernel outlining copies into the GPU module: the NVPTX
// backend puts it in the device's global memory, loaded with the module.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/gpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tcc {
#define GEN_PASS_DEF_GPUSINKGLOBALSPASS
#include "compiler/pipelines/gpu/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Gives each launch that uses `global` a copy of its own, first in the
/// launch body; the host keeps `global` only for its own uses.
void sinkIntoLaunches(memref::GetGlobalOp global) {
  llvm::SmallDenseMap<Operation *, Value> copies;
  for (OpOperand &use : llvm::make_early_inc_range(global->getUses())) {
    auto launch = use.getOwner()->getParentOfType<gpu::LaunchOp>();
    if (!launch)
      continue;
    Value &copy = copies[launch];
    if (!copy) {
      auto b = OpBuilder::atBlockBegin(&launch.getBody().front());
      copy = b.clone(*global)->getResult(0);
    }
    use.set(copy);
  }
  if (global->use_empty())
    global->erase();
}

/// tcc-gpu-sink-globals, as Passes.td describes it.
struct GpuSinkGlobalsPass
    : public tcc::impl::GpuSinkGlobalsPassBase<GpuSinkGlobalsPass> {
  using GpuSinkGlobalsPassBase::GpuSinkGlobalsPassBase;

  void runOnOperation() override {
    SmallVector<memref::GetGlobalOp> globals;
    getOperation().walk([&](memref::GetGlobalOp global) {
      if (!global->getParentOfType<gpu::LaunchOp>())
        globals.push_back(global);
    });
    for (memref::GetGlobalOp global : globals)
      sinkIntoLaunches(global);
  }
};

} // namespace
