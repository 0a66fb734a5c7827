//===- Expr.h - values of graph-file expressions ---------------*- C++ -*-===//
//
// While parsing, an expression is either a tensor or a number literal that
// has no dtype yet: `2 * x` takes x's dtype, `1 / 2` folds to 0.5. Integer
// literals stay exact (APInt) until they meet a dtype. Keyword
// arguments of calls (`axis=1`, `shape=[N, 10]`) are kept as AttrValues.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_EXPR_H
#define TCC_COMPILER_FRONTEND_EXPR_H

#include "compiler/frontend/GraphBuilder.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <vector>

namespace tcc::frontend {

/// A number or bool literal, kept exact until it meets a dtype.
struct Literal {
  enum class Kind { Integer, Float, Bool };

  Kind kind = Kind::Integer;
  /// Integer: the exact value, signed, as wide as it needs to be.
  llvm::APInt integer{2, 0};
  /// Float: the value (after folding, in f64 arithmetic).
  double number = 0;
  /// Float: the decimal text when the value is a literal of the source (with
  /// its sign), so that it rounds once, straight to the dtype it meets;
  /// empty for a folded value.
  std::string decimal;
  bool boolean = false;
  /// Computed from other literals (`1 / 2`): messages show the value too.
  bool folded = false;

  static Literal ofInteger(llvm::APInt value);
  static Literal ofFloat(double value);
  static Literal ofBool(bool value);
  /// The value as a message shows it: "9007199254740993", "0.5", "2.0",
  /// "true".
  std::string str() const;
};

/// A tensor, or a literal whose dtype comes from where it is used, with the
/// source text it was written as.
struct Operand {
  TensorRef tensor;
  std::optional<Literal> literal;
  mlir::Location loc;
  llvm::StringRef source;

  bool isLiteral() const { return literal.has_value(); }
  static Operand ofTensor(TensorRef tensor, mlir::Location loc,
                          llvm::StringRef source) {
    return Operand{std::move(tensor), std::nullopt, loc, source};
  }
  static Operand ofLiteral(Literal literal, mlir::Location loc,
                           llvm::StringRef source) {
    return Operand{TensorRef(), std::move(literal), loc, source};
  }
};

/// The literal of a number token (`isInteger`: written without '.' or 'e'):
/// integers stay exact; a float beyond the range of f64 is reported (one
/// that underflows becomes 0 or a subnormal).
mlir::FailureOr<Literal> parseNumber(mlir::Location loc, llvm::StringRef text,
                                     bool isInteger);

/// `-literal`; reports true/false.
mlir::FailureOr<Literal> negate(mlir::Location loc, const Literal &literal);

/// Folds `lhs op rhs` of two literals (Add, Sub, Mul, Div or Pow): integers
/// stay exact integers except through '/' (a true division, always a float)
/// and a negative power; reports true/false and an f64 overflow. `source` is
/// the text of the whole expression, for messages.
mlir::FailureOr<Literal> fold(mlir::Location loc, BinaryKind op,
                              const Literal &lhs, const Literal &rhs,
                              llvm::StringRef source);

/// Turns a literal into a rank-0 constant of `elementType`, rounding once
/// and reporting a literal that the dtype cannot hold; a tensor passes
/// through.
TensorRef materialize(GraphBuilder &builder, const Operand &operand,
                      mlir::Type elementType);

/// The dtype of the first tensor among `operands`, or null when all are
/// literals.
mlir::Type firstElementType(llvm::ArrayRef<Operand> operands);

/// A keyword argument's value: a number, bool, name, string, a list, or a
/// product of integers and names (`B*T`, a dimension; `list` holds the
/// factors).
struct AttrValue {
  enum class Kind { Integer, Float, Bool, Name, String, List, Product };
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
  /// Inside a called function: the caller's size for each of the callee's
  /// dimension names.
  const llvm::StringMap<tc::Dim> *bindings = nullptr;
  /// Keyword arguments whose value is an expression, a tensor or a literal
  /// (the parameters of random numbers: `bernoulli(rng, x, p=keep)`); the
  /// keys that takesExpressionKeyword lists.
  std::vector<std::pair<std::string, Operand>> expressionKwargs = {};
};

/// Whether the keyword `key` of a call of `name` takes an expression (kept
/// in CallSite::expressionKwargs) rather than a keyword value.
bool takesExpressionKeyword(llvm::StringRef name, llvm::StringRef key);

/// Folds a call of an elementwise built-in whose arguments are all literals
/// (`sqrt(16)` is the float literal 4.0, `abs(-3)` the integer 3,
/// `logical_not(true)` false); nullopt when the call does not fold (a tensor
/// argument, a keyword, another function), failure after reporting an
/// argument of the wrong kind or an f64 overflow.
std::optional<mlir::FailureOr<Literal>> foldCall(const CallSite &call,
                                                 llvm::StringRef source);

/// The names Constructors.cpp emits: arange, eye, zeros, tril, cumsum, ...
llvm::ArrayRef<llvm::StringRef> constructorNames();
/// Whether `name` takes sizes and numbers as positional arguments
/// (`zeros([T, T])`, `arange(N)`), which the parser reads as keyword values.
bool takesShapeArguments(llvm::StringRef name);
/// Emits a constructor or scan call (constructorNames); nullopt for any
/// other name, a null TensorRef after an error.
std::optional<TensorRef> emitConstructorCall(GraphBuilder &builder,
                                             const CallSite &call);

/// Emits a built-in function call such as `softmax(x, axis=1)`; reports an
/// unknown name, a wrong argument count, or a bad keyword argument.
TensorRef emitCall(GraphBuilder &builder, const CallSite &call);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_EXPR_H
