//===- LinalgToGpu.cpp - every linalg op on buffers becomes a kernel ------===//
//
// We build the kernels ourselves rather than go through scf.parallel tiling
// and gpu-map-parallel-loops: in MLIR 19 that path maps the outermost loop
// to threads (a warp then reads 32 different rows), gives up on tiles with
// dynamic bounds, and leaves every reduction serial in one thread.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/gpu/GpuKernelBuilder.h"
#include "compiler/pipelines/gpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tcc {
#define GEN_PASS_DEF_LINALGTOGPUPASS
#include "compiler/pipelines/gpu/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc::gpu_kernel;

namespace {

/// Elements per thread in flat elementwise kernels: four consecutive 32-bit
/// elements are one 16-byte vector access.
constexpr int64_t kFlatVector = 4;

/// A buffer of rank > 0 with an identity layout and indexing map.
bool isFlatOperand(linalg::LinalgOp op, OpOperand &operand) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  return type && type.getRank() > 0 && type.getLayout().isIdentity() &&
         op.getMatchingIndexingMap(&operand).isIdentity();
}

/// Whether `op` is elementwise with contiguous, identity-indexed outputs,
/// so that it can run over one flat dimension (inputs that broadcast or
/// permute are read at the delinearized index).
bool isFlatElementwise(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() > 0 || op.getNumLoops() == 0 ||
      op.getBlock()->getOps<linalg::IndexOp>().begin() !=
          op.getBlock()->getOps<linalg::IndexOp>().end())
    return false;
  // Outputs must be contiguous and identity-indexed; inputs that are not
  // are read through the delinearized index.
  for (OpOperand &operand : op.getDpsInitsMutable())
    if (!isFlatOperand(op, operand))
      return false;
  return true;
}

/// Emits the elementwise body at flat index `index` of the 1-D views.
void emitFlatPoint(OpBuilder &b, linalg::LinalgOp op, FlatAccess &flat,
                   Value index) {
  flat.index = index;
  storeOutputs(b, op, {},
               emitBody(b, op, {}, loadOutputs(b, op, {}, &flat), &flat),
               &flat);
}

/// An elementwise op over contiguous buffers: each thread computes
/// `kFlatVector` consecutive elements of the flattened buffers. When every
/// buffer is 16-byte aligned (checked on the host; device allocations are)
/// and the group is whole, the accesses are unrolled with the alignment
/// asserted, so LLVM emits vector loads and stores (ld.global.v4.f32).
void buildFlatElementwise(linalg::LinalgOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> sizes = loopSizes(b, op);
  Value total = product(b, loc, sizes);
  FlatAccess flat;
  flat.sizes = sizes;
  Value aligned = b.create<arith::ConstantIntOp>(loc, 1, 1);
  SmallVector<Value> views;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isFlatOperand(op, operand))
      continue;
    auto type = cast<MemRefType>(operand.get().getType());
    Value view = operand.get();
    if (type.getRank() > 1) {
      SmallVector<ReassociationIndices> all(1);
      for (int64_t d = 0; d < type.getRank(); ++d)
        all[0].push_back(d);
      view = b.create<memref::CollapseShapeOp>(loc, view, all);
    }
    flat.views[&operand] = view;
    views.push_back(view);
    Value address =
        b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, operand.get());
    Value misaligned = b.create<arith::RemUIOp>(
        loc, address, indexConstant(b, loc, 4 * kFlatVector));
    aligned = b.create<arith::AndIOp>(
        loc, aligned,
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, misaligned,
                                indexConstant(b, loc, 0)));
  }
  gpu::LaunchOp launch =
      createLaunch(b, loc, blocksFor(b, loc, total, kBlockSize * kFlatVector));
  Value thread = globalThreadId(b, loc, launch);
  Value first =
      b.create<arith::MulIOp>(loc, thread, indexConstant(b, loc, kFlatVector));
  Value end =
      b.create<arith::AddIOp>(loc, first, indexConstant(b, loc, kFlatVector));
  Value whole = b.create<arith::AndIOp>(
      loc, aligned,
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ule, end, total));
  auto split = b.create<scf::IfOp>(loc, whole, /*withElseRegion=*/true);
  b.setInsertionPointToStart(split.thenBlock());
  for (Value view : views)
    b.create<memref::AssumeAlignmentOp>(loc, view, 4 * kFlatVector);
  // All loads first, then all stores: a store may alias any input, so
  // interleaving them would keep LLVM from merging the loads.
  SmallVector<SmallVector<Value>> ins, outs, results;
  for (int64_t k = 0; k < kFlatVector; ++k) {
    flat.index = b.create<arith::AddIOp>(loc, first, indexConstant(b, loc, k));
    ins.push_back(loadInputs(b, op, {}, &flat));
    outs.push_back(loadOutputs(b, op, {}, &flat));
  }
  for (int64_t k = 0; k < kFlatVector; ++k)
    results.push_back(computeBody(b, op, {}, ins[k], outs[k]));
  for (int64_t k = 0; k < kFlatVector; ++k) {
    flat.index = b.create<arith::AddIOp>(loc, first, indexConstant(b, loc, k));
    storeOutputs(b, op, {}, results[k], &flat);
  }
  // The tail of the buffers (or unaligned buffers): one element at a time.
  b.setInsertionPointToStart(split.elseBlock());
  auto tail = b.create<scf::ForOp>(loc, first,
                                   b.create<arith::MinUIOp>(loc, end, total),
                                   indexConstant(b, loc, 1));
  b.setInsertionPointToStart(tail.getBody());
  emitFlatPoint(b, op, flat, tail.getInductionVar());
  op->erase();
}

