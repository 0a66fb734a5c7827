//===- GpuSelectReduction.cpp - argmax-like reductions, one block each ----===//

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

/// A reduction that keeps one of two candidates, such as argmax: every
/// output `i` yields `select(cond, e_i, out_i)` with one `cond` computed
/// from the `e`s and `out`s alone, and no `e` depends on an `out`. Two
/// partial results `a` (earlier elements) and `b` (later ones) then merge
/// by running the condition with `e := b`, `out := a`, which keeps the
/// sequential tie-breaking (the first maximum wins).
struct SelectCombiner {
  Value cond;
  SmallVector<Value> elements;
  SmallVector<BlockArgument> outs;
  /// The ops computing `cond` from the elements and outs, in order.
  SmallVector<Operation *> cone;
};

/// The body ops that `root` depends on, stopping at `leaves` and at values
/// from outside the body; fails at a block argument or an op with regions
/// or side effects.
FailureOr<llvm::SmallPtrSet<Operation *, 8>>
backwardCone(Block *body, Value root, const llvm::DenseSet<Value> &leaves) {
  llvm::SmallPtrSet<Operation *, 8> seen;
  SmallVector<Value> work = {root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (leaves.contains(v))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body)
        return failure();
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != body)
      continue;
    if (isa<linalg::IndexOp>(def) || def->getNumRegions() ||
        !isMemoryEffectFree(def))
      return failure();
    if (seen.insert(def).second)
      llvm::append_range(work, def->getOperands());
  }
  return seen;
}

std::optional<SelectCombiner> matchSelectCombiner(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Operation *yield = body->getTerminator();
  SelectCombiner c;
  for (auto [i, y] : llvm::enumerate(yield->getOperands())) {
    auto select = y.getDefiningOp<arith::SelectOp>();
    BlockArgument out = op.getMatchingBlockArgument(op.getDpsInitOperand(i));
    if (!select || select->getBlock() != body ||
        select.getFalseValue() != out ||
        (c.cond && select.getCondition() != c.cond))
      return std::nullopt;
    c.cond = select.getCondition();
    c.elements.push_back(select.getTrueValue());
    c.outs.push_back(out);
  }
  if (!c.cond)
    return std::nullopt;
  llvm::DenseSet<Value> leaves(c.elements.begin(), c.elements.end());
  leaves.insert(c.outs.begin(), c.outs.end());
  FailureOr<llvm::SmallPtrSet<Operation *, 8>> cone =
      backwardCone(body, c.cond, leaves);
  if (failed(cone))
    return std::nullopt;
  // The outs are read only by the condition and their own selects, and
  // the elements do not read them.
  for (BlockArgument out : c.outs)
    for (Operation *user : out.getUsers())
      if (!cone->contains(user) && !isa<arith::SelectOp>(user))
        return std::nullopt;
  for (Value e : c.elements) {
    SetVector<Operation *> slice;
    if (Operation *def = e.getDefiningOp())
      getBackwardSlice(def, &slice);
    for (Operation *sliced : slice)
      for (Value operand : sliced->getOperands())
        if (llvm::is_contained(c.outs, operand))
          return std::nullopt;
    if (llvm::is_contained(c.outs, e))
      return std::nullopt;
  }
  for (Operation &inner : body->without_terminator())
    if (cone->contains(&inner))
      c.cone.push_back(&inner);
  return c;
}

/// Merges partial result `b` (later elements) into `a`.
SmallVector<Value> mergeSelect(OpBuilder &b, Location loc,
                               const SelectCombiner &c, ValueRange first,
                               ValueRange later) {
  IRMapping mapping;
  for (auto [out, value] : llvm::zip(c.outs, first))
    mapping.map(out, value);
  for (auto [e, value] : llvm::zip(c.elements, later))
    mapping.map(e, value);
  for (Operation *op : c.cone)
    b.clone(*op, mapping);
  Value cond = mapping.lookupOrDefault(c.cond);
  SmallVector<Value> merged;
  for (auto [a, l] : llvm::zip(first, later))
    merged.push_back(b.create<arith::SelectOp>(loc, cond, l, a));
  return merged;
}

/// Merges two partial results that may be empty (`valid` false).
std::pair<SmallVector<Value>, Value>
mergeValid(OpBuilder &b, Location loc, const SelectCombiner &c,
           ValueRange first, Value firstValid, ValueRange later,
           Value laterValid) {
  SmallVector<Value> both = mergeSelect(b, loc, c, first, later);
  SmallVector<Value> merged;
  for (auto [a, l, m] : llvm::zip(first, later, both))
    merged.push_back(b.create<arith::SelectOp>(
        loc, laterValid, b.create<arith::SelectOp>(loc, firstValid, m, l), a));
  return {merged, b.create<arith::OrIOp>(loc, firstValid, laterValid)};
}

