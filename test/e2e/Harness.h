//===- Harness.h - compile a graph, run it, compare with the reference -*- C++
//-*-===//
//
// The end-to-end tests compile small graph files with the host JIT, call
// them through the runtime on random inputs, and compare every output and
// every shared variable with the reference interpreter (test/reference). Each
// call also checks the memory contract that is visible from outside:
// non-borrowed inputs are bitwise unchanged, and outputs alias neither each
// other, nor shared variables, nor inputs (a borrowed output may be a
// borrowed input computed in place).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_E2E_HARNESS_H
#define TCC_TEST_E2E_HARNESS_H

#include "test/reference/Interpreter.h"

#include "runtime/core/Array.h"
#include "runtime/exec/Runtime.h"

#include "compiler/driver/Compiler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace tcc::e2e {

using reference::DTypeKind;
using reference::RefTensor;

/// The dtype's name in graph files: "f32", "bool", ...
const char *tgName(DTypeKind dtype);
/// "[2, N]" for graph files.
std::string tgShape(const std::vector<std::string> &dims);

/// Parses and verifies a graph file without compiling it (for tests of the
/// reference itself); REQUIREs success.
class ParsedGraph {
public:
  explicit ParsedGraph(const std::string &source);
  ~ParsedGraph();
  reference::Interpreter &reference() { return *interpreter_; }

private:
  Compiler compiler_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  std::unique_ptr<reference::Interpreter> interpreter_;
};

DType toRuntime(DTypeKind dtype);
DTypeKind fromRuntime(DType dtype);
/// The runtime array holding the same values (exact: tensors are rounded).
Array toArray(const RefTensor &t);
/// The reference tensor holding an array's values.
RefTensor toRef(const Array &a);

/// How close a result must be: |actual - expected| <= atol + rtol*|expected|
/// elementwise. Negative fields take the dtype's default (f64 1e-12/1e-12,
/// f32 1e-5/1e-6, f16 2e-3/1e-3, bf16 1.6e-2/1e-2); integers and booleans
/// are always exact. NaN matches NaN, infinities match by sign.
struct Tolerance {
  double rtol = -1;
  double atol = -1;
};

/// Checks (CHECK, not REQUIRE) that `actual` has the dtype and shape of
/// `expected` and values within `tol`; the message lists the first
/// mismatches. Returns true when they match.
bool checkClose(const RefTensor &expected, const RefTensor &actual,
                const std::string &what, Tolerance tol = {});

/// Seeded random tensors. Floats are drawn uniformly from [lo, hi] and
/// rounded to the dtype, integers uniformly from [lo, hi], booleans with
/// probability 1/2; so the runtime and the reference see the same values.
class Random {
public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  RefTensor uniform(DTypeKind dtype, std::vector<int64_t> shape, double lo = -1,
                    double hi = 1);
  /// Values from a small set, so that ties and equal elements happen.
  RefTensor choice(DTypeKind dtype, std::vector<int64_t> shape,
                   const std::vector<double> &values);
  /// Uniform in [lo, hi] with |x| >= minAbs (divisors, logs of |x|...).
  RefTensor awayFromZero(DTypeKind dtype, std::vector<int64_t> shape, double lo,
                         double hi, double minAbs);
  std::mt19937_64 &engine() { return engine_; }

private:
  std::mt19937_64 engine_;
};

/// What one checked call gave.
struct Outcome {
  /// The runtime's outputs (as returned: the arrays themselves).
  std::vector<Array> outputs;
  /// The reference's outputs and shared variables after the call.
  reference::CallResult expected;
};

/// A graph compiled once: the JIT program loaded into a fresh runtime, and a
/// pristine copy of its tc module for the reference interpreter.
class Graph {
public:
  /// Compiles `source` (graph-file syntax); REQUIREs success and reports
  /// the diagnostics otherwise. `name` is the buffer name in diagnostics;
  /// `pipeline`, how to compile it.
  explicit Graph(const std::string &source, const std::string &name = "test.tg",
                 const PipelineOptions &pipeline = {});
  ~Graph();
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;

  Runtime &runtime() { return *runtime_; }
  reference::Interpreter &reference() { return *interpreter_; }
  /// The tc module as parsed and verified (before any lowering).
  mlir::ModuleOp tcModule() { return *tcModule_; }
  /// The loaded function (REQUIREs that it exists).
  Function &function(const std::string &name);

  /// The runtime's current values of every shared variable.
  std::map<std::string, RefTensor> sharedValues();
  /// Sets a shared variable in the runtime (a copy).
  void setShared(const std::string &name, const RefTensor &value);

  /// Calls `function` through the runtime and the reference with the same
  /// inputs and the runtime's current shared values; CHECKs that the outputs
  /// and the shared variables afterwards match, and the memory contract.
  Outcome call(const std::string &function,
               const std::vector<RefTensor> &inputs, Tolerance tol = {});

private:
  Compiler compiler_;
  mlir::OwningOpRef<mlir::ModuleOp> tcModule_;
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<reference::Interpreter> interpreter_;
};

/// Calls `function` through the runtime only and REQUIREs a refusal.
Status refusal(Graph &g, const std::string &function,
               const std::vector<RefTensor> &inputs);

/// A graph file's text (for the examples).
std::string readFile(const std::string &path);

} // namespace tcc::e2e

namespace Catch {
template <> struct StringMaker<tcc::reference::RefTensor> {
  static std::string convert(const tcc::reference::RefTensor &t);
};
} // namespace Catch

#endif // TCC_TEST_E2E_HARNESS_H
