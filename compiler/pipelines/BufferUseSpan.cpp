//===- BufferUseSpan.cpp - where a temporary is used, in its block --------===//

#include "compiler/pipelines/BufferUseSpan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

bool tcc::isBufferView(Operation *op) {
  // memref.transpose is no ViewLikeOpInterface in MLIR 19, yet only
  // permutes the strides.
  return isa<ViewLikeOpInterface, memref::CastOp, memref::TransposeOp>(op);
}

std::optional<std::pair<Operation *, Operation *>>
tcc::bufferUseSpan(memref::AllocOp alloc, memref::DeallocOp dealloc) {
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
      if (isBufferView(user)) {
        for (Value r : user->getResults())
          work.push_back(r);
      } else if (isa<func::ReturnOp>(user) ||
                 llvm::any_of(user->getResultTypes(),
                              [](Type t) { return isa<BaseMemRefType>(t); })) {
        // Returned, or passed on as a value of another op: its life is not
        // ours to shorten.
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

memref::DeallocOp tcc::soleDeallocInBlock(memref::AllocOp alloc) {
  memref::DeallocOp found;
  for (Operation *user : alloc->getUsers()) {
    auto dealloc = dyn_cast<memref::DeallocOp>(user);
    if (!dealloc)
      continue;
    if (found)
      return {};
    found = dealloc;
  }
  if (found && found->getBlock() != alloc->getBlock())
    return {};
  return found;
}
