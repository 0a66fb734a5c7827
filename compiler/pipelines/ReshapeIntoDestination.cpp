//===- ReshapeIntoDestination.cpp - reshaped values into outputs ----------===//
//
// After One-Shot Bufferize, `y = reshape(matmul(x2, w), shape=[B, T, H])`
// is computed into a temporary [B*T, H] and copied into y's buffer through
// a memref.reshape view. The products of a rank-3 tensor by a matrix are
// lowered exactly so (one 2-D product of the rows, which stays a BLAS call
// whatever is fused around it), so without this pass each such output would
// cost a temporary and a copy. The temporary becomes y's collapsed view.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

namespace tcc {
#define GEN_PASS_DEF_RESHAPEINTODESTINATIONPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// `op`, or its ancestor in `block`; null when it is outside `block`.
Operation *inBlock(Operation *op, Block *block) {
  return block->findAncestorOpInBlock(*op);
}

/// Whether `a` and `b` are the same size: equal constants, or one value.
bool sameSize(Value a, Value b) {
  if (a == b)
    return true;
  APInt x, y;
  return matchPattern(a, m_ConstantInt(&x)) &&
         matchPattern(b, m_ConstantInt(&y)) && x == y;
}

/// The value the shape buffer `shape` holds at `index`, stored by a
/// memref.store before `before`; null when that is not known.
Value storedSize(Value shape, int64_t index, Operation *before) {
  Value found;
  for (Operation *user : shape.getUsers()) {
    auto store = dyn_cast<memref::StoreOp>(user);
    if (!store || store.getMemRef() != shape)
      continue;
    APInt at;
    if (store.getIndices().size() != 1 ||
        !matchPattern(store.getIndices()[0], m_ConstantInt(&at)))
      return nullptr;
    if (at.getSExtValue() != index)
      continue;
    if (found || store->getBlock() != before->getBlock() ||
        !store->isBeforeInBlock(before))
      return nullptr;
    found = store.getValue();
  }
  return found;
}

/// The size of dimension `dim` of the allocation `alloc`, as a value or a
/// constant's value; null when static (compare with the type instead).
Value allocSize(memref::AllocOp alloc, int64_t dim) {
  MemRefType type = alloc.getType();
  if (!type.isDynamicDim(dim))
    return nullptr;
  return alloc.getDynamicSizes()[type.getDynamicDimIndex(dim)];
}

/// tcc-reshape-into-destination, as Passes.td describes it.
struct ReshapeIntoDestinationPass
    : public tcc::impl::ReshapeIntoDestinationPassBase<
          ReshapeIntoDestinationPass> {
  using ReshapeIntoDestinationPassBase::ReshapeIntoDestinationPassBase;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies)
      rewrite(copy);
  }

  /// Rewrites one `copy(reshape(alloc), dst)`; leaves anything else alone.
  static void rewrite(memref::CopyOp copy) {
    auto reshape = copy.getSource().getDefiningOp<memref::ReshapeOp>();
    if (!reshape || !reshape->hasOneUse())
      return;
    auto alloc = reshape.getSource().getDefiningOp<memref::AllocOp>();
    Block *block = copy->getBlock();
    if (!alloc || alloc->getBlock() != block)
      return;
    // The destination: an output argument of the function (so it exists
    // before the temporary), dense and row-major, [..., N].
    auto dst = dyn_cast<BlockArgument>(copy.getTarget());
    auto dstType = dyn_cast<MemRefType>(copy.getTarget().getType());
    MemRefType tmpType = alloc.getType();
    if (!dst || !dstType || !dstType.getLayout().isIdentity() ||
        !tmpType.getLayout().isIdentity() || dstType.getRank() < 2 ||
        tmpType.getRank() != 2 ||
        dstType.getElementType() != tmpType.getElementType() ||
        tmpType.getMemorySpace() != dstType.getMemorySpace() ||
        !isa<func::FuncOp>(dst.getOwner()->getParentOp()))
      return;
    // An output the runtime supplies, never a shared variable: writing one
    // earlier could move its update before an id check (a refused call
    // must change no variable).
    auto func = cast<func::FuncOp>(dst.getOwner()->getParentOp());
    if (dst.getOwner() != &func.getBody().front() ||
        !func.getArgAttr(dst.getArgNumber(), tcc::tc::kOutputArgAttr))
      return;
    // The last sizes agree: the collapsed destination is [R, N] as the
    // temporary is (the copy already requires as many elements in all).
    int64_t last = dstType.getRank() - 1;
    if (!tmpType.isDynamicDim(1) || !dstType.isDynamicDim(last)) {
      if (tmpType.getDimSize(1) != dstType.getDimSize(last))
        return;
    } else {
      Value stored = storedSize(reshape.getShape(), last, reshape);
      if (!stored || !sameSize(stored, allocSize(alloc, 1)))
        return;
    }
    // Nothing reads or writes the destination before the copy, and only
    // deallocations use the temporary after it.
    // (Its sizes may be read anywhere.)
    for (Operation *user : dst.getUsers()) {
      Operation *at = inBlock(user, block);
      if (user != copy && !isa<memref::DimOp>(user) &&
          (!at || !copy->isBeforeInBlock(at)))
        return;
    }
    SmallVector<Operation *> deallocs;
    for (Operation *user : alloc->getUsers()) {
      Operation *at = inBlock(user, block);
      if (!at)
        return;
      if (isa<memref::DeallocOp>(user))
        deallocs.push_back(user);
      else if (user != reshape && !at->isBeforeInBlock(copy))
        return;
    }

    OpBuilder b(alloc);
    SmallVector<ReassociationIndices> groups(2);
    for (int64_t d = 0; d < last; ++d)
      groups[0].push_back(d);
    groups[1].push_back(last);
    Value view = b.create<memref::CollapseShapeOp>(alloc.getLoc(), dst, groups);
    if (view.getType() != tmpType)
      view = b.create<memref::CastOp>(alloc.getLoc(), tmpType, view);
    Value shape = reshape.getShape();
    copy->erase();
    reshape->erase();
    for (Operation *dealloc : deallocs)
      dealloc->erase();
    alloc->replaceAllUsesWith(ValueRange{view});
    alloc->erase();
    eraseIfOnlyStored(shape);
  }

  /// Drops the shape buffer of the erased reshape when nothing reads it.
  static void eraseIfOnlyStored(Value shape) {
    auto alloc = shape.getDefiningOp<memref::AllocOp>();
    if (!alloc || !llvm::all_of(shape.getUsers(), [](Operation *user) {
          return isa<memref::StoreOp, memref::DeallocOp>(user);
        }))
      return;
    for (Operation *user : llvm::make_early_inc_range(shape.getUsers()))
      user->erase();
    alloc->erase();
  }
};

} // namespace
