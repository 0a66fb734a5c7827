//===- ControlFlowToScf.cpp - tc.scan, tc.while, tc.ifelse as scf ---------===//
//
// A scan becomes one `scf.for` over its steps whose body is the scan's body
// (its tc ops are converted by the rest of convert-tc-to-linalg). What the
// loop threads as iteration arguments decides what One-Shot Bufferize
// makes of it:
//
// - each carried state is an iteration argument whose next value is
//   copied into it (`linalg.copy` into the argument) at the end of the
//   step, so the yielded tensor is the argument's own buffer: the state is
//   updated in place. (Yielding the step's fresh result instead would make
//   bufferization allocate and copy a new buffer every step; the copy of a
//   state is cheap next to the step that computes it.)
// - each stacked output is one tensor of `[n] + shape`, allocated before
//   the loop and threaded through it, that every step writes its slice of
//   with `tensor.insert_slice`: in place, one buffer for all steps.
//
// The temporaries a step computes are allocated inside the loop by
// bufferization and hoisted out of it afterwards (tc-hoist-loop-buffers).
//
// A while becomes one `scf.while` that threads a step counter, the carried
// states (updated in place the same way) and, when grad reads them, the
// buffers of `max_steps` rows that save the state each step starts from.
// Its `before` region is the while's cond region and the bound
// `counter < max_steps`; its `after` region is the body.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

/// The full slice `[t, 0, ...] x [1, sizes...]` of `tensor` along axis 0,
/// its leading unit dimension dropped when `type` has one rank less.
struct Row {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};

Row rowOf(OpBuilder &b, Location loc, Value tensor, Value t) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Row row;
  row.offsets.push_back(t);
  row.sizes.push_back(b.getIndexAttr(1));
  row.strides.assign(type.getRank(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> all = tensor::getMixedSizes(b, loc, tensor);
  for (int64_t d = 1; d < type.getRank(); ++d) {
    row.offsets.push_back(b.getIndexAttr(0));
    row.sizes.push_back(all[d]);
  }
  return row;
}

/// The loop's initial value of a carried state. The loop updates its
/// states in place, so a value that is read elsewhere too, a shared
/// variable's or an input's is copied first: One-Shot Bufferize (MLIR 19)
/// cannot otherwise place a loop that starts from a buffer that its final
/// state is written back into (a scan body's `updates` of a variable, a
/// borrowed output in a borrowed input's buffer: tcc-difftest seed 25391),
/// nor one that starts from a reduction computed into an output (seed
/// 25329): 'cannot avoid RaW conflict'. The copy is one state's, once per
/// call.
Value loopInit(OpBuilder &b, Location loc, Value init) {
  bool readElsewhere = !init.hasOneUse();
  if (!init.getDefiningOp<SharedReadOp>() && !isa<BlockArgument>(init) &&
      !readElsewhere)
    return init;
  return b.create<bufferization::AllocTensorOp>(
      loc, cast<RankedTensorType>(init.getType()), ValueRange(), init);
}

/// The state whose argument `value` is, or a view of (through tc ops that
/// lower to views: reshape, slice), if any.
std::optional<size_t> viewedState(Value value, ArrayRef<Value> bodyArgs) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<ReshapeOp, SliceOp, tensor::ExtractSliceOp,
             tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
      return std::nullopt;
    value = def->getOperand(0);
  }
  for (auto [k, arg] : llvm::enumerate(bodyArgs))
    if (arg == value)
      return k;
  return std::nullopt;
}

