//===- PlanArena.cpp - temporaries share arenas by a compile-time plan ----===//
//
// After tcc-free-at-last-use, a temporary of static size in a function's
// body lives from its first use to its last. This pass reads those ranges,
// groups the temporaries, gives each an offset in its group's arena
// (ArenaLayout.h), and replaces the temporaries by views of one allocation
// per group (Passes.td says which temporaries, and why).
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

/// The steps at which memory outside the plan may be held: the live range
/// of every other temporary of the body (to the end when it escapes), and
/// each op whose regions allocate.
std::vector<std::pair<int64_t, int64_t>>
busySteps(Block &body, const DenseMap<Operation *, int64_t> &step,
          ArrayRef<Planned> planned) {
  llvm::SmallPtrSet<Operation *, 16> inPlan;
  for (const Planned &p : planned)
    inPlan.insert(p.alloc);
  std::vector<std::pair<int64_t, int64_t>> busy;
  int64_t end = int64_t(step.size());
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<memref::AllocOp>(&op)) {
      if (inPlan.contains(alloc))
        continue;
      memref::DeallocOp dealloc = tcc::soleDeallocInBlock(alloc);
      auto span = dealloc ? tcc::bufferUseSpan(alloc, dealloc) : std::nullopt;
      busy.push_back(
          span ? std::make_pair(step.at(span->first), step.at(span->second))
               : std::make_pair(step.at(&op), end));
    } else if (op.getNumRegions() && op.walk([](memref::AllocOp) {
                                         return WalkResult::interrupt();
                                       }).wasInterrupted()) {
      busy.push_back({step.at(&op), step.at(&op)});
    }
  }
  return busy;
}

/// Whether memory outside the plan is held at any step of [first, last].
bool busyDuring(const std::vector<std::pair<int64_t, int64_t>> &busy,
                int64_t first, int64_t last) {
  return llvm::any_of(busy, [&](auto range) {
    return range.first <= last && first <= range.second;
  });
}

/// The planned temporaries (in the order they start) cut into groups, one arena
/// each. Temporaries whose lives overlap, directly or through others, are
/// in one group. Groups that follow each other share one arena too, unless
/// memory outside the plan is held while the merged arena would be: there,
/// holding the arena longer could raise the call's peak.
SmallVector<ArrayRef<Planned>>
groupsOf(ArrayRef<Planned> planned,
         const std::vector<std::pair<int64_t, int64_t>> &busy) {
  SmallVector<ArrayRef<Planned>> groups;
  size_t begin = 0;
  int64_t groupFirst = planned[0].buffer.first, lastLive = -1;
  for (size_t i = 0; i < planned.size(); ++i) {
    const tcc::ArenaBuffer &b = planned[i].buffer;
    bool overlaps = b.first <= lastLive;
    if (i > begin && !overlaps && busyDuring(busy, groupFirst, b.last)) {
      groups.push_back(planned.slice(begin, i - begin));
      begin = i;
      groupFirst = b.first;
    }
    lastLive = std::max(lastLive, b.last);
  }
  groups.push_back(planned.slice(begin));
  return groups;
}

/// Places `group` in one arena, allocated before the first of them and
/// freed after the last, and makes each a view of it; the arena's bytes,
/// or none after an error.
std::optional<uint64_t> placeInArena(func::FuncOp func,
                                     ArrayRef<Planned> group) {
  std::vector<tcc::ArenaBuffer> buffers;
  for (const Planned &p : group)
    buffers.push_back(p.buffer);
  tcc::ArenaLayout layout = tcc::layOutArena(buffers);
  // Cheap next to the compile, and a wrong plan would corrupt values
  // silently: no two temporaries live at once may overlap, and no arena
  // can be smaller than the bytes live at once.
  if (!tcc::layoutIsSound(buffers, layout) ||
      layout.bytes < tcc::maxLiveBytes(buffers)) {
    func.emitError("internal error: the arena plan of '")
        << func.getSymName() << "' overlaps live temporaries";
    return std::nullopt;
  }
  Operation *firstAlloc = group.front().alloc;
  Operation *lastDealloc = group.front().dealloc;
  for (const Planned &p : group) {
    if (p.alloc->isBeforeInBlock(firstAlloc))
      firstAlloc = p.alloc;
    if (lastDealloc->isBeforeInBlock(p.dealloc))
      lastDealloc = p.dealloc;
  }
  OpBuilder b(firstAlloc);
  auto arenaType = MemRefType::get({int64_t(layout.bytes)}, b.getI8Type());
  auto arena = b.create<memref::AllocOp>(
      func.getLoc(), arenaType, b.getI64IntegerAttr(tcc::kArenaAlignment));
  arena->setAttr(tcc::kArenaAttr, b.getUnitAttr());
  b.setInsertionPointAfter(lastDealloc);
  b.create<memref::DeallocOp>(func.getLoc(), arena);
  for (auto [p, offset] : llvm::zip(group, layout.offsets)) {
    memref::AllocOp alloc = p.alloc;
    memref::DeallocOp dealloc = p.dealloc;
    b.setInsertionPoint(alloc);
    Value at = b.create<arith::ConstantIndexOp>(alloc.getLoc(), offset);
    auto view = b.create<memref::ViewOp>(alloc.getLoc(), alloc.getType(), arena,
                                         at, ValueRange{});
    alloc.replaceAllUsesWith(view.getResult());
    dealloc.erase();
    alloc.erase();
  }
  return layout.bytes;
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
    if (planned.empty())
      return;

    // In the order they start, for grouping.
    llvm::stable_sort(planned, [](const Planned &a, const Planned &b) {
      return a.buffer.first < b.buffer.first;
    });
    uint64_t largest = 0, unshared = 0;
    std::vector<std::pair<int64_t, int64_t>> busy =
        busySteps(body, step, planned);
    for (ArrayRef<Planned> group : groupsOf(planned, busy)) {
      // An arena is held from its first temporary's first use to its last
      // one's last: where memory outside the plan is held meanwhile (a
      // temporary of symbolic size), that could raise the call's peak over
      // freeing each at its last use. Those stay as they are.
      int64_t first = group.front().buffer.first, last = first;
      for (const Planned &p : group)
        last = std::max(last, p.buffer.last);
      if (busyDuring(busy, first, last))
        continue;
      std::optional<uint64_t> bytes = placeInArena(func, group);
      if (!bytes)
        return signalPassFailure();
      largest = std::max(largest, *bytes);
      for (const Planned &p : group)
        unshared += tcc::alignToArena(p.buffer.bytes);
    }
    if (!unshared)
      return;
    OpBuilder b(func);
    func->setAttr(tcc::kArenaBytesAttr, b.getI64IntegerAttr(largest));
    func->setAttr(tcc::kArenaUnsharedBytesAttr, b.getI64IntegerAttr(unshared));
  }
};

} // namespace
