//===- PlanArena.cpp - temporaries share one arena by a compile-time plan -===//
//
// After tcc-free-at-last-use, a temporary of static size in a function's
// body lives from its first use to its last. This pass reads those ranges,
// gives each temporary an offset in one arena (ArenaLayout.h), and
// replaces the temporaries by views of a single allocation of the arena
// (Passes.td says which temporaries, and why).
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/ArenaLayout.h"
#include "compiler/pipelines/ArenaPlanAttrs.h"
#include "compiler/pipelines/BufferUseSpan.h"
#include "compiler/pipelines/Passes.h"
#include "compiler/pipelines/ReuseDyingInputs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace tcc {
#define GEN_PASS_DEF_PLANARENAPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// A temporary that the plan places.
struct Planned {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  tcc::ArenaBuffer buffer;
};

/// The bytes of a temporary the plan may place: a static shape of whole
/// bytes in the default memory space, with the identity layout that a view
/// of the arena has, and no stricter alignment than the arena's.
std::optional<uint64_t> plannableBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (bits % 8 ||
      (alloc.getAlignment() && *alloc.getAlignment() > tcc::kArenaAlignment))
    return std::nullopt;
  uint64_t bytes = uint64_t(type.getNumElements()) * (bits / 8);
  if (bytes == 0)
    return std::nullopt;
  return bytes;
}

/// tcc-plan-arena, as Passes.td describes it.
struct PlanArenaPass : public tcc::impl::PlanArenaPassBase<PlanArenaPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Temporaries that meet at an elementwise op share memory first: the
    // op writes over the one it reads for the last time.
    tcc::reuseDyingInputs(func);
    Block &body = func.getBody().front();
    DenseMap<Operation *, int64_t> step;
    for (Operation &op : body)
      step[&op] = int64_t(step.size());

    SmallVector<Planned> planned;
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      std::optional<uint64_t> bytes = plannableBytes(alloc);
      memref::DeallocOp dealloc = tcc::soleDeallocInBlock(alloc);
      if (!bytes || !dealloc)
        continue;
      auto span = tcc::bufferUseSpan(alloc, dealloc);
      if (!span)
        continue;
      planned.push_back(
          {alloc, dealloc, {step[span->first], step[span->second], *bytes}});
    }
    // Even one temporary goes into the arena: every temporary of static
    // size is then in the plan that the manifest records.
    if (planned.empty())
      return;

    std::vector<tcc::ArenaBuffer> buffers;
    for (const Planned &p : planned)
      buffers.push_back(p.buffer);
    tcc::ArenaLayout layout = tcc::layOutArena(buffers);
    // Cheap next to the compile, and a wrong plan would corrupt values
    // silently: no two temporaries live at once may overlap, and no arena
    // can be smaller than the bytes live at once.
    if (!tcc::layoutIsSound(buffers, layout) ||
        layout.bytes < tcc::maxLiveBytes(buffers)) {
      func.emitError("internal error: the arena plan of '")
          << func.getSymName() << "' overlaps live temporaries";
      return signalPassFailure();
    }

    // The arena lives from the first planned allocation to the last
    // planned release: the views must see it, and it is no longer held.
    Operation *firstAlloc = planned.front().alloc;
    Operation *lastDealloc = planned.front().dealloc;
    for (const Planned &p : planned)
      if (lastDealloc->isBeforeInBlock(p.dealloc))
        lastDealloc = p.dealloc;
    OpBuilder b(firstAlloc);
    auto arenaType = MemRefType::get({int64_t(layout.bytes)}, b.getI8Type());
    auto arena = b.create<memref::AllocOp>(
        func.getLoc(), arenaType, b.getI64IntegerAttr(tcc::kArenaAlignment));
    arena->setAttr(tcc::kArenaAttr, b.getUnitAttr());
    b.setInsertionPointAfter(lastDealloc);
    b.create<memref::DeallocOp>(func.getLoc(), arena);

    uint64_t unshared = 0;
    for (auto [p, offset] : llvm::zip(planned, layout.offsets)) {
      b.setInsertionPoint(p.alloc);
      Value at = b.create<arith::ConstantIndexOp>(p.alloc.getLoc(), offset);
      auto view = b.create<memref::ViewOp>(p.alloc.getLoc(), p.alloc.getType(),
                                           arena, at, ValueRange{});
      p.alloc.replaceAllUsesWith(view.getResult());
      p.dealloc.erase();
      p.alloc.erase();
      unshared += tcc::alignToArena(p.buffer.bytes);
    }
    func->setAttr(tcc::kArenaBytesAttr, b.getI64IntegerAttr(layout.bytes));
    func->setAttr(tcc::kArenaUnsharedBytesAttr, b.getI64IntegerAttr(unshared));
  }
};

} // namespace
