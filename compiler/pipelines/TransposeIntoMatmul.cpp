//===- TransposeIntoMatmul.cpp - matmul reads a transpose in place --------===//
//
// Attention's `q @ transpose(k)` would otherwise copy K into a temporary
// only to read it once. BLAS takes a transposed operand for free (a flag and
// a leading dimension), so the product reads the transpose's input instead.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_TRANSPOSEINTOMATMULPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The input of a `linalg.transpose` on tensors that swaps the last two
/// dimensions of a rank-`rank` value, else null.
Value transposedSource(Value v, int64_t rank) {
  auto transpose = v.getDefiningOp<linalg::TransposeOp>();
  if (!transpose || !transpose.hasPureTensorSemantics())
    return {};
  SmallVector<int64_t> swapLast;
  for (int64_t d = 0; d < rank - 2; ++d)
    swapLast.push_back(d);
  swapLast.append({rank - 1, rank - 2});
  if (transpose.getPermutation() != ArrayRef<int64_t>(swapLast))
    return {};
  return transpose.getInput();
}

/// `Product` reads one transposed operand through `TransposeA` or
/// `TransposeB`. When both are transposed, only B is folded (one named op
/// takes one flag); A's transpose stays.
template <typename Product, typename TransposeA, typename TransposeB>
struct FoldTranspose : OpRewritePattern<Product> {
  using OpRewritePattern<Product>::OpRewritePattern;

  LogicalResult matchAndRewrite(Product op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    int64_t rank = std::is_same_v<Product, linalg::MatmulOp> ? 2 : 3;
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    if (Value b = transposedSource(rhs, rank)) {
      rewriter.replaceOpWithNewOp<TransposeB>(op, op->getResultTypes(),
                                              ValueRange{lhs, b}, init);
      return success();
    }
    if (Value a = transposedSource(lhs, rank)) {
      rewriter.replaceOpWithNewOp<TransposeA>(op, op->getResultTypes(),
                                              ValueRange{a, rhs}, init);
      return success();
    }
    return failure();
  }
};

/// tcc-transpose-into-matmul, as Passes.td describes it.
struct TransposeIntoMatmulPass
    : public tcc::impl::TransposeIntoMatmulPassBase<TransposeIntoMatmulPass> {
  using TransposeIntoMatmulPassBase::TransposeIntoMatmulPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<
        FoldTranspose<linalg::MatmulOp, linalg::MatmulTransposeAOp,
                      linalg::MatmulTransposeBOp>,
        FoldTranspose<linalg::BatchMatmulOp, linalg::BatchMatmulTransposeAOp,
                      linalg::BatchMatmulTransposeBOp>>(&getContext());
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
