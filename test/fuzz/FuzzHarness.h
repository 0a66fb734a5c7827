//===- FuzzHarness.h - what the fuzz harnesses share -----------*- C++ -*-===//
//
// Each harness defines LLVMFuzzerTestOneInput; libFuzzer's main drives it in
// a -DTCC_FUZZ=ON build, ReplayMain.cpp drives it over the corpora in every
// build. One MLIRContext serves many inputs (building one costs more than
// most inputs do), so the pieces that keep it honest live here.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_FUZZ_FUZZHARNESS_H
#define TCC_TEST_FUZZ_FUZZHARNESS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace tcc::fuzz {

/// Counts the errors of one input and prints nothing: diagnostics are the
/// expected outcome of most inputs, and printing them would dominate the
/// time per input.
class ErrorCounter {
public:
  explicit ErrorCounter(mlir::MLIRContext &context)
      : engine(context.getDiagEngine()) {
    id = engine.registerHandler([this](mlir::Diagnostic &diag) {
      if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
        ++errors;
      return mlir::success();
    });
  }
  ~ErrorCounter() { engine.eraseHandler(id); }
  ErrorCounter(const ErrorCounter &) = delete;
  ErrorCounter &operator=(const ErrorCounter &) = delete;

  int count() const { return errors; }

private:
  mlir::DiagnosticEngine &engine;
  mlir::DiagnosticEngine::HandlerID id;
  int errors = 0;
};

/// A failure without an error message leaves the user with nothing to fix:
/// it is a bug as much as a crash is.
inline void requireErrorOnFailure(bool failed, const ErrorCounter &counter,
                                  const char *stage) {
  if (failed && counter.count() == 0) {
    std::fprintf(stderr, "fuzz: %s failed without reporting an error\n", stage);
    std::abort();
  }
}

/// Inputs seen by one context before it is replaced. Every distinct name in
/// an input is uniqued into the context for good; a fresh context now and
/// then keeps a campaign of millions of inputs within its memory limit.
constexpr unsigned kInputsPerContext = 20000;

} // namespace tcc::fuzz

#endif // TCC_TEST_FUZZ_FUZZHARNESS_H