/// One thread per point of the parallel dimensions; reduction dimensions,
/// if any, are walked by that thread in order.
void buildThreadPerOutput(linalg::LinalgOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> sizes = loopSizes(b, op), parallel, reduction;
  splitByIterator(op, sizes, parallel, reduction);
  Value id = createGuardedLaunch(b, loc, product(b, loc, parallel));
  SmallVector<Value> pivs = delinearize(b, loc, id, parallel);

  if (reduction.empty()) {
    SmallVector<Value> ivs = mergeByIterator(op, pivs, {});
    storeOutputs(b, op, ivs, emitBody(b, op, ivs, loadOutputs(b, op, ivs)));
  } else {
    // Output indexing maps do not use reduction dimensions: any index will
    // do for them when loading and storing.
    Value zero = indexConstant(b, loc, 0);
    SmallVector<Value> zeros(reduction.size(), zero);
    SmallVector<Value> outIvs = mergeByIterator(op, pivs, zeros);
    SmallVector<Value> accs = loadOutputs(b, op, outIvs);
    for (auto [i, acc] : llvm::enumerate(accs))
      if (!acc)
        accs[i] = b.create<memref::LoadOp>(
            loc, op.getDpsInits()[i],
            applyMap(b, loc, op.getMatchingIndexingMap(op.getDpsInitOperand(i)),
                     outIvs));
    // A loop nest over the reduction dimensions, the accumulators carried.
    SmallVector<Value> rivs;
    SmallVector<scf::ForOp> loops;
    OpBuilder::InsertionGuard nestGuard(b);
    for (Value size : reduction) {
      auto loop =
          b.create<scf::ForOp>(loc, zero, size, indexConstant(b, loc, 1), accs);
      if (!loops.empty())
        b.create<scf::YieldOp>(loc, loop.getResults());
      b.setInsertionPointToStart(loop.getBody());
      rivs.push_back(loop.getInductionVar());
      accs.assign(loop.getRegionIterArgs().begin(),
                  loop.getRegionIterArgs().end());
      loops.push_back(loop);
    }
    SmallVector<Value> ivs = mergeByIterator(op, pivs, rivs);
    b.create<scf::YieldOp>(loc, emitBody(b, op, ivs, accs));
    b.setInsertionPointAfter(loops.front());
    storeOutputs(b, op, outIvs, loops.front().getResults());
  }
  op->erase();
}

bool hasIdentityLayout(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getLayout().isIdentity();
}

/// tcc-linalg-to-gpu, as Passes.td describes it.
struct LinalgToGpuPass
    : public tcc::impl::LinalgToGpuPassBase<LinalgToGpuPass> {
  using LinalgToGpuPassBase::LinalgToGpuPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Copies between whole buffers are device-to-device memcpys; a strided
    // one becomes a copy kernel.
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      if (hasIdentityLayout(copy.getSource()) &&
          hasIdentityLayout(copy.getTarget()) &&
          copy.getSource().getType() == copy.getTarget().getType())
        b.create<gpu::MemcpyOp>(copy.getLoc(), TypeRange(), ValueRange(),
                                copy.getTarget(), copy.getSource());
      else
        b.create<linalg::CopyOp>(copy.getLoc(), copy.getSource(),
                                 copy.getTarget());
      copy->erase();
    }

    // Loop nests that the host would run over device buffers: scatters,
    // in the function's body or in a loop body of a scan or while that
    // the host runs (an embedding's gradient per step). A nest is matched
    // from its outermost loop: not the only op of another loop's body.
    SmallVector<scf::ForOp> nests;
    func.walk([&](scf::ForOp loop) {
      auto parent = dyn_cast<scf::ForOp>(loop->getParentOp());
      bool inner = parent &&
                   &parent.getBody()->front() == loop.getOperation() &&
                   loop->getNextNode() == parent.getBody()->getTerminator();
      if (!loop->getParentOfType<gpu::LaunchOp>() && !inner)
        nests.push_back(loop);
    });
    // Outermost first, so that a matched nest is replaced before any loop
    // inside it is looked at (its loops are then gone).
    llvm::SmallPtrSet<Operation *, 8> gone;
    for (scf::ForOp loop : llvm::reverse(nests)) {
      if (gone.contains(loop))
        continue;
      SmallVector<Operation *> inside;
      loop->walk([&](scf::ForOp l) { inside.push_back(l); });
      if (buildScatterKernelIfMatched(loop))
        gone.insert(inside.begin(), inside.end());
    }
    SmallVector<memref::StoreOp> stores;
    func.walk([&](memref::StoreOp store) {
      if (!store->getParentOfType<gpu::LaunchOp>() &&
          !store->getParentOfType<scf::ForOp>())
        stores.push_back(store);
    });
    for (memref::StoreOp store : stores)
      buildScalarScatterKernelIfMatched(store);

    SmallVector<linalg::LinalgOp> ops;
    func.walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        op->emitError("a linalg op on tensors reached the GPU lowering");
        return signalPassFailure();
      }
      // Matrix products have many outputs and short reductions: a thread
      // per output, consecutive threads on consecutive columns, serves
      // them better than a block per output.
      bool reduction =
          op.getNumReductionLoops() > 0 &&
          !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation());
      if (reduction && (buildBlockReductionIfMatched(op) ||
                        buildSelectReductionIfMatched(op)))
        continue;
      if (isFlatElementwise(op))
        buildFlatElementwise(op);
      else
        buildThreadPerOutput(op);
    }
  }
};

} // namespace
