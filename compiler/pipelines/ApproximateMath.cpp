//===- ApproximateMath.cpp - vectorizable math functions ------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// tcc-approximate-math, as Passes.td describes it.
struct ApproximateMathPass
    : public tcc::impl::ApproximateMathPassBase<ApproximateMathPass> {
  using ApproximateMathPassBase::ApproximateMathPassBase;

  void runOnOperation() override {
    // Every approximation but sin and cos: theirs reduces the argument with
    // one f32 constant for pi/2 and loses about one ulp of |x| (0.05 at
    // 1e6, already 100 ulps of the result at 100), where libm's sinf/cosf
    // stay within an ulp for every argument, as numpy and libdevice do.
    RewritePatternSet all(&getContext());
    populateMathPolynomialApproximationPatterns(all);
    RewritePatternSet patterns(&getContext());
    for (std::unique_ptr<RewritePattern> &pattern : all.getNativePatterns()) {
      std::optional<OperationName> root = pattern->getRootKind();
      if (root && (root->getStringRef() == math::SinOp::getOperationName() ||
                   root->getStringRef() == math::CosOp::getOperationName()))
        continue;
      patterns.add(std::move(pattern));
    }
    // Only the math ops and what their approximations create are rewritten:
    // a greedy rewrite of the whole module visited every op of it (43 ms of
    // a transformer's compile) to find a few hundred.
    SmallVector<Operation *> math;
    getOperation().walk([&](Operation *op) {
      if (isa<math::MathDialect>(op->getDialect()))
        math.push_back(op);
    });
    GreedyRewriteConfig config;
    config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
    if (!math.empty() &&
        failed(applyOpPatternsAndFold(math, std::move(patterns), config)))
      signalPassFailure();

    // What is left of log1p and expm1 (f64) becomes libm's log1p and expm1:
    // convert-math-to-llvm would compute log(1 + x) and exp(x) - 1, which
    // lose every digit for small x. Only these ops: libm calls for floor,
    // sqrt, ... would replace single instructions.
    SmallVector<Operation *> inexact;
    getOperation().walk([&](Operation *op) {
      if (isa<math::Log1pOp, math::ExpM1Op>(op))
        inexact.push_back(op);
    });
    if (inexact.empty())
      return;
    RewritePatternSet libm(&getContext());
    populateMathToLibmConversionPatterns(libm);
    if (failed(applyOpPatternsAndFold(inexact, std::move(libm))))
      signalPassFailure();
  }
};

} // namespace
