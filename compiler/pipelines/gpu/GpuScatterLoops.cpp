//===- GpuScatterLoops.cpp - scatter loop nests as atomic kernels ---------===//
//
// scatter_add lowers to a loop nest over the updates (IndexingToLinalg.cpp)
// that adds each update into the accumulator at its id: on buffers, a
// read-modify-write of one element per iteration. Two updates may hit the
// same element, so on the GPU the nest becomes one thread per iteration
// and the read-modify-write one atomic add; the additions then happen in
// an order the hardware picks (floats may differ in the last bits from the
// host's sequential sum). With rank-0 ids there is no loop: the one
// read-modify-write becomes a kernel of one thread.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/gpu/GpuKernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tcc::gpu_kernel;

namespace {

/// `store(add(load(X[i]), u), X[i])`: the read-modify-write of a scatter.
struct AccumulateStore {
  memref::StoreOp store;
  memref::LoadOp old;
  Operation *add;
  Value update;
};

std::optional<AccumulateStore> matchAccumulate(memref::StoreOp store) {
  Operation *add = store.getValue().getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add) ||
      !add->getResult(0).hasOneUse())
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    auto old = add->getOperand(i).getDefiningOp<memref::LoadOp>();
    if (old && old->hasOneUse() && old.getMemRef() == store.getMemRef() &&
        old.getIndices() == store.getIndices() &&
        old->getBlock() == store->getBlock())
      return AccumulateStore{store, old, add, add->getOperand(1 - i)};
  }
  return std::nullopt;
}

/// The loops of a perfect nest from `outer` (each body one loop or the
/// innermost ops), each from 0 by 1 without carried values.
std::optional<SmallVector<scf::ForOp>> perfectNest(scf::ForOp outer) {
  SmallVector<scf::ForOp> loops;
  scf::ForOp loop = outer;
  while (true) {
    if (loop.getNumResults() != 0 ||
        !isConstantIntValue(loop.getLowerBound(), 0) ||
        !isConstantIntValue(loop.getStep(), 1))
      return std::nullopt;
    loops.push_back(loop);
    Block *body = loop.getBody();
    auto inner = dyn_cast<scf::ForOp>(body->front());
    if (!inner || &body->front() != body->getTerminator()->getPrevNode())
      return loops;
    loop = inner;
  }
}

/// Whether the innermost body is only pure ops, loads and one accumulating
/// store, with no load of the accumulator besides the store's own.
std::optional<AccumulateStore> matchScatterBody(Block *body) {
  std::optional<AccumulateStore> acc;
  for (Operation &op : body->without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (acc)
        return std::nullopt;
      acc = matchAccumulate(store);
      if (!acc)
        return std::nullopt;
      continue;
    }
    if (isa<memref::LoadOp>(op) || isMemoryEffectFree(&op))
      continue;
    return std::nullopt;
  }
  if (!acc)
    return std::nullopt;
  for (Operation &op : body->without_terminator())
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && load != acc->old && load.getMemRef() == acc->store.getMemRef())
      return std::nullopt;
  return acc;
}

/// Erases `ops` (in reverse order) where nothing uses them any more.
void eraseUnused(ArrayRef<Operation *> ops) {
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
}

} // namespace

bool tcc::gpu_kernel::buildScalarScatterKernelIfMatched(memref::StoreOp store) {
  std::optional<AccumulateStore> acc = matchAccumulate(store);
  if (!acc)
    return false;
  // What the store computes from, in its block: loads and pure ops only.
  Block *block = store->getBlock();
  SetVector<Operation *> slice;
  SmallVector<Operation *> work{store};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      // Buffers are the kernel's arguments, not computed in it.
      if (!def || def->getBlock() != block || slice.contains(def) ||
          isa<MemRefType>(v.getType()))
        continue;
      if (!isa<memref::LoadOp>(def) && !isMemoryEffectFree(def))
        return false;
      slice.insert(def);
      work.push_back(def);
    }
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  OpBuilder b(store);
  Location loc = store.getLoc();
  createSingleThreadLaunch(b, loc);
  IRMapping mapping;
  for (Operation *op : ordered)
    b.clone(*op, mapping);
  b.clone(*store, mapping);
  store->erase();
  eraseUnused(ordered);
  return true;
}

bool tcc::gpu_kernel::buildScatterKernelIfMatched(scf::ForOp outer) {
  std::optional<SmallVector<scf::ForOp>> loops = perfectNest(outer);
  if (!loops)
    return false;
  Block *body = loops->back().getBody();
  std::optional<AccumulateStore> acc = matchScatterBody(body);
  if (!acc)
    return false;

  OpBuilder b(outer);
  Location loc = outer.getLoc();
  SmallVector<Value> sizes;
  for (scf::ForOp loop : *loops)
    sizes.push_back(loop.getUpperBound());
  Value thread = createGuardedLaunch(b, loc, product(b, loc, sizes));
  IRMapping mapping;
  for (auto [loop, iv] : llvm::zip(*loops, delinearize(b, loc, thread, sizes)))
    mapping.map(loop.getInductionVar(), iv);
  for (Operation &op : body->without_terminator()) {
    if (&op == acc->old.getOperation() || &op == acc->add)
      continue;
    if (&op == acc->store.getOperation()) {
      SmallVector<Value> at;
      for (Value i : acc->store.getIndices())
        at.push_back(mapping.lookupOrDefault(i));
      b.create<memref::AtomicRMWOp>(
          acc->store.getLoc(),
          isa<arith::AddFOp>(acc->add) ? arith::AtomicRMWKind::addf
                                       : arith::AtomicRMWKind::addi,
          mapping.lookupOrDefault(acc->update), acc->store.getMemRef(), at);
      continue;
    }
    b.clone(op, mapping);
  }
  outer->erase();
  return true;
}
