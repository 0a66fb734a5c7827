//===- GpuDeviceMemory.cpp - host code allocates device memory ------------===//

#include "compiler/pipelines/gpu/GpuHostScalars.h"
#include "compiler/pipelines/gpu/Passes.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tcc {
#define GEN_PASS_DEF_GPUDEVICEMEMORYPASS
#include "compiler/pipelines/gpu/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Whether `alloc` is a small static array of the host's (a shape, pointers,
/// flags) whose every use `hostUse` accepts, besides the host's stores into
/// it and its dealloc.
bool isHostArray(memref::AllocOp alloc, ArrayRef<Type> elements,
                 function_ref<bool(Operation *, Value)> hostUse) {
  MemRefType type = alloc.getType();
  if (!llvm::is_contained(elements, type.getElementType()) ||
      type.getRank() != 1 || !type.hasStaticShape())
    return false;
  Value buffer = alloc.getMemref();
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return store.getMemRef() == buffer && store.getValue() != buffer;
    return isa<memref::DeallocOp>(user) || hostUse(user, buffer);
  });
}

/// Whether `alloc` only holds the shape of a `memref.reshape` (a
/// `tensor.reshape` to several dynamic sizes, bufferized): index values that
/// the host stores and the host reads to build the reshaped descriptor. It
/// stays in host memory; the data it describes is not touched.
bool isHostShapeBuffer(memref::AllocOp alloc) {
  Type index = IndexType::get(alloc.getContext());
  return isHostArray(alloc, {index}, [](Operation *user, Value buffer) {
    auto reshape = dyn_cast<memref::ReshapeOp>(user);
    return reshape && reshape.getShape() == buffer &&
           reshape.getSource() != buffer;
  });
}

/// Whether `name` is the helper function that
/// `bufferization-lower-deallocations` adds for a `bufferization.dealloc`
/// of several buffers that may be one another (a buffer that either branch
/// of an `ifelse` may give: a value computed before it, or one computed in
/// a branch). The helper compares pointers and flags in host arrays only.
bool isDeallocHelper(StringRef name) {
  return name.starts_with("dealloc_helper");
}

/// Whether `alloc` is one of the helper's host arrays: a small static array
/// of `index` (the buffers' pointers) or `i1` (which are owned, which to
/// free) that the host fills, passes to the helper (through a cast) and
/// reads back. It stays in host memory.
bool isDeallocBookkeeping(memref::AllocOp alloc) {
  Type index = IndexType::get(alloc.getContext());
  Type i1 = IntegerType::get(alloc.getContext(), 1);
  return isHostArray(alloc, {index, i1}, [](Operation *user, Value) {
    if (isa<memref::LoadOp>(user))
      return true;
    auto cast = dyn_cast<memref::CastOp>(user);
    return cast && llvm::all_of(cast->getUsers(), [](Operation *castUser) {
             auto call = dyn_cast<func::CallOp>(castUser);
             return call && isDeallocHelper(call.getCallee());
           });
  });
}

/// Whether `v` is the check record argument (tc-check-exit), which the
/// runtime supplies in host memory.
bool isCheckRecord(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && arg.getOwner() == &func.getBody().front() &&
         func.getArgAttr(arg.getArgNumber(), tcc::tc::kCheckRecordAttr);
}

/// tcc-gpu-device-memory, as Passes.td describes it.
struct GpuDeviceMemoryPass
    : public tcc::impl::GpuDeviceMemoryPassBase<GpuDeviceMemoryPass> {
  using GpuDeviceMemoryPassBase::GpuDeviceMemoryPassBase;

  void runOnOperation() override {
    // The deallocation helper reads and writes only host arrays.
    func::FuncOp func = getOperation();
    if (func.isPrivate() && isDeallocHelper(func.getName()))
      return;
    SmallVector<Operation *> hostOps;
    DenseSet<Value> shapeBuffers;
    func.walk([&](Operation *op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      hostOps.push_back(op);
      if (auto alloc = dyn_cast<memref::AllocOp>(op);
          alloc && (isHostShapeBuffer(alloc) || isDeallocBookkeeping(alloc)))
        shapeBuffers.insert(alloc.getMemref());
    });
    for (Operation *op : hostOps) {
      OpBuilder b(op);
      // A reshape's shape and the deallocation bookkeeping live on the
      // host, with their stores, loads and deallocs.
      if (llvm::any_of(op->getOperands(),
                       [&](Value v) { return shapeBuffers.contains(v); }) &&
          isa<memref::StoreOp, memref::LoadOp, memref::DeallocOp>(op))
        continue;
      if (auto alloc = dyn_cast<memref::AllocOp>(op);
          alloc && shapeBuffers.contains(alloc.getMemref()))
        continue;
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
      // The host reads the check record where the runtime put it, and a
      // scalar it needs (a dynamic_slice's start) from device memory.
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        if (!isCheckRecord(load.getMemRef()))
          tcc::gpu_kernel::readBackOnHost(load);
        continue;
      }
      // Other element accesses on the host would dereference device
      // pointers.
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
