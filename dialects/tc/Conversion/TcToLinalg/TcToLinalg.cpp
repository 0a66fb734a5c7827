//===- TcToLinalg.cpp - the convert-tc-to-linalg pass ---------------------===//
//
// Applies the four pattern sets with a partial conversion: every tc op must
// go except the shared-variable ops, which a later pass turns into function
// arguments and so must stay legal here.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/Passes.h"
#include "dialects/tc/IR/TcDialect.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tcc::tc {
#define GEN_PASS_DEF_CONVERTTCTOLINALG
#include "dialects/tc/Conversion/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;

void tcc::tc::populateTcToLinalgPatterns(RewritePatternSet &patterns) {
  populateTcElementwiseToLinalgPatterns(patterns);
  populateTcReductionToLinalgPatterns(patterns);
  populateTcContractionToLinalgPatterns(patterns);
  populateTcDataMovementToLinalgPatterns(patterns);
  populateTcIndexingToLinalgPatterns(patterns);
  populateTcConstructorsToLinalgPatterns(patterns);
  populateTcConvToLinalgPatterns(patterns);
  populateTcRandomToLinalgPatterns(patterns);
  populateTcControlFlowToScfPatterns(patterns);
}

namespace {

struct ConvertTcToLinalgPass
    : tcc::tc::impl::ConvertTcToLinalgBase<ConvertTcToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect,
                           scf::SCFDialect,
                           bufferization::BufferizationDialect>();
    target.addIllegalDialect<TcDialect>();
    target.addLegalOp<SharedOp, SharedReadOp, UpdateOp>();
    // Collectives are bufferized into runtime calls by One-Shot Bufferize
    // (dialects/tc/Transforms/CollectivesToCalls.h).
    target.addLegalOp<AllReduceOp, AllGatherOp, ReduceScatterOp, BroadcastOp,
                      ProcessRankOp>();

    RewritePatternSet patterns(ctx);
    populateTcToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
