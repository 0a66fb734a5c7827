//===- DimExpr.cpp - a dynamic size as an expression of input symbols ----===//

#include "dialects/tc/Transforms/DimExpr.h"
#include "dialects/tc/IR/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace tcc::tc;
using namespace tcc::tc::shape;

// The runtime reads sizes as the dialect writes them.
std::string DimExpr::text() const { return DimProduct{coef, factors}.str(); }

DimExpr shape::mul(const DimExpr &a, const DimExpr &b) {
  DimExpr r;
  if (!a.known || !b.known || llvm::MulOverflow(a.coef, b.coef, r.coef))
    return {};
  r.known = true;
  r.factors = a.factors;
  r.factors.append(b.factors.begin(), b.factors.end());
  llvm::sort(r.factors);
  return r;
}

DimExpr shape::divide(const DimExpr &a, int64_t k) {
  if (!a.known || k <= 0)
    return {};
  if (a.coef % k == 0) {
    DimExpr r = a;
    r.coef /= k;
    return r;
  }
  return DimExpr{true, 1, {"(" + a.text() + "/" + std::to_string(k) + ")"}};
}

DimExpr shape::add(const DimExpr &a, const DimExpr &b) {
  if (!a.known || !b.known)
    return {};
  if (a.isConstant() && a.coef == 0)
    return b;
  if (b.isConstant() && b.coef == 0)
    return a;
  if (a.factors == b.factors) {
    DimExpr r = a;
    if (llvm::AddOverflow(a.coef, b.coef, r.coef))
      return {};
    return r;
  }
  return DimExpr{true, 1, {"(" + a.text() + "+" + b.text() + ")"}};
}

DimExpr shape::parseDim(llvm::StringRef text) {
  std::optional<DimProduct> p = productOf(Dim::dynamic(text));
  if (!p || text.empty())
    return {};
  return DimExpr{true, p->coef, p->factors};
}

bool shape::isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}