/// The states' next values `values` (yielded by a body whose state
/// arguments were `bodyArgs`) copied into the loop's state arguments
/// `dests`, so that each state is updated in place. A next value that is
/// (a view of) another state goes through a temporary first, since that
/// state may be overwritten before it is read.
SmallVector<Value> copyIntoStates(OpBuilder &b, Location loc,
                                  SmallVector<Value> values,
                                  ArrayRef<Value> bodyArgs, ValueRange dests) {
  size_t numInits = values.size();
  for (size_t k = 0; k < numInits; ++k) {
    std::optional<size_t> state =
        viewedState(values[k], bodyArgs.take_front(numInits));
    if (!state || *state == k)
      continue;
    auto type = cast<RankedTensorType>(values[k].getType());
    Value temp = b.create<tensor::EmptyOp>(
        loc, tensor::getMixedSizes(b, loc, values[k]), type.getElementType());
    values[k] = b.create<linalg::CopyOp>(loc, values[k], temp).getResult(0);
  }
  SmallVector<Value> next;
  for (size_t k = 0; k < numInits; ++k)
    next.push_back(values[k] == bodyArgs[k]
                       ? dests[k]
                       : b.create<bufferization::MaterializeInDestinationOp>(
                              loc, values[k], dests[k])
                             .getResult());
  return next;
}

/// Replaces `op` by `results`, each cast to its result's type where the
/// loop's is less static (a stack of rows counted by a `tensor.dim` of a
/// static length is `?` rows long).
void replaceWithCasts(ConversionPatternRewriter &rewriter, Operation *op,
                      SmallVector<Value> results) {
  rewriter.setInsertionPointAfter(op);
  for (auto [value, result] : llvm::zip(results, op->getResults()))
    if (value && value.getType() != result.getType())
      value = rewriter.create<tensor::CastOp>(op->getLoc(), result.getType(),
                                              value);
  rewriter.replaceOp(op, results);
}

