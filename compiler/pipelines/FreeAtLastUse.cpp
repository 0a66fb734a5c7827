//===- FreeAtLastUse.cpp - temporaries live from first to last use --------===//
//
// A temporary is allocated just before the first op that uses it and freed
// just after the last (Passes.td says why). The uses are those of the
// buffer and of every view of it, each counted at its ancestor in the
// allocation's block.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tcc {
#define GEN_PASS_DEF_FREEATLASTUSEPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The first and last ops of `block` that use `alloc`'s buffer, through any
/// chain of views, except `dealloc`; none when the buffer escapes.
std::optional<std::pair<Operation *, Operation *>>
useSpan(memref::AllocOp alloc, memref::DeallocOp dealloc) {
  Block *block = alloc->getBlock();
  Operation *first = nullptr, *last = nullptr;
  SmallVector<Value> work = {alloc.getResult()};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc)
        continue;
      if (isa<ViewLikeOpInterface, memref::CastOp>(user)) {
        for (Value r : user->getResults())
          work.push_back(r);
      } else if (isa<func::ReturnOp>(user) ||
                 llvm::any_of(user->getResultTypes(),
                              [](Type t) { return isa<BaseMemRefType>(t); })) {
        // Returned, or passed on as a value of another op (a loop's
        // iteration argument, a branch's result): its life is not ours to
        // shorten.
        return std::nullopt;
      }
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at)
        return std::nullopt;
      if (!first || at->isBeforeInBlock(first))
        first = at;
      if (!last || last->isBeforeInBlock(at))
        last = at;
    }
  }
  if (!first)
    return std::nullopt;
  return std::make_pair(first, last);
}

/// tcc-free-at-last-use, as Passes.td describes it.
struct FreeAtLastUsePass
    : public tcc::impl::FreeAtLastUsePassBase<FreeAtLastUsePass> {
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
    for (memref::DeallocOp dealloc : deallocs) {
      auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
      if (!alloc || alloc->getBlock() != dealloc->getBlock())
        continue;
      // Exactly one dealloc: a second would be a conditional path we do
      // not reason about.
      if (llvm::count_if(alloc->getUsers(), [](Operation *u) {
            return isa<memref::DeallocOp>(u);
          }) != 1)
        continue;
      auto span = useSpan(alloc, dealloc);
      if (!span)
        continue;
      auto [first, last] = *span;
      if (last->isBeforeInBlock(dealloc))
        dealloc->moveAfter(last);
      // The sizes the allocation reads are defined before its old place,
      // so before the new one too.
      if (alloc->isBeforeInBlock(first) && alloc->getNextNode() != first)
        alloc->moveBefore(first);
    }
  }
};

} // namespace
