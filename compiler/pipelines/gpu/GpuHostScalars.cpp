//===- GpuHostScalars.cpp - scalars the host reads from device memory -----===//

#include "compiler/pipelines/gpu/GpuHostScalars.h"
#include "compiler/pipelines/gpu/GpuKernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

void tcc::gpu_kernel::readBackOnHost(memref::LoadOp load) {
  Location loc = load.getLoc();
  auto scalarType = MemRefType::get({}, load.getType());
  // The slot is allocated before any GPU work, so that allocating it never
  // makes the host wait for the stream.
  auto func = load->getParentOfType<func::FuncOp>();
  OpBuilder b(&func.getBody().front(), func.getBody().front().begin());
  Value slot = b.create<memref::AllocaOp>(loc, scalarType);

  b.setInsertionPoint(load);
  auto sourceType = cast<MemRefType>(load.getMemRef().getType());
  if (sourceType.getRank() == 0 && sourceType.getLayout().isIdentity()) {
    // A whole scalar buffer (an input, a computed start): one copy.
    b.create<gpu::MemcpyOp>(loc, TypeRange(), ValueRange(), slot,
                            load.getMemRef());
    Value value = b.create<memref::LoadOp>(loc, slot, ValueRange());
    load.replaceAllUsesWith(value);
    load->erase();
    return;
  }
  // An element of a larger or strided buffer: a one-thread kernel copies it
  // into a scalar buffer first.
  Value device = b.create<gpu::AllocOp>(loc, scalarType, /*asyncToken=*/Type(),
                                        ValueRange(), ValueRange(),
                                        ValueRange(), /*hostShared=*/false)
                     .getMemref();
  {
    OpBuilder::InsertionGuard guard(b);
    gpu_kernel::createSingleThreadLaunch(b, loc);
    Value v =
        b.create<memref::LoadOp>(loc, load.getMemRef(), load.getIndices());
    b.create<memref::StoreOp>(loc, v, device, ValueRange());
  }
  b.create<gpu::MemcpyOp>(loc, TypeRange(), ValueRange(), slot, device);
  b.create<gpu::DeallocOp>(loc, /*asyncToken=*/Type(), ValueRange(), device);
  Value value = b.create<memref::LoadOp>(loc, slot, ValueRange());
  load.replaceAllUsesWith(value);
  load->erase();
}
