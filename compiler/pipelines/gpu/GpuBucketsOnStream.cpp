//===- GpuBucketsOnStream.cpp - bucket all_reduces ordered on the stream --===//
//
// gpu-async-region makes the host wait for the kernels' stream before every
// call, so a bucket's start waited for the whole backward pass so far and
// its wait for nothing that mattered; the kernels after the start were
// launched only once the host came back. tcc-gpu-buckets-on-stream
// (Passes.td) gives those calls the stream instead: the runtime orders the
// reduction on the device (runtime/dist/NcclBackend.cpp), and the host
// goes on launching the rest of the backward pass at once.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/gpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tcc {
#define GEN_PASS_DEF_GPUBUCKETSONSTREAMPASS
#include "compiler/pipelines/gpu/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The runtime's entry points of a GPU program's bucket
/// (runtime/dist/CollectiveEntries.cpp), which take the stream last.
bool isBucketEntry(llvm::StringRef name) {
  return name.starts_with("tcc_dist_device_bucket_start_") ||
         name == "tcc_dist_device_bucket_wait";
}

bool isBucketCall(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && isBucketEntry(call.getCallee());
}

/// The host wait gpu-async-region put right before `op`, if any: its token.
Value takeHostWaitBefore(Operation *op) {
  auto wait = dyn_cast_or_null<gpu::WaitOp>(op->getPrevNode());
  if (!wait || wait.getAsyncToken() || wait.getAsyncDependencies().size() != 1)
    return {};
  Value token = wait.getAsyncDependencies().front();
  wait.erase();
  return token;
}

/// Rewrites the bucket calls of `block`. `pending` is the stream the last
/// bucket call got, whose work the host has not waited for.
void rewriteBlock(Block &block, Type ptr) {
  Value pending;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isBucketCall(&op)) {
      if (!pending)
        pending = takeHostWaitBefore(&op);
      OpBuilder b(&op);
      Value stream =
          pending
              ? b.create<UnrealizedConversionCastOp>(op.getLoc(), ptr, pending)
                    .getResult(0)
              : b.create<LLVM::ZeroOp>(op.getLoc(), ptr).getResult();
      op.insertOperands(op.getNumOperands(), stream);
      continue;
    }
    if (!pending)
      continue;
    // The fresh stream of the kernels after the call: they go on the
    // bucket's stream instead, ordered after its wait there.
    auto fresh = dyn_cast<gpu::WaitOp>(&op);
    if (fresh && fresh.getAsyncToken() &&
        fresh.getAsyncDependencies().empty()) {
      fresh.getAsyncToken().replaceAllUsesWith(pending);
      fresh.erase();
      pending = {};
      continue;
    }
    if (op.getNumRegions() == 0 && !op.hasTrait<OpTrait::IsTerminator>() &&
        isMemoryEffectFree(&op))
      continue;
    // Anything else the host does needs the stream's work done, as
    // gpu-async-region had made sure before the bucket call.
    OpBuilder(&op).create<gpu::WaitOp>(op.getLoc(), Type(),
                                       ValueRange{pending});
    pending = {};
  }
}

/// tcc-gpu-buckets-on-stream, as Passes.td describes it.
struct GpuBucketsOnStreamPass
    : public tcc::impl::GpuBucketsOnStreamPassBase<GpuBucketsOnStreamPass> {
  using GpuBucketsOnStreamPassBase::GpuBucketsOnStreamPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Type ptr = LLVM::LLVMPointerType::get(&getContext());
    bool any = false;
    for (func::FuncOp f : module.getOps<func::FuncOp>()) {
      if (!f.isDeclaration() || !isBucketEntry(f.getSymName()))
        continue;
      SmallVector<Type> inputs(f.getArgumentTypes());
      inputs.push_back(ptr);
      f.setType(FunctionType::get(&getContext(), inputs, f.getResultTypes()));
      any = true;
    }
    if (!any)
      return;
    for (func::FuncOp f : module.getOps<func::FuncOp>())
      if (!f.isDeclaration())
        f.walk([&](Block *block) { rewriteBlock(*block, ptr); });
  }
};

} // namespace
