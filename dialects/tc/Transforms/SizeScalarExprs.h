//===- SizeScalarExprs.h - the expression of a computed size -*- C++ -*-===//
//
// `full([M, 1], 2)` and `arange(1, T)` size their results with i64 scalars
// computed from the inputs' sizes (`tc.size`, then `+ - * / max min` with
// constants). tc-shape-checks follows those scalars to an expression of
// the input symbols, so that the facts about such a result (a max over it
// is not empty) are checked before a call as those of any other.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_TRANSFORMS_SIZESCALAREXPRS_H
#define TCC_DIALECTS_TC_TRANSFORMS_SIZESCALAREXPRS_H

#include "dialects/tc/Transforms/DimExpr.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tcc::tc::shape {

/// The value of the i64 scalar that `op` computes, as an expression of the
/// input symbols: `tc.size` of a dimension (`sizesOf` gives a tensor's
/// sizes), an integer constant, or `+ - * max min` of such scalars and a
/// division by a positive constant (`scalarOf` gives an operand's); unknown
/// for anything else.
DimExpr sizeScalarExpr(mlir::Operation *op,
                       llvm::function_ref<Exprs(mlir::Value)> sizesOf,
                       llvm::function_ref<DimExpr(mlir::Value)> scalarOf);

} // namespace tcc::tc::shape

#endif // TCC_DIALECTS_TC_TRANSFORMS_SIZESCALAREXPRS_H
