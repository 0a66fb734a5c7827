//===- Interpreter.h - a float64 reference interpreter for tc --*- C++ -*-===//
//
// Evaluates the functions of a verified tc module op by op with plain C++
// loops, independently of the compiler's lowering: no pass runs and no code
// is generated. It is the oracle of the end-to-end tests.
//
// Semantics follow TcOps.td: numpy broadcasting (a dynamic dimension
// broadcasts only against a static 1 or an equal run-time size), reductions
// over sorted axes with keepdims, argmax returning the first index on ties,
// batched matmul with broadcast batch dimensions, stable (log-)softmax,
// row-major reshape, static strided slices, concat, casts (float to integer
// truncates, number to i1 is x != 0, i1 to number is 0/1), truncating integer
// division. Each op computes in float64 (integers exactly, with overflow
// checks instead of wrapping) and rounds its result to the op's element type,
// so an f32 op is compared with one rounding, as hardware does it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_REFERENCE_INTERPRETER_H
#define TCC_TEST_REFERENCE_INTERPRETER_H

#include "test/reference/RefTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tcc::reference {

/// The element type a builtin MLIR type stands for (ReferenceError for
/// anything that is not a tc element type).
DTypeKind dtypeKindOf(mlir::Type elementType);

/// The outcome of one call.
struct CallResult {
  /// The function's results, in order.
  std::vector<RefTensor> outputs;
  /// Every shared variable passed in, with its value after the call (the
  /// updated ones replaced all together, as a parallel assignment).
  std::map<std::string, RefTensor> shared;
};

/// A declared shared variable.
struct SharedDecl {
  std::string name;
  DTypeKind dtype;
  std::vector<int64_t> shape;
};

/// How a call evaluates a collective (tc.all_reduce, ...): this rank's
/// operand in, this rank's result out (Collectives.h simulates N ranks).
using CollectiveHook =
    std::function<RefTensor(mlir::Operation &op, const RefTensor &operand)>;

/// Interprets the functions of one tc module. The module must stay alive
/// and unchanged while the interpreter is used (compile a clone, not it).
class Interpreter {
public:
  explicit Interpreter(mlir::ModuleOp module) : module_(module) {}

  /// The public functions' names, in module order.
  std::vector<std::string> functionNames() const;
  /// The module's shared variables, in module order.
  std::vector<SharedDecl> sharedVariables() const;

  /// Calls `function` with its inputs in declaration order and the values of
  /// the shared variables before the call (every variable the function reads
  /// or updates must be present). Throws ReferenceError on a bad call or an
  /// input the reference cannot evaluate.
  /// Collectives are those of a job of one rank unless `collectives` says
  /// otherwise.
  CallResult call(llvm::StringRef function,
                  const std::vector<RefTensor> &inputs,
                  const std::map<std::string, RefTensor> &shared,
                  const CollectiveHook &collectives = nullptr) const;

private:
  // An op handle: copying it is cheap, and MLIR accessors are non-const.
  mutable mlir::ModuleOp module_;
};

} // namespace tcc::reference

#endif // TCC_TEST_REFERENCE_INTERPRETER_H
