//===- ZeroPaddedCopy.cpp - find the padded copy a convolution reads ------===//
//
// The convolution kernels read outside the image as zeros, so the padded
// copy that tc-to-linalg made (an extra pass over the input and a buffer
// the size of it) is dropped when the kernel gets the unpadded source and
// the padding instead. The pattern is matched after bufferization, where
// the copy's writes and the reader's read are explicit: the padded buffer
// must have no other user, and nothing between the copy and the reader may
// write the source.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/ZeroPaddedCopy.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace {

/// The buffer `v` is a view of (itself when it is none).
Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Whether `op` writes or frees only buffers that it or an earlier op of
/// the block allocated, none of them `source`'s: such buffers cannot alias
/// the source. An op with unknown effects writes anything.
bool writesOnlyFreshBuffers(Operation *op, Value source) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &e : instances) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
      continue;
    Value written = e.getValue();
    if (!written)
      return false;
    Value root = rootBuffer(written);
    if (root == source || !root.getDefiningOp<memref::AllocOp>())
      return false;
  }
  return true;
}

} // namespace

std::optional<tcc::ZeroPaddedCopy> tcc::findZeroPaddedCopy(Value value,
                                                           Operation *reader) {
  ZeroPaddedCopy found;
  Value padded = value;
  if (auto expand = value.getDefiningOp<memref::ExpandShapeOp>()) {
    if (!expand->hasOneUse())
      return std::nullopt;
    found.expand = expand;
    padded = expand.getSrc();
  }
  auto alloc = padded.getDefiningOp<memref::AllocOp>();
  Block *block = reader->getBlock();
  if (!alloc || alloc->getBlock() != block)
    return std::nullopt;
  linalg::FillOp fill;
  memref::SubViewOp view;
  for (Operation *user : alloc->getUsers()) {
    if (user == found.expand || (!found.expand && user == reader))
      continue;
    if (auto f = dyn_cast<linalg::FillOp>(user);
        f && !fill && f.getOutputs()[0] == padded) {
      fill = f;
      continue;
    }
    if (auto v = dyn_cast<memref::SubViewOp>(user); v && !view) {
      view = v;
      continue;
    }
    return std::nullopt;
  }
  if (!fill || !view || !view->hasOneUse() ||
      !matchPattern(fill.getInputs()[0], m_PosZeroFloat()))
    return std::nullopt;
  auto copy = dyn_cast<memref::CopyOp>(*view->getUsers().begin());
  if (!copy || copy.getTarget() != view.getResult() ||
      copy->getBlock() != block || fill->getBlock() != block ||
      !fill->isBeforeInBlock(copy) || !copy->isBeforeInBlock(reader))
    return std::nullopt;
  for (int64_t stride : view.getStaticStrides())
    if (stride != 1)
      return std::nullopt;
  for (int64_t offset : view.getStaticOffsets()) {
    if (ShapedType::isDynamic(offset))
      return std::nullopt;
    found.low.push_back(offset);
  }
  Value source = rootBuffer(copy.getSource());
  for (Operation *op = copy->getNextNode(); op != reader;
       op = op->getNextNode())
    if (!writesOnlyFreshBuffers(op, source))
      return std::nullopt;
  found.source = copy.getSource();
  found.ops = {copy, view, fill, alloc};
  return found;
}