struct ScanToFor : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
    // The number of steps: the sequences' length, or max(steps, 0).
    Value n;
    if (!adaptor.getSequences().empty()) {
      n = rewriter.create<tensor::DimOp>(loc, adaptor.getSequences()[0], 0);
    } else {
      Value steps = rewriter.create<tensor::ExtractOp>(loc, adaptor.getSteps(),
                                                       ValueRange{});
      Value index = rewriter.create<arith::IndexCastOp>(
          loc, rewriter.getIndexType(), steps);
      n = rewriter.create<arith::MaxSIOp>(loc, index, zero);
    }
    // One buffer per stacked output, for all steps.
    auto yield = cast<YieldOp>(op.getBodyBlock().getTerminator());
    size_t numInits = op.getInits().size();
    SmallVector<Value> iterArgs;
    for (Value init : adaptor.getInits())
      iterArgs.push_back(loopInit(rewriter, loc, init));
    for (auto [k, stacked] : llvm::enumerate(op.getStacked())) {
      auto type = cast<RankedTensorType>(stacked.getType());
      // A stacked output that nothing reads (the states a scan saves for a
      // grad that was not taken) is never allocated nor written.
      if (stacked.use_empty()) {
        iterArgs.push_back(Value());
        continue;
      }
      Value perStep = yield.getValues()[numInits + k];
      SmallVector<OpFoldResult> sizes = {n};
      for (int64_t d = 1; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d)) {
          sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
          continue;
        }
        FailureOr<Value> size = sizeFromAbove(rewriter, op, k, perStep, d - 1);
        if (failed(size))
          return rewriter.notifyMatchFailure(
              op, "a stacked output's dynamic size is not known before the "
                  "loop");
        sizes.push_back(*size);
      }
      iterArgs.push_back(
          createLoopDestination(rewriter, loc, sizes, type.getElementType()));
    }
    // Results and yields by position; the unread stacked outputs have no
    // iteration argument (`slot` -1).
    SmallVector<int64_t> slot;
    SmallVector<Value> loopInits;
    for (Value v : iterArgs) {
      slot.push_back(v ? (int64_t)loopInits.size() : -1);
      if (v)
        loopInits.push_back(v);
    }
    auto loop = rewriter.create<scf::ForOp>(loc, zero, n, one, loopInits);
    Block *loopBody = loop.getBody();
    rewriter.setInsertionPointToStart(loopBody);
    Value i = loop.getInductionVar();
    // Step i reads element t of the sequences: i, or n - 1 - i.
    Value t = i;
    if (op.getReverse()) {
      Value last = rewriter.create<arith::SubIOp>(loc, n, one);
      t = rewriter.create<arith::SubIOp>(loc, last, i);
    }
    SmallVector<Value> args(loop.getRegionIterArgs().take_front(numInits));
    for (Value seq : adaptor.getSequences()) {
      auto type = cast<RankedTensorType>(seq.getType());
      auto elementType = RankedTensorType::get(type.getShape().drop_front(),
                                               type.getElementType());
      Row row = rowOf(rewriter, loc, seq, t);
      args.push_back(rewriter.create<tensor::ExtractSliceOp>(
          loc, elementType, seq, row.offsets, row.sizes, row.strides));
    }
    // The conversion replaces the body's arguments when it commits: until
    // then the yield still names them.
    SmallVector<Value> bodyArgs(op.getBodyBlock().getArguments());
    rewriter.mergeBlocks(&op.getBodyBlock(), loopBody, args);
    // The yield: the outputs into their rows of the stacks first (they may
    // read a state), then the states copied into their arguments. A state's
    // next value that is (a view of) another state goes through a
    // temporary, since that state may be overwritten first.
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> next(yield.getValues().size());
    for (size_t k = numInits; k < next.size(); ++k) {
      if (slot[k] < 0)
        continue;
      Value dest = loop.getRegionIterArgs()[slot[k]];
      Row row = rowOf(rewriter, loc, dest, i);
      next[k] = rewriter.create<tensor::InsertSliceOp>(
          loc, yield.getValues()[k], dest, row.offsets, row.sizes, row.strides);
    }
    SmallVector<Value> states = copyIntoStates(
        rewriter, loc,
        SmallVector<Value>(yield.getValues().take_front(numInits)), bodyArgs,
        loop.getRegionIterArgs().take_front(numInits));
    llvm::copy(states, next.begin());
    SmallVector<Value> yielded, results;
    for (auto [k, value] : llvm::enumerate(next)) {
      if (slot[k] >= 0)
        yielded.push_back(value);
      results.push_back(slot[k] >= 0 ? loop.getResult(slot[k]) : Value());
    }
    rewriter.create<scf::YieldOp>(loc, yielded);
    rewriter.eraseOp(yield);
    replaceWithCasts(rewriter, op, results);
    return success();
  }

  /// The size of dimension `d` of stacked output `k`'s per-step value
  /// `value`, computed before the loop: from the value itself when it is
  /// defined above, from a carried state's init or a sequence when it is
  /// a body argument, or from the product of the function's dimension
  /// names that the front end recorded in `tc.dims` (one array per stacked
  /// output, a name for each dynamic size).
  static FailureOr<Value> sizeFromAbove(OpBuilder &b, ScanOp op, size_t k,
                                        Value value, int64_t d) {
    Location loc = op.getLoc();
    if (!op.getBody().isAncestor(value.getParentRegion()))
      return b.create<tensor::DimOp>(loc, value, d).getResult();
    size_t numInits = op.getInits().size();
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == &op.getBodyBlock()) {
      if (arg.getArgNumber() < numInits)
        return b
            .create<tensor::DimOp>(loc, op.getInits()[arg.getArgNumber()], d)
            .getResult();
      return b
          .create<tensor::DimOp>(
              loc, op.getSequences()[arg.getArgNumber() - numInits], d + 1)
          .getResult();
    }
    auto all = op->getAttrOfType<ArrayAttr>(TcDialect::kDimsAttr);
    auto func = op->getParentOfType<func::FuncOp>();
    if (!all || k >= all.size() || !func)
      return failure();
    auto dims = dyn_cast<ArrayAttr>(all[k]);
    if (!dims || d >= (int64_t)dims.size())
      return failure();
    auto text = dyn_cast<StringAttr>(dims[d]);
    std::optional<DimProduct> product =
        text ? productOf(Dim::dynamic(text.getValue())) : std::nullopt;
    if (!product)
      return failure();
    Value size = b.create<arith::ConstantIndexOp>(loc, product->coef);
    for (const std::string &factor : product->factors) {
      Value found;
      for (BlockArgument arg : func.getArguments()) {
        auto argDims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                        TcDialect::kDimsAttr);
        if (!argDims)
          continue;
        for (auto [i, name] : llvm::enumerate(argDims))
          if (auto s = dyn_cast<StringAttr>(name); s && s == factor && !found)
            found = b.create<tensor::DimOp>(loc, arg, i);
      }
      if (!found)
        return failure();
      size = b.create<arith::MulIOp>(loc, size, found);
    }
    return size;
  }
};

