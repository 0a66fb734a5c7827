//===- DimExpr.h - a dynamic size as an expression of input symbols -*- C++
//-*-===//
//
// tc-shape-checks follows every dynamic size back to the symbols of a
// function's inputs and records the facts the code assumes about them as
// text that the runtime evaluates (runtime/exec/ShapeChecks.h). This is the
// algebra of those expressions.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_TRANSFORMS_DIMEXPR_H
#define TCC_DIALECTS_TC_TRANSFORMS_DIMEXPR_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tcc::tc::shape {

/// A size as `coef * factor * factor ...`, factors sorted so that equal
/// products compare equal; a factor is a symbol or a parenthesized
/// expression. Strings, not trees: nothing here recurses, however long a
/// chain of ops a program builds.
struct DimExpr {
  bool known = false;
  int64_t coef = 1;
  llvm::SmallVector<std::string, 2> factors;

  static DimExpr constant(int64_t c) { return DimExpr{true, c, {}}; }
  static DimExpr symbol(llvm::StringRef s) {
    return DimExpr{true, 1, {s.str()}};
  }
  bool isConstant() const { return known && factors.empty(); }
  bool operator==(const DimExpr &o) const {
    return known && o.known && coef == o.coef && factors == o.factors;
  }
  bool operator!=(const DimExpr &o) const { return !(*this == o); }

  /// The text the runtime evaluates (runtime/exec/ShapeChecks.h).
  std::string text() const;
};

using Exprs = llvm::SmallVector<DimExpr, 4>;

/// `a * b`; unknown when either is, or on overflow.
DimExpr mul(const DimExpr &a, const DimExpr &b);

/// `a / k` for k > 0, where a is a multiple of k (checked separately).
DimExpr divide(const DimExpr &a, int64_t k);

/// `a + b`; unknown when either is, or on overflow.
DimExpr add(const DimExpr &a, const DimExpr &b);

/// A `tc.dims` entry: a symbol or a product (`B*T`, `2*N`, `(5*N/3)`).
DimExpr parseDim(llvm::StringRef text);

/// Whether the runtime can parse `s` as a symbol.
bool isIdentifier(llvm::StringRef s);

} // namespace tcc::tc::shape

#endif // TCC_DIALECTS_TC_TRANSFORMS_DIMEXPR_H
