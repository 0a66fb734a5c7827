//===- GpuKernelBuilder.cpp - building blocks of tcc's GPU kernels --------===//

#include "compiler/pipelines/gpu/GpuKernelBuilder.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace tcc::gpu_kernel {

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return b.create<arith::ConstantIndexOp>(loc, v);
}

Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value p = indexConstant(b, loc, 1);
  for (Value s : sizes)
    p = b.create<arith::MulIOp>(loc, p, s);
  return p;
}

/// Splits a linear index into coordinates within `sizes`, the last fastest.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<Value> sizes) {
  SmallVector<Value> ivs(sizes.size());
  for (int i = (int)sizes.size() - 1; i > 0; --i) {
    ivs[i] = b.create<arith::RemUIOp>(loc, linear, sizes[i]);
    linear = b.create<arith::DivUIOp>(loc, linear, sizes[i]);
  }
  if (!sizes.empty())
    ivs[0] = linear;
  return ivs;
}

/// The indices that `map` gives for the loop indices `ivs`.
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(b.create<affine::AffineApplyOp>(
        loc, AffineMap::get(map.getNumDims(), map.getNumSymbols(), e), ivs));
  }
  return indices;
}

/// The buffer and indices of `operand` at loop indices `ivs` (or at the
/// flat index).
std::pair<Value, SmallVector<Value>> locate(OpBuilder &b, linalg::LinalgOp op,
                                            OpOperand *operand,
                                            ArrayRef<Value> ivs,
                                            FlatAccess *flat) {
  Value buffer = operand->get();
  if (flat) {
    if (Value view = flat->views.lookup(operand))
      return {view, {flat->index}};
    if (cast<MemRefType>(buffer.getType()).getRank() == 0)
      return {buffer, {}};
    if (flat->ivsIndex != flat->index) {
      flat->ivs = delinearize(b, op.getLoc(), flat->index, flat->sizes);
      flat->ivsIndex = flat->index;
    }
    ivs = flat->ivs;
  }
  return {buffer,
          applyMap(b, op.getLoc(), op.getMatchingIndexingMap(operand), ivs)};
}

/// The current values of the outputs at `ivs`, loaded only where the body
/// reads them (null otherwise).
SmallVector<Value> loadOutputs(OpBuilder &b, linalg::LinalgOp op,
                               ArrayRef<Value> ivs, FlatAccess *flat) {
  SmallVector<Value> values;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (op.getMatchingBlockArgument(&init).use_empty()) {
      values.push_back(Value());
      continue;
    }
    auto [buffer, indices] = locate(b, op, &init, ivs, flat);
    values.push_back(b.create<memref::LoadOp>(op.getLoc(), buffer, indices));
  }
  return values;
}

void storeOutputs(OpBuilder &b, linalg::LinalgOp op, ArrayRef<Value> ivs,
                  ValueRange values, FlatAccess *flat) {
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values)) {
    auto [buffer, indices] = locate(b, op, &init, ivs, flat);
    b.create<memref::StoreOp>(op.getLoc(), value, buffer, indices);
  }
}

/// Lets LLVM fuse a multiply and an add into one fma, as CUDA compilers do
/// by default (`--fmad=true`): one rounding instead of two.
void allowContraction(Operation *op) {
  auto fastMath = dyn_cast<arith::ArithFastMathInterface>(op);
  if (!fastMath)
    return;
  arith::FastMathFlagsAttr old = fastMath.getFastMathFlagsAttr();
  arith::FastMathFlags flags =
      old ? old.getValue() : arith::FastMathFlags::none;
  op->setAttr(fastMath.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(
                  op->getContext(), flags | arith::FastMathFlags::contract));
}

/// Whether `type` is a 16-bit float, for which libdevice has no math
/// functions and NVPTX no instructions beyond arithmetic.
static bool isHalfFloat(Type type) { return type.isF16() || type.isBF16(); }

Operation *cloneForGpu(OpBuilder &b, Operation &op, IRMapping &mapping) {
  Operation *clone = b.clone(op, mapping);
  allowContraction(clone);
  bool halfMath = clone->getDialect() &&
                  isa<math::MathDialect>(clone->getDialect()) &&
                  llvm::any_of(clone->getResultTypes(), isHalfFloat);
  if (!halfMath)
    return clone;
  // exp, tanh, ... on f16/bf16 are computed in f32, as CUDA does.
  Location loc = clone->getLoc();
  OperationState state(loc, clone->getName());
  for (Value operand : clone->getOperands())
    state.operands.push_back(
        isHalfFloat(operand.getType())
            ? Value(b.create<arith::ExtFOp>(loc, b.getF32Type(), operand))
            : operand);
  for (Type type : clone->getResultTypes())
    state.types.push_back(isHalfFloat(type) ? b.getF32Type() : type);
  state.attributes = clone->getAttrs();
  Operation *wide = b.create(state);
  for (auto [i, result] : llvm::enumerate(wide->getResults())) {
    Type narrow = clone->getResult(i).getType();
    Value value = result;
    if (narrow != result.getType())
      value = b.create<arith::TruncFOp>(loc, narrow, result);
    mapping.map(op.getResult(i), value);
  }
  clone->erase();
  return wide;
}

/// The values of the inputs at `ivs` (scalars as they are).
SmallVector<Value> loadInputs(OpBuilder &b, linalg::LinalgOp op,
                              ArrayRef<Value> ivs, FlatAccess *flat) {
  SmallVector<Value> values;
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value value = in->get();
    if (isa<MemRefType>(value.getType())) {
      auto [buffer, indices] = locate(b, op, in, ivs, flat);
      value = b.create<memref::LoadOp>(op.getLoc(), buffer, indices);
    }
    values.push_back(value);
  }
  return values;
}

