//===- ReuseDyingInputs.cpp - an elementwise op writes over its dying input
//===//

#include "compiler/pipelines/ReuseDyingInputs.h"
#include "compiler/pipelines/BufferUseSpan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace {

/// The first and last use of `alloc` in its block, with its one release.
struct Life {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  Operation *first = nullptr, *last = nullptr;
};

std::optional<Life> lifeOf(Value v, Block &body) {
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != &body)
    return std::nullopt;
  memref::DeallocOp dealloc = tcc::soleDeallocInBlock(alloc);
  if (!dealloc)
    return std::nullopt;
  auto span = tcc::bufferUseSpan(alloc, dealloc);
  if (!span)
    return std::nullopt;
  return Life{alloc, dealloc, span->first, span->second};
}

/// Whether `use` is the only way `op` (or anything inside it) touches the
/// buffer `alloc`, directly or through a view.
bool onlyUseIn(Operation *op, memref::AllocOp alloc, OpOperand &use) {
  SmallVector<Value> work = {alloc.getResult()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &u : v.getUses()) {
      Operation *user = u.getOwner();
      if (tcc::isBufferView(user))
        work.append(user->result_begin(), user->result_end());
      else if (&u != &use && (user == op || op->isAncestor(user)))
        return false;
    }
  }
  return true;
}

/// The temporary that `generic` may write its output into: a dying input
/// of the output's type, read element for element as the output is
/// written. Null when none.
memref::AllocOp dyingInputFor(linalg::GenericOp generic, Life out,
                              Block &body) {
  OpOperand *init = generic.getDpsInitOperand(0);
  AffineMap outMap = generic.getMatchingIndexingMap(init);
  if (!outMap.isPermutation())
    return {};
  for (OpOperand *in : generic.getDpsInputOperands()) {
    std::optional<Life> life = lifeOf(in->get(), body);
    if (!life || life->last != generic.getOperation() ||
        life->alloc.getType() != out.alloc.getType() ||
        !llvm::equal(life->alloc.getDynamicSizes(),
                     out.alloc.getDynamicSizes()) ||
        life->alloc.getAlignment() != out.alloc.getAlignment() ||
        generic.getMatchingIndexingMap(in) != outMap ||
        !onlyUseIn(generic, life->alloc, *in))
      continue;
    return life->alloc;
  }
  return {};
}

} // namespace

unsigned tcc::reuseDyingInputs(func::FuncOp func) {
  if (func.isExternal())
    return 0;
  Block &body = func.getBody().front();
  unsigned saved = 0;
  for (auto generic :
       llvm::make_early_inc_range(body.getOps<linalg::GenericOp>())) {
    if (!generic.hasPureBufferSemantics() || generic.getNumDpsInits() != 1 ||
        generic.getNumParallelLoops() != generic.getNumLoops())
      continue;
    OpOperand *init = generic.getDpsInitOperand(0);
    // The output's old value is not read: it is fresh, so none to read.
    if (!generic.getMatchingBlockArgument(init).use_empty())
      continue;
    std::optional<Life> out = lifeOf(init->get(), body);
    if (!out || out->first != generic.getOperation() ||
        !onlyUseIn(generic, out->alloc, *init))
      continue;
    memref::AllocOp input = dyingInputFor(generic, *out, body);
    if (!input)
      continue;
    // The input's buffer lives on as the output, freed where it was.
    memref::DeallocOp inputDealloc = soleDeallocInBlock(input);
    out->alloc.replaceAllUsesWith(input.getResult());
    inputDealloc.erase();
    out->alloc.erase();
    ++saved;
  }
  return saved;
}
