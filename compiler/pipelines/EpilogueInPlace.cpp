//===- EpilogueInPlace.cpp - an elementwise op reuses its input -----------===//
//
// `p = sigmoid(x @ W + b)` used to compute x @ W into a temporary and the
// fused bias and sigmoid from it into the output (issue 15 item 6). Writing
// the epilogue over the product's own tensor lets bufferization put both in
// the output's buffer.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/EpilogueInPlace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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

struct EpilogueInPlacePass
    : public PassWrapper<EpilogueInPlacePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(EpilogueInPlacePass)

  StringRef getArgument() const final { return "tcc-epilogue-in-place"; }
  StringRef getDescription() const final {
    return "Let an elementwise op write over the temporary it reads";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReuseInputAsInit>(&getContext());
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> tcc::createEpilogueInPlacePass() {
  return std::make_unique<EpilogueInPlacePass>();
}
