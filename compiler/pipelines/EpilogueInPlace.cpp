//===- EpilogueInPlace.cpp - an elementwise op reuses its input -----------===//
//
// `p = sigmoid(x @ W + b)` used to compute x @ W into a temporary and the
// fused bias and sigmoid from it into the output (issue 15 item 6). Writing
// the epilogue over the product's own tensor lets bufferization put both in
// the output's buffer.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_EPILOGUEINPLACEPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

struct ReuseInputAsInit : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != op.getNumParallelLoops())
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    BlockArgument initArg = op.getMatchingBlockArgument(init);
    if (!init->get().getDefiningOp<tensor::EmptyOp>() || !initArg.use_empty() ||
        !op.getMatchingIndexingMap(init).isIdentity())
      return failure();
    // Only a function's output: there the temporary disappears (the output
    // is the one buffer); elsewhere it would only move to the epilogue.
    if (!llvm::all_of(op->getResult(0).getUsers(), [](Operation *user) {
          return isa<func::ReturnOp>(user);
        }))
      return failure();
    Type resultType = op->getResult(0).getType();
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      // A temporary that a linalg op computed, read only here, element for
      // element, with the result's type (so the same buffer fits both).
      if (value.getType() != resultType || !value.hasOneUse() ||
          !value.getDefiningOp<linalg::LinalgOp>() ||
          !op.getMatchingIndexingMap(input).isIdentity())
        continue;
      // Inputs come first: the operand number is the block argument's.
      unsigned inputIndex = input->getOperandNumber();
      SmallVector<Value> inputs;
      SmallVector<AffineMap> maps;
      for (OpOperand *other : op.getDpsInputOperands())
        if (other != input) {
          inputs.push_back(other->get());
          maps.push_back(op.getMatchingIndexingMap(other));
        }
      maps.push_back(op.getMatchingIndexingMap(init));
      auto replacement = rewriter.create<linalg::GenericOp>(
          op.getLoc(), op->getResultTypes(), inputs, ValueRange{value}, maps,
          op.getIteratorTypesArray());
      // The body, with the input's block argument read from the init's.
      Region &region = replacement.getRegion();
      rewriter.inlineRegionBefore(op.getRegion(), region, region.end());
      Block &moved = region.front();
      rewriter.replaceAllUsesWith(moved.getArgument(inputIndex),
                                  moved.getArgument(initArg.getArgNumber()));
      moved.eraseArgument(inputIndex);
      rewriter.replaceOp(op, replacement->getResults());
      return success();
    }
    return failure();
  }
};

/// tcc-epilogue-in-place, as Passes.td describes it.
struct EpilogueInPlacePass
    : public tcc::impl::EpilogueInPlacePassBase<EpilogueInPlacePass> {
  using EpilogueInPlacePassBase::EpilogueInPlacePassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReuseInputAsInit>(&getContext());
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