/// One block per output element for a select reduction: thread `t` folds
/// the `t`-th contiguous chunk of the reduced elements, then a tree merges
/// neighbouring chunks (earlier into later order) through shared memory.
void buildSelectReduction(linalg::LinalgOp op, const SelectCombiner &c) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  SmallVector<Value> sizes = loopSizes(b, op), parallel, reduction;
  splitByIterator(op, sizes, parallel, reduction);
  Value outputs = product(b, loc, parallel);
  Value length = product(b, loc, reduction);
  Value chunk = blocksFor(b, loc, length);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  SmallVector<Type> sharedTypes;
  for (BlockArgument out : c.outs)
    sharedTypes.push_back(MemRefType::get(
        {kBlockSize}, out.getType(), MemRefLayoutAttrInterface(), workgroup));
  sharedTypes.push_back(MemRefType::get(
      {kBlockSize}, b.getI1Type(), MemRefLayoutAttrInterface(), workgroup));
  gpu::LaunchOp launch = createLaunch(b, loc, outputs, sharedTypes);
  ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
  Value validShared = shared.back();
  Value tid = launch.getThreadIds().x;
  Value block = launch.getBlockIds().x;

  Value inBounds =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, block, outputs);
  auto guard = b.create<scf::IfOp>(loc, inBounds, /*withElseRegion=*/false);
  b.setInsertionPointToStart(guard.thenBlock());
  SmallVector<Value> pivs = delinearize(b, loc, block, parallel);
  Value zero = indexConstant(b, loc, 0);
  SmallVector<Value> zeros(reduction.size(), zero);
  SmallVector<Value> outIvs = mergeByIterator(op, pivs, zeros);

  // The thread's chunk, folded in order; the first element is taken as it
  // is (there is no neutral element: the zeros are placeholders).
  Value begin = b.create<arith::MinUIOp>(
      loc, b.create<arith::MulIOp>(loc, tid, chunk), length);
  Value end = b.create<arith::MinUIOp>(
      loc, b.create<arith::AddIOp>(loc, begin, chunk), length);
  SmallVector<Value> init;
  for (BlockArgument out : c.outs)
    init.push_back(b.create<arith::ConstantOp>(
        loc, cast<TypedAttr>(b.getZeroAttr(out.getType()))));
  init.push_back(b.create<arith::ConstantIntOp>(loc, 0, 1));
  auto fold =
      b.create<scf::ForOp>(loc, begin, end, indexConstant(b, loc, 1), init);
  {
    OpBuilder::InsertionGuard loopGuard(b);
    b.setInsertionPointToStart(fold.getBody());
    SmallVector<Value> rivs =
        delinearize(b, loc, fold.getInductionVar(), reduction);
    SmallVector<Value> ivs = mergeByIterator(op, pivs, rivs);
    ValueRange accs = fold.getRegionIterArgs().drop_back();
    Value valid = fold.getRegionIterArgs().back();
    // The body computes the element values and the merged result (c.outs
    // are the outputs' block arguments, in order).
    IRMapping mapping;
    SmallVector<Value> merged = computeBody(b, op, ivs, loadInputs(b, op, ivs),
                                            llvm::to_vector(accs), mapping);
    SmallVector<Value> next;
    for (auto [y, e] : llvm::zip(merged, c.elements))
      next.push_back(
          b.create<arith::SelectOp>(loc, valid, y, mapping.lookupOrDefault(e)));
    next.push_back(b.create<arith::ConstantIntOp>(loc, 1, 1));
    b.create<scf::YieldOp>(loc, next);
  }
  for (auto [i, value] : llvm::enumerate(fold.getResults()))
    b.create<memref::StoreOp>(loc, value, shared[i], tid);
  b.create<gpu::BarrierOp>(loc);

  // Neighbouring partial results merge pairwise: after the step with
  // stride s, thread t (a multiple of 2s) holds chunks t .. t + 2s - 1.
  auto loadPartial = [&](Value index) {
    SmallVector<Value> values;
    for (Value buffer : shared.drop_back())
      values.push_back(b.create<memref::LoadOp>(loc, buffer, index));
    return std::make_pair(
        values, Value(b.create<memref::LoadOp>(loc, validShared, index)));
  };
  for (int64_t s = 1; s < kBlockSize; s *= 2) {
    Value remainder =
        b.create<arith::RemUIOp>(loc, tid, indexConstant(b, loc, 2 * s));
    Value active =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, remainder, zero);
    auto step = b.create<scf::IfOp>(loc, active, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard stepGuard(b);
      b.setInsertionPointToStart(step.thenBlock());
      auto [first, firstValid] = loadPartial(tid);
      auto [later, laterValid] = loadPartial(
          b.create<arith::AddIOp>(loc, tid, indexConstant(b, loc, s)));
      auto [merged, valid] =
          mergeValid(b, loc, c, first, firstValid, later, laterValid);
      for (auto [buffer, value] : llvm::zip(shared.drop_back(), merged))
        b.create<memref::StoreOp>(loc, value, buffer, tid);
      b.create<memref::StoreOp>(loc, valid, validShared, tid);
    }
    b.create<gpu::BarrierOp>(loc);
  }

  // Thread 0 merges the block's result into the output's initial value.
  Value writer =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, tid, zero);
  auto write = b.create<scf::IfOp>(loc, writer, /*withElseRegion=*/false);
  b.setInsertionPointToStart(write.thenBlock());
  auto [total, totalValid] = loadPartial(zero);
  SmallVector<Value> old;
  for (OpOperand &init : op.getDpsInitsMutable())
    old.push_back(b.create<memref::LoadOp>(
        loc, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), outIvs)));
  Value oldValid = b.create<arith::ConstantIntOp>(loc, 1, 1);
  auto [result, resultValid] =
      mergeValid(b, loc, c, old, oldValid, total, totalValid);
  (void)resultValid;
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), result))
    b.create<memref::StoreOp>(
        loc, value, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), outIvs));
  op->erase();
}

} // namespace

bool tcc::gpu_kernel::buildSelectReductionIfMatched(linalg::LinalgOp op) {
  std::optional<SelectCombiner> combiner = matchSelectCombiner(op);
  if (!combiner)
    return false;
  buildSelectReduction(op, *combiner);
  return true;
}
