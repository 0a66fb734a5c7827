//===- Expr.h - values of graph-file expressions ---------------*- C++ -*-===//
//
// While parsing, an expression is either a tensor or a number literal that
// has no dtype yet: `2 * x` takes x's dtype, `1 / 2` folds to 0.5. Keyword
// arguments of calls (`axis=1`, `shape=[N, 10]`) are kept as AttrValues.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_EXPR_H
#define TCC_COMPILER_FRONTEND_EXPR_H

#include "compiler/frontend/GraphBuilder.h"

#include "llvm/ADT/StringSet.h"

#include <optional>
#include <vector>

namespace tcc::frontend {

/// A tensor, or a literal whose dtype comes from where it is used.
struct Operand {
  TensorRef tensor;
  std::optional<double> literal;
  bool integral = false; ///< The literal was written without '.' or 'e'.
  bool boolean = false;  ///< The literal is `true` or `false`.
  mlir::Location loc;

  bool isLiteral() const { return literal.has_value(); }
};

/// Turns a literal into a rank-0 constant of `elementType` (reporting a
/// literal that does not fit it); a tensor passes through.
TensorRef materialize(GraphBuilder &builder, const Operand &operand,
                      mlir::Type elementType);

/// The dtype of the first tensor among `operands`, or null when all are
/// literals.
mlir::Type firstElementType(llvm::ArrayRef<Operand> operands);

/// A keyword argument's value: a number, bool, name, string, or a list.
struct AttrValue {
  enum class Kind { Integer, Float, Bool, Name, String, List };
  explicit AttrValue(mlir::Location loc) : loc(loc) {}

  Kind kind = Kind::Integer;
  int64_t integer = 0;
  double number = 0;
  bool boolean = false;
  std::string text; ///< Name or String.
  std::vector<AttrValue> list;
  mlir::Location loc;
};

/// A call `name(positional..., key=value...)` with its location.
struct CallSite {
  std::string name;
  mlir::Location loc;
  std::vector<Operand> args;
  std::vector<std::pair<std::string, AttrValue>> kwargs;
  /// The dimension symbols (N, ...) in scope, for `shape=[N, 10]`.
  const llvm::StringSet<> *symbols = nullptr;
};

/// Emits a built-in function call such as `softmax(x, axis=1)`; reports an
/// unknown name, a wrong argument count, or a bad keyword argument.
TensorRef emitCall(GraphBuilder &builder, const CallSite &call);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_EXPR_H
