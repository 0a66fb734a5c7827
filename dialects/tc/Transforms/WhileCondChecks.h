//===- WhileCondChecks.h - ids used in a while's condition ----*- C++ -*-===//
//
// A while's condition cannot carry a check record: it yields one bool. Its
// checked ops are checked on copies instead, where a record can be kept:
// at the start of the body, on the same states, for the checks before each
// step that ran, and after the loop, on its final states, for the check
// that ended it (which counts only when fewer than max_steps steps ran).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_TRANSFORMS_WHILECONDCHECKS_H
#define TCC_DIALECTS_TC_TRANSFORMS_WHILECONDCHECKS_H

#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/Builders.h"

namespace tcc::tc::idchecks {

/// Copies `checked` (ops of `loop`'s cond region, in the region's order)
/// and what in the region they are computed from at `b`'s insertion
/// point, reading `states` where the region reads its arguments; returns
/// the copies of `checked`, in order.
llvm::SmallVector<mlir::Operation *>
copyCondChecks(WhileOp loop, llvm::ArrayRef<mlir::Operation *> checked,
               mlir::OpBuilder &b, mlir::ValueRange states);

} // namespace tcc::tc::idchecks

#endif // TCC_DIALECTS_TC_TRANSFORMS_WHILECONDCHECKS_H
