//===- GpuBlockReduction.cpp - reductions with one block per output -------===//

#include "compiler/pipelines/gpu/GpuKernelBuilder.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tcc::gpu_kernel;

namespace {

/// The combining op of a single-output reduction whose body yields
/// `comb(out, x)` (either order) with `out` read nowhere else, for a
/// commutative arith op with a neutral element: threads may then reduce
/// any subset in any order and combine their partial results.
struct Combiner {
  Operation *op;
  unsigned outOperand;
  TypedAttr neutral;
};

std::optional<Combiner> matchCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  BlockArgument out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Operation *yield = op.getBlock()->getTerminator();
  Operation *comb = yield->getOperand(0).getDefiningOp();
  if (!comb || comb->getBlock() != op.getBlock() ||
      comb->getNumOperands() != 2 || comb->getNumResults() != 1 ||
      !comb->hasTrait<OpTrait::IsCommutative>() || !out.hasOneUse() ||
      *out.getUsers().begin() != comb)
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(comb);
  if (!neutral)
    return std::nullopt;
  return Combiner{comb, comb->getOperand(0) == out ? 0u : 1u, *neutral};
}

Value combine(OpBuilder &b, const Combiner &c, Value acc, Value x) {
  IRMapping mapping;
  mapping.map(c.op->getOperand(c.outOperand), acc);
  mapping.map(c.op->getOperand(1 - c.outOperand), x);
  return b.clone(*c.op, mapping)->getResult(0);
}

/// One block per output element: each thread folds a strided part of the
/// reduction (consecutive threads read consecutive elements when the
/// reduced dimension is innermost), then the block combines the partial
/// results through shared memory down to one warp, and the warp through
/// shuffles (32-bit types) or shared memory.
void buildBlockReduction(linalg::LinalgOp op, const Combiner &c) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  SmallVector<Value> sizes = loopSizes(b, op), parallel, reduction;
  splitByIterator(op, sizes, parallel, reduction);
  Value outputs = product(b, loc, parallel);
  Value length = product(b, loc, reduction);
  Type elementType = c.op->getResult(0).getType();
  auto sharedType = MemRefType::get(
      {kBlockSize}, elementType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  gpu::LaunchOp launch = createLaunch(b, loc, outputs, sharedType);
  Value shared = launch.getWorkgroupAttributions()[0];
  Value tid = launch.getThreadIds().x;
  Value block = launch.getBlockIds().x;

  // The condition is uniform over the block, so barriers inside are safe.
  Value inBounds =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, block, outputs);
  auto guard = b.create<scf::IfOp>(loc, inBounds, /*withElseRegion=*/false);
  b.setInsertionPointToStart(guard.thenBlock());
  SmallVector<Value> pivs = delinearize(b, loc, block, parallel);

  Value neutral = b.create<arith::ConstantOp>(loc, c.neutral);
  auto strided = b.create<scf::ForOp>(
      loc, tid, length, indexConstant(b, loc, kBlockSize), ValueRange{neutral});
  {
    OpBuilder::InsertionGuard loopGuard(b);
    b.setInsertionPointToStart(strided.getBody());
    SmallVector<Value> rivs =
        delinearize(b, loc, strided.getInductionVar(), reduction);
    SmallVector<Value> ivs = mergeByIterator(op, pivs, rivs);
    b.create<scf::YieldOp>(
        loc, emitBody(b, op, ivs, {strided.getRegionIterArgs()[0]}));
  }
  b.create<memref::StoreOp>(loc, strided.getResult(0), shared, tid);
  b.create<gpu::BarrierOp>(loc);

  bool shuffles = elementType.isF32() || elementType.isInteger(32);
  int64_t lastShared = shuffles ? kWarpSize : 1;
  for (int64_t s = kBlockSize / 2; s >= lastShared; s /= 2) {
    Value active = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, tid,
                                           indexConstant(b, loc, s));
    auto step = b.create<scf::IfOp>(loc, active, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard stepGuard(b);
      b.setInsertionPointToStart(step.thenBlock());
      Value mine = b.create<memref::LoadOp>(loc, shared, tid);
      Value other =
          b.create<memref::LoadOp>(loc, shared,
                                   ValueRange{b.create<arith::AddIOp>(
                                       loc, tid, indexConstant(b, loc, s))});
      b.create<memref::StoreOp>(loc, combine(b, c, mine, other), shared, tid);
    }
    b.create<gpu::BarrierOp>(loc);
  }

  Value zero = indexConstant(b, loc, 0);
  Value writer = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, tid,
                                         indexConstant(b, loc, lastShared));
  auto last = b.create<scf::IfOp>(loc, writer, /*withElseRegion=*/false);
  b.setInsertionPointToStart(last.thenBlock());
  Value total = b.create<memref::LoadOp>(loc, shared, tid);
  if (shuffles) {
    for (int32_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
      auto shuffle = b.create<gpu::ShuffleOp>(
          loc, total, offset, (int32_t)kWarpSize, gpu::ShuffleMode::XOR);
      total = combine(b, c, total, shuffle.getShuffleResult());
    }
    Value first =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, tid, zero);
    auto write = b.create<scf::IfOp>(loc, first, /*withElseRegion=*/false);
    b.setInsertionPointToStart(write.thenBlock());
  }
  SmallVector<Value> zeros(reduction.size(), zero);
  SmallVector<Value> outIvs = mergeByIterator(op, pivs, zeros);
  OpOperand *init = op.getDpsInitOperand(0);
  SmallVector<Value> outIndices =
      applyMap(b, loc, op.getMatchingIndexingMap(init), outIvs);
  Value old = b.create<memref::LoadOp>(loc, init->get(), outIndices);
  b.create<memref::StoreOp>(loc, combine(b, c, old, total), init->get(),
                            outIndices);
  op->erase();
}

} // namespace

bool tcc::gpu_kernel::buildBlockReductionIfMatched(linalg::LinalgOp op) {
  std::optional<Combiner> combiner = matchCombiner(op);
  if (!combiner)
    return false;
  buildBlockReduction(op, *combiner);
  return true;
}
