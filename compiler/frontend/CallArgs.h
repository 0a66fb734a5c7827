//===- CallArgs.h - typed access to a call's keyword values -----*- C++ -*-===//
//
// Built-ins, constructors, windowed and random ops all read keyword values
// (`axis=1`, `shape=[N, 10]`, `dtype=f32`) the same way, and report a value
// of the wrong kind at the value's own location.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_CALLARGS_H
#define TCC_COMPILER_FRONTEND_CALLARGS_H

#include "compiler/frontend/Expr.h"

#include <optional>

namespace tcc::frontend {

class CallArgs {
public:
  explicit CallArgs(const CallSite &call) : call(call) {}

  /// The value given for `key`, or null.
  const AttrValue *find(llvm::StringRef key) const;

  /// An integer; `dflt` when absent, an error when absent without one.
  mlir::FailureOr<int64_t> integer(llvm::StringRef key,
                                   std::optional<int64_t> dflt) const;
  mlir::FailureOr<bool> boolean(llvm::StringRef key, bool dflt) const;
  /// An integer or a list of integers (`axis=1` or `axis=[0, 1]`); empty
  /// when absent.
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  integers(llvm::StringRef key) const;
  /// A number (an integer or a float); `isInteger` says which it was.
  mlir::FailureOr<double> number(const AttrValue &v, llvm::StringRef key,
                                 bool &isInteger) const;
  /// A dtype (`dtype=f32`); `dflt` when absent, an error when absent and
  /// `dflt` is null.
  mlir::FailureOr<mlir::Type> dtype(llvm::StringRef key,
                                    mlir::Type dflt = {}) const;

  /// What a size may be besides a non-negative integer or a product of
  /// names and sizes (`B*T`).
  enum class Sizes {
    NonNegative, // constructors: `zeros([T, 4])`
    AnyInteger,  // reshape: `[N, -1]`, whose verifier judges negatives
  };
  /// One size: an integer, a dimension name of the function (inside a
  /// called function, the caller's size for it), or a product of them.
  mlir::FailureOr<tc::Dim> dim(const AttrValue &v, llvm::StringRef key,
                               Sizes sizes = Sizes::NonNegative) const;
  /// Whether one size stands for a shape of rank 1 (`zeros(N)`), or a
  /// shape must be a list (`reshape(x, shape=[6])`).
  enum class OneSize { IsShape, IsError };
  /// A shape: a list of sizes, or (OneSize::IsShape) one size.
  mlir::FailureOr<tc::Shape> shape(llvm::StringRef key,
                                   Sizes sizes = Sizes::NonNegative,
                                   OneSize one = OneSize::IsShape) const;

  /// Reports the first keyword that `allowed` does not list.
  mlir::LogicalResult checkKnown(llvm::ArrayRef<llvm::StringRef> allowed) const;

  mlir::InFlightDiagnostic missing(llvm::StringRef key) const;
  mlir::InFlightDiagnostic wrong(const AttrValue &v, llvm::StringRef key,
                                 llvm::StringRef expected) const;

private:
  const CallSite &call;
};

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_CALLARGS_H