/// `scf.while` over (counter, states..., saved states...): the before
/// region is the cond region and `counter < max_steps`, the after region
/// saves the states (when read), runs the body and updates the states in
/// place.
struct WhileToScf : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
    Value steps = rewriter.create<tensor::ExtractOp>(loc, adaptor.getMaxSteps(),
                                                     ValueRange{});
    Value maxSteps = rewriter.create<arith::MaxSIOp>(
        loc,
        rewriter.create<arith::IndexCastOp>(loc, rewriter.getIndexType(),
                                            steps),
        zero);
    size_t numInits = op.getInits().size();
    SmallVector<Value> loopInits = {zero};
    for (Value init : adaptor.getInits())
      loopInits.push_back(loopInit(rewriter, loc, init));
    // The saved states that grad reads: `max_steps` rows each.
    SmallVector<size_t> savedRead;
    for (auto [k, saved] : llvm::enumerate(op.getSavedStates())) {
      if (saved.use_empty())
        continue;
      savedRead.push_back(k);
      Value init = adaptor.getInits()[k];
      SmallVector<OpFoldResult> sizes = {maxSteps};
      llvm::append_range(sizes, tensor::getMixedSizes(rewriter, loc, init));
      loopInits.push_back(createLoopDestination(
          rewriter, loc, sizes,
          cast<RankedTensorType>(init.getType()).getElementType()));
    }
    SmallVector<Type> types;
    SmallVector<Location> locs(loopInits.size(), loc);
    for (Value v : loopInits)
      types.push_back(v.getType());
    auto loop = rewriter.create<scf::WhileOp>(loc, types, loopInits);
    Block *before = rewriter.createBlock(&loop.getBefore(), {}, types, locs);
    Block *after = rewriter.createBlock(&loop.getAfter(), {}, types, locs);

    // Before: go on while the condition holds and steps remain.
    auto condYield = cast<YieldOp>(op.getCondBlock().getTerminator());
    rewriter.mergeBlocks(&op.getCondBlock(), before,
                         before->getArguments().slice(1, numInits));
    rewriter.setInsertionPoint(condYield);
    Value holds = rewriter.create<tensor::ExtractOp>(
        loc, condYield.getValues()[0], ValueRange{});
    Value remain = rewriter.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::slt, before->getArgument(0), maxSteps);
    Value go = rewriter.create<arith::AndIOp>(loc, remain, holds);
    rewriter.create<scf::ConditionOp>(loc, go, before->getArguments());
    rewriter.eraseOp(condYield);

    // After: save the states, run the body, update the states in place.
    auto yield = cast<YieldOp>(op.getBodyBlock().getTerminator());
    SmallVector<Value> bodyArgs(op.getBodyBlock().getArguments());
    Value i = after->getArgument(0);
    ValueRange stateArgs = after->getArguments().slice(1, numInits);
    rewriter.setInsertionPointToStart(after);
    SmallVector<Value> savedNext;
    for (auto [slot, k] : llvm::enumerate(savedRead)) {
      Value dest = after->getArgument(1 + numInits + slot);
      Row row = rowOf(rewriter, loc, dest, i);
      savedNext.push_back(rewriter.create<tensor::InsertSliceOp>(
          loc, stateArgs[k], dest, row.offsets, row.sizes, row.strides));
    }
    rewriter.mergeBlocks(&op.getBodyBlock(), after, stateArgs);
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> yielded = {
        rewriter.create<arith::AddIOp>(loc, i, one).getResult()};
    llvm::append_range(yielded,
                       copyIntoStates(rewriter, loc,
                                      SmallVector<Value>(yield.getValues()),
                                      bodyArgs, stateArgs));
    llvm::append_range(yielded, savedNext);
    rewriter.create<scf::YieldOp>(loc, yielded);
    rewriter.eraseOp(yield);

    // Results: the final states, the counter as an i64 scalar, the saved
    // states that are read.
    rewriter.setInsertionPointAfter(loop);
    SmallVector<Value> results(loop.getResults().slice(1, numInits));
    Value count = rewriter.create<arith::IndexCastOp>(
        loc, rewriter.getI64Type(), loop.getResult(0));
    // A fill, not tensor.from_elements: on the GPU the count is written by
    // a kernel into device memory, which the host cannot store to.
    Value countTensor = rewriter.create<tensor::EmptyOp>(
        loc, ArrayRef<int64_t>{}, rewriter.getI64Type());
    results.push_back(
        rewriter.create<linalg::FillOp>(loc, count, countTensor).getResult(0));
    size_t slot = 0;
    for (Value saved : op.getSavedStates())
      results.push_back(
          saved.use_empty() ? Value() : loop.getResult(1 + numInits + slot++));
    replaceWithCasts(rewriter, op, results);
    return success();
  }
};

