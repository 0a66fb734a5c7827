//===- LoopRecordState.cpp - a loop's hidden check record -----------------===//

#include "dialects/tc/Transforms/LoopRecordState.h"

#include "dialects/tc/IR/SourcePlace.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc::tc;

namespace tcc::tc::idchecks {

namespace {

/// A record of `width` zeros: a fill, which on the GPU a kernel writes
/// (a constant would be a global that the loop may not update in place).
Value zeroRecord(OpBuilder &b, Location loc, int64_t width) {
  auto i64 = b.getI64Type();
  Value empty = b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{width}, i64);
  Value zero = b.create<arith::ConstantIntOp>(loc, 0, 64);
  return b.create<linalg::FillOp>(loc, zero, empty).getResult(0);
}

/// Adds the record as the body's carried state number `index` (its
/// argument, and its next value in the yield).
void threadThroughBody(Block &body, unsigned index, Type type, Location loc,
                       function_ref<Value(OpBuilder &, Value)> next) {
  Value prior = body.insertArgument(index, type, loc);
  auto yield = cast<YieldOp>(body.getTerminator());
  OpBuilder b(yield);
  Value value = next(b, prior);
  SmallVector<Value> values(yield.getValues());
  values.insert(values.begin() + index, value);
  yield->setOperands(values);
}

/// Replaces `op` by `fresh`, which has the record as result `n`: its
/// attributes and the uses of its results move over.
LoopWithRecord replaceLoop(Operation *op, Operation *fresh, unsigned n) {
  fresh->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    result.replaceAllUsesWith(fresh->getResult(i < n ? i : i + 1));
  op->erase();
  return {fresh, fresh->getResult(n)};
}

/// The record's type.
RankedTensorType recordType(MLIRContext *ctx, int64_t width) {
  return RankedTensorType::get({width}, IntegerType::get(ctx, 64));
}

LoopWithRecord addToScan(ScanOp op, int64_t width,
                         function_ref<Value(OpBuilder &, Value)> next) {
  Location loc = op.getLoc();
  unsigned n = op.getInits().size();
  RankedTensorType type = recordType(op.getContext(), width);
  threadThroughBody(op.getBodyBlock(), n, type, loc, next);
  OpBuilder b(op);
  SmallVector<Value> inits(op.getInits());
  inits.push_back(zeroRecord(b, loc, width));
  SmallVector<Type> types(op.getResultTypes());
  types.insert(types.begin() + n, type);
  auto fresh = b.create<ScanOp>(loc, types, inits, op.getSequences(),
                                op.getSteps(), op.getReverse());
  fresh.getBody().takeBody(op.getBody());
  return replaceLoop(op, fresh, n);
}

LoopWithRecord addToWhile(WhileOp op, int64_t width,
                          function_ref<Value(OpBuilder &, Value)> next) {
  Location loc = op.getLoc();
  unsigned n = op.getInits().size();
  RankedTensorType type = recordType(op.getContext(), width);
  op.getCondBlock().insertArgument(n, type, loc);
  threadThroughBody(op.getBodyBlock(), n, type, loc, next);
  OpBuilder b(op);
  SmallVector<Value> inits(op.getInits());
  inits.push_back(zeroRecord(b, loc, width));
  // Results: the states and the record, the number of steps, then (when
  // there are any) the saved states and the record's, which nothing reads.
  SmallVector<Type> types(op.getFinalStates().getTypes());
  types.push_back(type);
  types.push_back(op.getTripCount().getType());
  ResultRange saved = op.getSavedStates();
  for (Value s : saved)
    types.push_back(s.getType());
  if (!saved.empty()) {
    int64_t rows = cast<RankedTensorType>(saved[0].getType()).getDimSize(0);
    types.push_back(
        RankedTensorType::get({rows, width}, type.getElementType()));
  }
  auto fresh = b.create<WhileOp>(loc, types, inits, op.getMaxSteps());
  fresh.getCond().takeBody(op.getCond());
  fresh.getBody().takeBody(op.getBody());
  return replaceLoop(op, fresh, n);
}

} // namespace

LoopWithRecord addRecordState(Operation *loop, int64_t width,
                              function_ref<Value(OpBuilder &, Value)> next) {
  if (auto scan = dyn_cast<ScanOp>(loop))
    return addToScan(scan, width, next);
  return addToWhile(cast<WhileOp>(loop), width, next);
}

std::string describeLoop(Operation *loop) {
  std::string kind = "while";
  if (auto scan = dyn_cast<ScanOp>(loop))
    kind = scan.getReverse() ? "reverse scan" : "scan";
  return kind + " at " + sourcePlace(loop->getLoc());
}

} // namespace tcc::tc::idchecks
