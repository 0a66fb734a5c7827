//===- Passes.h - tc transformations ---------------------------*- C++ -*-===//

#ifndef TCC_DIALECTS_TC_TRANSFORMS_PASSES_H
#define TCC_DIALECTS_TC_TRANSFORMS_PASSES_H

#include "dialects/tc/IR/TcDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tcc::tc {

/// Attribute names the transformations put on function arguments/results.
inline constexpr llvm::StringLiteral kSharedArgAttr = TcDialect::kSharedArgAttr;
inline constexpr llvm::StringLiteral kUpdateOfAttr = TcDialect::kUpdateOfAttr;
inline constexpr llvm::StringLiteral kOutputArgAttr = TcDialect::kOutputArgAttr;
/// On a function: the shared variables it updates, in update order.
inline constexpr llvm::StringLiteral kUpdatesAttr = "tc.updates";
/// On a function: per output, its name and the argument holding it.
inline constexpr llvm::StringLiteral kOutputsAttr = "tc.outputs";
/// On a function: the shape facts its code assumes (tc-shape-checks), each a
/// dictionary {kind, lhs, rhs, what, where} that the manifest carries.
inline constexpr llvm::StringLiteral kShapeChecksAttr = "tc.shape_checks";
/// On a function: the checks of ids that its prologue makes
/// (tc-index-checks), each a dictionary {kind, what, where}; check k (from
/// 1) failing leaves [k, id, position, bound] in the check record.
inline constexpr llvm::StringLiteral kIndexChecksAttr = "tc.index_checks";
/// On the result (then the last argument) that holds the check record.
inline constexpr llvm::StringLiteral kCheckRecordAttr = "tc.check_record";

#define GEN_PASS_DECL
#include "dialects/tc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/tc/Transforms/Passes.h.inc"

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_TRANSFORMS_PASSES_H
