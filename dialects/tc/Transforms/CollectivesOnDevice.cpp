//===- CollectivesOnDevice.cpp - a GPU program's collectives use NCCL -----===//
//
// CollectivesToCalls makes every collective one call of the runtime with
// its operand and result buffers. In a GPU program those buffers are device
// memory, which the host collectives (MPI) cannot read: the calls are
// renamed to the runtime's device entry points, which move the same
// buffers with NCCL (runtime/dist/CollectiveEntries.cpp); so are the start
// and the wait of a bucket of gradients (BucketGradients.cpp). The rest of the
// GPU pipeline leaves a call on the host, after a stream synchronization;
// a bucket's start and wait get the stream instead
// (compiler/pipelines/gpu/GpuBucketsOnStream.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Transforms/CollectivesToCalls.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace tcc::tc {
#define GEN_PASS_DEF_COLLECTIVESONDEVICE
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;

namespace {

/// The host entry points (tcc_dist_collective_<dtype>, and a bucket's
/// tcc_dist_bucket_start_<dtype> and tcc_dist_bucket_wait) and their
/// device twins: tcc_dist_device_ and the rest of the name.
constexpr llvm::StringLiteral kHostPrefix = "tcc_dist_";
constexpr llvm::StringLiteral kDevicePrefix = "tcc_dist_device_";
constexpr llvm::StringLiteral kHostEntries[] = {
    "tcc_dist_collective_", "tcc_dist_bucket_start_", "tcc_dist_bucket_wait"};

struct CollectivesOnDevicePass
    : tcc::tc::impl::CollectivesOnDeviceBase<CollectivesOnDevicePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (func::FuncOp f :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (!f.isDeclaration() ||
          llvm::none_of(kHostEntries, [&](llvm::StringRef entry) {
            return f.getSymName().starts_with(entry);
          }))
        continue;
      std::string renamed =
          (kDevicePrefix + f.getSymName().drop_front(kHostPrefix.size())).str();
      if (failed(SymbolTable::replaceAllSymbolUses(
              f, StringAttr::get(&getContext(), renamed), module)))
        return signalPassFailure();
      f.setSymName(renamed);
    }
  }
};

} // namespace