/// `scf.if` yielding one value or the other; control-flow-sink then moves
/// what only one branch reads into it, so only the branch taken runs.
struct IfElseToIf : OpConversionPattern<IfElseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IfElseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value condition = rewriter.create<tensor::ExtractOp>(
        loc, adaptor.getCondition(), ValueRange{});
    // A branch that yields a value read elsewhere too (by the other branch
    // included), a shared variable's or an input's yields a copy of it,
    // made in the branch: One-Shot Bufferize (MLIR 19) otherwise cannot
    // place the result when the function's outputs take those buffers
    // (tcc-difftest seeds 6000577 and 26169: a value both yielded and an
    // output, 'cannot avoid RaW conflict'; 6000998: a variable yielded into
    // a borrowed output in a borrowed input's buffer, 'would write to
    // read-only buffer'). The copy is of the one value taken. The uses
    // are counted on the tc values: the converted ones do not have theirs
    // yet.
    // Only in a function's own body, where the outputs are: inside a loop
    // a branch yields loop states (the backward scan of a while's grad),
    // and there a copy is neither needed nor lowered on nvptx.
    bool inFunction = isa<func::FuncOp>(op->getParentOp());
    auto yield = [&](OpBuilder &b, Location loc, Value original,
                     Value converted) {
      if (!inFunction ||
          (original.hasOneUse() && !isa<BlockArgument>(original) &&
           !original.getDefiningOp<SharedReadOp>()))
        return b.create<scf::YieldOp>(loc, converted);
      // A linalg.copy, which the GPU pipeline makes a kernel of.
      Value dest = createLoopDestination(
          b, loc, tensor::getMixedSizes(b, loc, converted),
          op.getType().getElementType());
      return b.create<scf::YieldOp>(
          loc, b.create<linalg::CopyOp>(loc, converted, dest).getResult(0));
    };
    auto branch = rewriter.create<scf::IfOp>(
        loc, condition,
        [&](OpBuilder &b, Location loc) {
          yield(b, loc, op.getOnTrue(), adaptor.getOnTrue());
        },
        [&](OpBuilder &b, Location loc) {
          yield(b, loc, op.getOnFalse(), adaptor.getOnFalse());
        });
    Value result = branch.getResult(0);
    // The result gets a buffer of its own: eliminate-empty-tensors would
    // otherwise make a branch compute straight into the buffer of an
    // output or of a value the other branch reads, which One-Shot
    // Bufferize (MLIR 19) then refuses as a read-after-write conflict.
    // (The copy is of the one value taken.)
    {
      Value dest = createLoopDestination(
          rewriter, loc, tensor::getMixedSizes(rewriter, loc, result),
          op.getType().getElementType());
      result = rewriter.create<linalg::CopyOp>(loc, result, dest).getResult(0);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tcc::tc::populateTcControlFlowToScfPatterns(RewritePatternSet &patterns) {
  patterns.add<ScanToFor, WhileToScf, IfElseToIf>(patterns.getContext());
}
