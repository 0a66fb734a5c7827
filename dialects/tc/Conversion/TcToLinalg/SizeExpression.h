//===- SizeExpression.h - size expressions as index arithmetic -*- C++ -*-===//
//
// The front end names computed sizes by expressions over its symbols
// (`((H-2)/2+1)`, `(max(N-1,0))`), in the grammar the runtime evaluates
// (runtime/exec/ShapeChecks.h). The lowering computes such a size from the
// symbols' run-time values with arith ops on `index`.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_SIZEEXPRESSION_H
#define TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_SIZEEXPRESSION_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tcc::tc::lowering {

/// `text` as index arithmetic: integers, symbols (`symbol(name)`, null when
/// unknown), `+ - * /` (division of non-negative values), `min(a,b)`,
/// `max(a,b)` and parentheses. Null when `text` is malformed or uses an
/// unknown symbol; nothing is created then.
mlir::Value
buildSizeExpression(mlir::OpBuilder &b, mlir::Location loc,
                    llvm::StringRef text,
                    llvm::function_ref<mlir::Value(llvm::StringRef)> symbol);

} // namespace tcc::tc::lowering

#endif // TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_SIZEEXPRESSION_H