/// Emits `op`'s body at loop indices `ivs` with the inputs bound to `ins`
/// and the outputs to `outs`; returns the yielded values.
SmallVector<Value> computeBody(OpBuilder &b, linalg::LinalgOp op,
                               ArrayRef<Value> ivs, ArrayRef<Value> ins,
                               ArrayRef<Value> outs) {
  IRMapping mapping;
  return computeBody(b, op, ivs, ins, outs, mapping);
}

/// computeBody, leaving in `mapping` the emitted value of each body value.
SmallVector<Value> computeBody(OpBuilder &b, linalg::LinalgOp op,
                               ArrayRef<Value> ivs, ArrayRef<Value> ins,
                               ArrayRef<Value> outs, IRMapping &mapping) {
  Block *body = op.getBlock();
  for (auto [in, value] : llvm::zip(op.getDpsInputOperands(), ins))
    mapping.map(op.getMatchingBlockArgument(in), value);
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), outs))
    if (value)
      mapping.map(op.getMatchingBlockArgument(&init), value);
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    cloneForGpu(b, inner, mapping);
  }
  SmallVector<Value> yields;
  for (Value y : body->getTerminator()->getOperands())
    yields.push_back(mapping.lookupOrDefault(y));
  return yields;
}

/// Emits `op`'s body at loop indices `ivs`: loads the inputs, binds the
/// output arguments to `outs`, and returns the yielded values.
SmallVector<Value> emitBody(OpBuilder &b, linalg::LinalgOp op,
                            ArrayRef<Value> ivs, ArrayRef<Value> outs,
                            FlatAccess *flat) {
  return computeBody(b, op, ivs, loadInputs(b, op, ivs, flat), outs);
}

/// The loop bounds of `op`, as host values.
SmallVector<Value> loopSizes(OpBuilder &b, linalg::LinalgOp op) {
  SmallVector<Value> sizes;
  for (Range r : op.createLoopRanges(b, op.getLoc()))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, op.getLoc(), r.size));
  return sizes;
}

/// A 1-D launch of `max(blocks, 1)` blocks of `kBlockSize` threads (a grid
/// of zero blocks is a launch error, so empty problems launch one block
/// that does nothing); the builder is left at the start of its body.
gpu::LaunchOp createLaunch(OpBuilder &b, Location loc, Value blocks,
                           TypeRange workgroup) {
  Value one = indexConstant(b, loc, 1);
  Value grid = b.create<arith::MaxUIOp>(loc, blocks, one);
  auto launch = b.create<gpu::LaunchOp>(
      loc, grid, one, one, indexConstant(b, loc, kBlockSize), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/ValueRange(), workgroup);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  b.create<gpu::TerminatorOp>(loc);
  b.setInsertionPointToStart(&body);
  return launch;
}

/// The blocks that cover `total` work items, `perBlock` to a block.
Value blocksFor(OpBuilder &b, Location loc, Value total, int64_t perBlock) {
  return b.create<arith::DivUIOp>(
      loc,
      b.create<arith::AddIOp>(loc, total, indexConstant(b, loc, perBlock - 1)),
      indexConstant(b, loc, perBlock));
}

/// The calling thread's index in a 1-D grid.
Value globalThreadId(OpBuilder &b, Location loc, gpu::LaunchOp launch) {
  return b.create<arith::AddIOp>(
      loc,
      b.create<arith::MulIOp>(loc, launch.getBlockIds().x,
                              launch.getBlockSize().x),
      launch.getThreadIds().x);
}

/// One thread per index in [0, total), the body guarded by index < total.
Value createGuardedLaunch(OpBuilder &b, Location loc, Value total) {
  gpu::LaunchOp launch = createLaunch(b, loc, blocksFor(b, loc, total));
  Value index = globalThreadId(b, loc, launch);
  Value inBounds =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, index, total);
  auto guard = b.create<scf::IfOp>(loc, inBounds, /*withElseRegion=*/false);
  b.setInsertionPointToStart(guard.thenBlock());
  return index;
}

/// A launch of one thread.
gpu::LaunchOp createSingleThreadLaunch(OpBuilder &b, Location loc) {
  Value one = indexConstant(b, loc, 1);
  auto launch = b.create<gpu::LaunchOp>(loc, one, one, one, one, one, one);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  b.create<gpu::TerminatorOp>(loc);
  b.setInsertionPointToStart(&body);
  return launch;
}

/// Splits `sizes` by iterator type.
void splitByIterator(linalg::LinalgOp op, ArrayRef<Value> sizes,
                     SmallVector<Value> &parallel,
                     SmallVector<Value> &reduction) {
  for (auto [size, type] : llvm::zip(sizes, op.getIteratorTypesArray()))
    (type == utils::IteratorType::reduction ? reduction : parallel)
        .push_back(size);
}

/// Interleaves parallel and reduction indices back into loop order.
SmallVector<Value> mergeByIterator(linalg::LinalgOp op,
                                   ArrayRef<Value> parallel,
                                   ArrayRef<Value> reduction) {
  SmallVector<Value> ivs;
  unsigned p = 0, r = 0;
  for (auto type : op.getIteratorTypesArray())
    ivs.push_back(type == utils::IteratorType::reduction ? reduction[r++]
                                                         : parallel[p++]);
  return ivs;
}

} // namespace tcc::gpu_kernel
