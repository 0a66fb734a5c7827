//===- HostLoops.cpp - the convert-tc-to-host-loops pass ------------------===//
//
// Lowers, on the host only, the ops that run best as explicit loops there:
// the scans (ScansToLoops.cpp) and the takes that copy rows
// (TakeToRows.cpp). Every other op, and a take along the last axis, is left
// to convert-tc-to-linalg, which runs next.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/Passes.h"
#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/IR/TcDialect.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Transforms/DialectConversion.h"

namespace tcc::tc {
#define GEN_PASS_DEF_CONVERTTCTOHOSTLOOPS
#include "dialects/tc/Conversion/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;

namespace {

struct ConvertTcToHostLoopsPass
    : tcc::tc::impl::ConvertTcToHostLoopsBase<ConvertTcToHostLoopsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalOp<CumsumOp, CumprodOp>();
    // The takes that TakeToRows rewrites: a row after the axis, and at
    // least one loop before it.
    target.addDynamicallyLegalOp<TakeOp>([](TakeOp op) {
      int64_t inputRank = op.getInput().getType().getRank();
      int64_t idsRank = op.getIds().getType().getRank();
      int64_t axis = op.getAxis();
      return axis == inputRank - 1 || axis + idsRank == 0;
    });
    RewritePatternSet patterns(ctx);
    populateTcScansToLoopsPatterns(patterns);
    populateTcTakeToRowsPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
