//===- LoopRecordState.h - a loop's hidden check record -------*- C++ -*-===//
//
// Ids used inside a scan or while body change from step to step, so no
// prologue before the loop can check them. tc-index-checks gives such a
// loop one more carried state instead: a check record that starts all
// zeros, that each step fills with the first bad id it finds (and the step
// it was found at) unless an earlier step already did, and whose final
// value joins the function's record after the loop.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_TRANSFORMS_LOOPRECORDSTATE_H
#define TCC_DIALECTS_TC_TRANSFORMS_LOOPRECORDSTATE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace tcc::tc::idchecks {

/// The loop that replaced a tc.scan or tc.while, and its final record.
struct LoopWithRecord {
  mlir::Operation *loop;
  mlir::Value record;
};

/// Replaces `loop` (a tc.scan or tc.while) with one that also carries a
/// record of `width` i64 fields, zeros at first; `next` builds the
/// record's next value at the end of the body from the record the step
/// began with. A while's cond region takes the record too and ignores it.
LoopWithRecord addRecordState(
    mlir::Operation *loop, int64_t width,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value)> next);

/// "scan at FILE:LINE:COL", "reverse scan at ...", "while at ...": how an
/// error names the loop a bad id was found in.
std::string describeLoop(mlir::Operation *loop);

} // namespace tcc::tc::idchecks

#endif // TCC_DIALECTS_TC_TRANSFORMS_LOOPRECORDSTATE_H
