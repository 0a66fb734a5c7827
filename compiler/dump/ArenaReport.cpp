//===- ArenaReport.cpp - which temporaries share memory, and where --------===//

#include "compiler/dump/ArenaReport.h"
#include "compiler/dump/GraphView.h"
#include "compiler/pipelines/ArenaPlanAttrs.h"
#include "compiler/pipelines/BufferUseSpan.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace {

/// "f32[128,64]", as the graph dumps write types.
std::string typeText(MemRefType type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type.getElementType() << "[";
  llvm::interleave(type.getShape(), os, ",");
  os << "]";
  return text;
}

/// "file:line:col" of every file location inside `loc`, in its order.
void fileLocations(Location loc, std::vector<std::string> &out) {
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    out.push_back((llvm::sys::path::filename(file.getFilename().getValue()) +
                   ":" + Twine(file.getLine()) + ":" + Twine(file.getColumn()))
                      .str());
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations())
      fileLocations(l, out);
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    fileLocations(name.getChildLoc(), out);
  } else if (auto site = dyn_cast<CallSiteLoc>(loc)) {
    fileLocations(site.getCallee(), out);
  }
}

/// The first op of the function's body that uses `view`, or a view of it.
Operation *firstUser(memref::ViewOp view) {
  Block *body = view->getBlock();
  Operation *first = nullptr;
  SmallVector<Value> work = {view.getResult()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (tcc::isBufferView(user))
        work.append(user->result_begin(), user->result_end());
      Operation *at = body->findAncestorOpInBlock(*user);
      if (at && !tcc::isBufferView(user) &&
          (!first || at->isBeforeInBlock(first)))
        first = at;
    }
  }
  return first;
}

} // namespace

tcc::dump::ArenaPlanView tcc::dump::readArenaPlan(func::FuncOp loops) {
  ArenaPlanView plan;
  auto bytes = loops->getAttrOfType<IntegerAttr>(kArenaBytesAttr);
  auto unshared = loops->getAttrOfType<IntegerAttr>(kArenaUnsharedBytesAttr);
  if (!bytes || !unshared)
    return plan;
  plan.bytes = bytes.getInt();
  plan.unsharedBytes = unshared.getInt();
  loops.walk([&](memref::ViewOp view) {
    auto arena = view.getSource().getDefiningOp<memref::AllocOp>();
    std::optional<int64_t> offset = getConstantIntValue(view.getByteShift());
    if (!arena || !arena->hasAttr(kArenaAttr) || !offset)
      return;
    ArenaSlot slot;
    slot.offset = *offset;
    MemRefType type = view.getType();
    slot.bytes = type.getNumElements() *
                 (type.getElementType().getIntOrFloatBitWidth() / 8);
    slot.type = typeText(type);
    Operation *writer = firstUser(view);
    fileLocations(writer ? writer->getLoc() : view.getLoc(), slot.writers);
    plan.slots.push_back(std::move(slot));
  });
  return plan;
}

void tcc::dump::printArenaPlan(const ArenaPlanView &plan,
                               const FunctionGraph &graph,
                               llvm::raw_ostream &os) {
  if (!plan.bytes)
    return;
  os << "arena: " << plan.bytes << " B for " << plan.slots.size()
     << " temporaries of " << plan.unsharedBytes << " B unshared\n";
  for (size_t i = 0; i < plan.slots.size(); ++i) {
    const ArenaSlot &slot = plan.slots[i];
    os << "  #" << i << " [" << slot.offset << ", " << slot.offset + slot.bytes
       << ") " << slot.type;
    // The writer: the last op in program order among those the first user
    // computes, as the memory decisions name a fused loop.
    std::optional<size_t> node;
    for (const std::string &at : slot.writers)
      for (size_t n = 0; n < graph.nodes.size(); ++n)
        if (graph.nodes[n].kind == NodeKind::Op &&
            graph.nodes[n].location == at && (!node || n > *node))
          node = n;
    if (node)
      os << " for [id " << nodeId(*node) << "] " << graph.nodes[*node].name
         << " at " << graph.nodes[*node].location;
    else if (!slot.writers.empty())
      os << " at " << slot.writers.front();
    std::vector<size_t> shares;
    for (size_t j = 0; j < plan.slots.size(); ++j)
      if (j != i && plan.slots[j].offset < slot.offset + slot.bytes &&
          slot.offset < plan.slots[j].offset + plan.slots[j].bytes)
        shares.push_back(j);
    if (!shares.empty()) {
      os << ", shares memory with";
      for (size_t j : shares)
        os << " #" << j;
    }
    os << "\n";
  }
}
