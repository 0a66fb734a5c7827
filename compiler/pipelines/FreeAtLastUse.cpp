//===- FreeAtLastUse.cpp - temporaries live from first to last use --------===//
//
// A temporary is allocated just before the first op that uses it and freed
// just after the last (Passes.td says why). The uses are those of the
// buffer and of every view of it, each counted at its ancestor in the
// allocation's block.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/BufferUseSpan.h"
#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tcc {
#define GEN_PASS_DEF_FREEATLASTUSEPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// tcc-free-at-last-use, as Passes.td describes it.
struct FreeAtLastUsePass
    : public tcc::impl::FreeAtLastUsePassBase<FreeAtLastUsePass> {
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
    for (memref::DeallocOp dealloc : deallocs) {
      auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
      if (!alloc || tcc::soleDeallocInBlock(alloc) != dealloc)
        continue;
      auto span = tcc::bufferUseSpan(alloc, dealloc);
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
