//===- Slicing.h - slices and numpy indexing of graph files ----*- C++ -*-===//
//
// `slice(x, begin=..., end=..., step=...)` and `x[1:3, ..., -1]` both come
// here: bounds as written (an integer, a dimension's name, or nothing) are
// resolved against the input's dimensions into one tc.slice, and integer
// indices drop their axes with a reshape. numpy's rules are in
// dialects/tc/IR/SliceRules.h.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_SLICING_H
#define TCC_COMPILER_FRONTEND_SLICING_H

#include "compiler/frontend/Expr.h"

namespace tcc::frontend {

/// The message for a zero or non-integer step.
inline constexpr llvm::StringLiteral kNonzeroSliceStep =
    "the step of a slice must be a nonzero integer";

/// One bound of a slice as written.
struct SliceBound {
  enum class Kind { Open, Integer, Dim };
  Kind kind = Kind::Open;
  int64_t integer = 0;
  /// Dim: a name or a product of names and sizes (`N`, `2*N`).
  tc::DimProduct dim;
  std::string text; ///< Dim: as written, for messages.
  mlir::Location loc;
  explicit SliceBound(mlir::Location loc) : loc(loc) {}
};

/// `begin:end:step` of one axis.
struct SliceAxisSpec {
  SliceBound begin, end;
  int64_t step = 1;
  mlir::Location stepLoc;
  explicit SliceAxisSpec(mlir::Location loc)
      : begin(loc), end(loc), stepLoc(loc) {}
};

/// One entry of `x[...]`.
struct IndexEntry {
  enum class Kind { Slice, Integer, Ellipsis };
  Kind kind = Kind::Slice;
  SliceAxisSpec slice;
  int64_t index = 0; ///< Integer
  mlir::Location loc;
  explicit IndexEntry(mlir::Location loc) : slice(loc), loc(loc) {}
};

/// `slice(x, begin=[...], end=[...], step=[...])`: each list has one entry
/// per dimension (an integer or a dimension's name), or is absent (the
/// whole dimension, step 1).
TensorRef emitSliceCall(GraphBuilder &builder, const CallSite &call,
                        TensorRef input);

/// `input[entries...]` at `loc` (the '['): numpy basic indexing with
/// integers, slices and one '...'.
TensorRef emitIndex(GraphBuilder &builder, mlir::Location loc, TensorRef input,
                    llvm::ArrayRef<IndexEntry> entries);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_SLICING_H
