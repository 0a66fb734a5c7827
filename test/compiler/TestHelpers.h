//===- TestHelpers.h - shared helpers of the compiler unit tests -*- C++
//-*-===//

#ifndef TCC_TEST_COMPILER_TESTHELPERS_H
#define TCC_TEST_COMPILER_TESTHELPERS_H

#include "dialects/tc/IR/ShapeInference.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace tcc::test {

/// One diagnostic as the context's handler saw it.
struct CapturedDiagnostic {
  std::string message;
  mlir::Location loc;
  mlir::DiagnosticSeverity severity;
};

/// An MLIRContext whose diagnostics are recorded instead of printed.
class DiagnosticCapture {
public:
  DiagnosticCapture()
      : handler(&context, [this](mlir::Diagnostic &d) {
          diagnostics.push_back({d.str(), d.getLocation(), d.getSeverity()});
          return mlir::success();
        }) {}

  /// A "test.tg":line:col location.
  mlir::Location at(unsigned line, unsigned col) {
    return mlir::FileLineColLoc::get(&context, "test.tg", line, col);
  }

  /// The messages of every diagnostic so far.
  std::vector<std::string> messages() const {
    std::vector<std::string> result;
    for (const CapturedDiagnostic &d : diagnostics)
      result.push_back(d.message);
    return result;
  }

  /// Requires exactly one error so far, with `message` at line:col of
  /// test.tg, and forgets it.
  void requireOneError(const std::string &message, unsigned line,
                       unsigned col) {
    INFO("diagnostics: " << Catch::Detail::stringify(messages()));
    REQUIRE(diagnostics.size() == 1);
    const CapturedDiagnostic &d = diagnostics.front();
    CHECK(d.severity == mlir::DiagnosticSeverity::Error);
    CHECK(d.message == message);
    auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(d.loc);
    REQUIRE(loc);
    CHECK(loc.getFilename().getValue().str() == "test.tg");
    CHECK(loc.getLine() == line);
    CHECK(loc.getColumn() == col);
    diagnostics.clear();
  }

  mlir::MLIRContext context;
  std::vector<CapturedDiagnostic> diagnostics;

private:
  mlir::ScopedDiagnosticHandler handler;
};

/// Shapes in tests: S({2, N, 3}) with N = tc::Dim::dynamic("N").
inline tc::Dim D(int64_t size) { return tc::Dim::fixed(size); }
inline tc::Dim Sym(llvm::StringRef name) { return tc::Dim::dynamic(name); }
inline tc::Dim Any() { return tc::Dim::dynamic(); }
inline tc::Shape S(std::initializer_list<tc::Dim> dims) {
  return tc::Shape(dims.begin(), dims.end());
}

} // namespace tcc::test

namespace Catch {
template <> struct StringMaker<tcc::tc::Shape> {
  static std::string convert(const tcc::tc::Shape &shape) {
    return tcc::tc::formatShape(shape);
  }
};
template <> struct StringMaker<tcc::tc::Dim> {
  static std::string convert(const tcc::tc::Dim &dim) { return dim.str(); }
};
} // namespace Catch

#endif // TCC_TEST_COMPILER_TESTHELPERS_H
