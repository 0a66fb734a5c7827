//===- GpuDeviceMemory.cpp - host code allocates device memory ------------===//

#include "compiler/pipelines/GpuDeviceMemory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace {

struct GpuDeviceMemoryPass
    : public PassWrapper<GpuDeviceMemoryPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GpuDeviceMemoryPass)

  StringRef getArgument() const final { return "tcc-gpu-device-memory"; }
  StringRef getDescription() const final {
    return "Allocate a GPU function's temporaries in device memory";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect>();
  }

  void runOnOperation() override {
    SmallVector<Operation *> hostOps;
    getOperation().walk([&](Operation *op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      hostOps.push_back(op);
    });
    for (Operation *op : hostOps) {
      OpBuilder b(op);
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        auto device = b.create<gpu::AllocOp>(
            alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
            /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
            alloc.getSymbolOperands(), /*hostShared=*/false);
        alloc.replaceAllUsesWith(device.getMemref());
        alloc->erase();
        continue;
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        b.create<gpu::DeallocOp>(dealloc.getLoc(), /*asyncToken=*/Type(),
                                 ValueRange(), dealloc.getMemref());
        dealloc->erase();
        continue;
      }
      // Element accesses on the host would dereference device pointers.
      if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp, memref::AllocaOp,
              linalg::LinalgOp>(op)) {
        op->emitError() << "'" << op->getName()
                        << "' would access device memory from the host; the "
                           "GPU lowering does not support it here";
        return signalPassFailure();
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> tcc::createGpuDeviceMemoryPass() {
  return std::make_unique<GpuDeviceMemoryPass>();
}
