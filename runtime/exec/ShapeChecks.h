//===- ShapeChecks.h - evaluating the shape facts of a manifest ----------===//
//
// A size expression is text over integers, symbols bound by a call's inputs
// (`N`), `*`, `/` (of non-negative values, rounding down; where a quotient
// must be exact, a `multiple` check comes first), `+`, `-`, `min(a,b)`,
// `max(a,b)` and parentheses, as the compiler's tc-shape-checks pass writes
// it: `2*N`, `(N*5/3)`, `(N+M)`, `(max(N-1,0)+1)/2` (the length of a slice).
// Parsed without recursion, so no manifest can exhaust the stack; evaluated
// in int64 with overflow reported.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_SHAPECHECKS_H
#define TCC_RUNTIME_EXEC_SHAPECHECKS_H

#include "runtime/exec/CallBindings.h"

#include <string>
#include <vector>

namespace tcc {

/// Success when `text` is a well-formed size expression.
Status validateSizeExpression(const std::string &text);

/// A size expression parsed: the steps of its evaluation in reverse Polish
/// order, so that a caller that keeps it evaluates without parsing.
struct SizeProgram {
  struct Step {
    enum class Op { Number, Symbol, Add, Sub, Mul, Div, Min, Max };
    Op op = Op::Number;
    int64_t number = 0;
    std::string symbol;
  };
  std::vector<Step> steps;
};

/// `text` parsed, for evaluateSizeProgram; an InvalidArgument error when it
/// is malformed.
Result<SizeProgram> parseSizeExpression(const std::string &text);

/// The value of a parsed expression (`text` is its source, for messages),
/// with the errors of evaluateSizeExpression.
Result<int64_t> evaluateSizeProgram(const SizeProgram &program,
                                    const std::string &text,
                                    const Bindings &bindings);

/// The value of `text` under `bindings`; an Internal error for an unbound
/// symbol, a division by zero or an overflow, which the compiler's
/// expressions over real arrays' sizes do not produce.
Result<int64_t> evaluateSizeExpression(const std::string &text,
                                       const Bindings &bindings);

/// "eq", "le", "multiple" and back.
const char *shapeCheckKindName(ShapeCheck::Kind kind);
bool parseShapeCheckKind(const std::string &name, ShapeCheck::Kind &kind);

/// Evaluates every shape check of `f`: a ShapeMismatch that names the
/// function, the op's location and both sizes for the first that fails.
Status checkShapes(const FunctionSpec &f, const Bindings &bindings);

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_SHAPECHECKS_H
