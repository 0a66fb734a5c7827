//===- CallArgs.cpp - typed access to a call's keyword values -------------===//

#include "compiler/frontend/CallArgs.h"
#include "compiler/frontend/GraphBuilder.h"
#include "compiler/frontend/Suggest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using tc::Dim;
using tc::Shape;

const AttrValue *CallArgs::find(StringRef key) const {
  for (const auto &[name, value] : call.kwargs)
    if (name == key)
      return &value;
  return nullptr;
}

FailureOr<int64_t> CallArgs::integer(StringRef key,
                                     std::optional<int64_t> dflt) const {
  const AttrValue *v = find(key);
  if (!v) {
    if (dflt)
      return *dflt;
    return missing(key);
  }
  if (v->kind != AttrValue::Kind::Integer)
    return wrong(*v, key, "an integer");
  return v->integer;
}

FailureOr<bool> CallArgs::boolean(StringRef key, bool dflt) const {
  const AttrValue *v = find(key);
  if (!v)
    return dflt;
  if (v->kind != AttrValue::Kind::Bool)
    return wrong(*v, key, "true or false");
  return v->boolean;
}

FailureOr<SmallVector<int64_t>> CallArgs::integers(StringRef key) const {
  const AttrValue *v = find(key);
  SmallVector<int64_t> result;
  if (!v)
    return result;
  if (v->kind == AttrValue::Kind::Integer) {
    result.push_back(v->integer);
    return result;
  }
  if (v->kind != AttrValue::Kind::List)
    return wrong(*v, key, "an integer or a list of integers");
  for (const AttrValue &e : v->list) {
    if (e.kind != AttrValue::Kind::Integer)
      return wrong(e, key, "a list of integers");
    result.push_back(e.integer);
  }
  return result;
}

FailureOr<double> CallArgs::number(const AttrValue &v, StringRef key,
                                   bool &isInteger) const {
  isInteger = v.kind == AttrValue::Kind::Integer;
  if (isInteger)
    return double(v.integer);
  if (v.kind == AttrValue::Kind::Float)
    return v.number;
  return wrong(v, key, "a number");
}

FailureOr<Type> CallArgs::dtype(StringRef key, Type dflt) const {
  const AttrValue *v = find(key);
  if (!v) {
    if (dflt)
      return dflt;
    return missing(key);
  }
  Type t = v->kind == AttrValue::Kind::Name
               ? parseElementType(call.loc.getContext(), v->text)
               : Type();
  if (!t)
    return wrong(*v, key, "a dtype (f16, bf16, f32, f64, i32, i64, bool)");
  return t;
}

FailureOr<Dim> CallArgs::dim(const AttrValue &v, StringRef key,
                             Sizes sizes) const {
  if (v.kind == AttrValue::Kind::Integer) {
    if (v.integer < 0 && sizes == Sizes::NonNegative)
      return wrong(v, key, "a list of sizes");
    return Dim::fixed(v.integer);
  }
  ArrayRef<AttrValue> factors = v;
  if (v.kind == AttrValue::Kind::Product)
    factors = v.list;
  tc::DimProduct product;
  for (const AttrValue &f : factors) {
    if (f.kind == AttrValue::Kind::Integer && f.integer >= 0 &&
        v.kind == AttrValue::Kind::Product) {
      if (llvm::MulOverflow(product.coef, f.integer, product.coef))
        return emitError(f.loc) << "dimension is too large";
      continue;
    }
    if (f.kind != AttrValue::Kind::Name)
      return wrong(f, key, "a list of sizes");
    // Inside a called function its dimension names stand for the caller's
    // sizes.
    const Dim *bound = nullptr;
    if (call.bindings) {
      auto it = call.bindings->find(f.text);
      if (it != call.bindings->end())
        bound = &it->second;
    }
    if (!bound) {
      if (call.symbols && !call.symbols->contains(f.text))
        return emitError(f.loc) << "unknown dimension '" << f.text
                                << "': name it in an input's type first";
      product.factors.push_back(f.text);
      continue;
    }
    std::optional<tc::DimProduct> p = tc::productOf(*bound);
    if (!p)
      return emitError(f.loc) << "the size " << f.text
                              << " is not known before the call: it is "
                                 "bound to a size computed in the caller";
    std::optional<tc::DimProduct> m = tc::multiply(product, *p);
    if (!m)
      return emitError(f.loc) << "dimension is too large";
    product = *m;
  }
  return tc::productDim(product);
}

FailureOr<Shape> CallArgs::shape(StringRef key, Sizes sizes,
                                 OneSize one) const {
  const AttrValue *v = find(key);
  if (!v)
    return missing(key);
  if (v->kind != AttrValue::Kind::List && one == OneSize::IsError)
    return wrong(*v, key, "a list of sizes");
  Shape result;
  ArrayRef<AttrValue> elements = *v;
  if (v->kind == AttrValue::Kind::List)
    elements = v->list;
  for (const AttrValue &e : elements) {
    FailureOr<Dim> d = dim(e, key, sizes);
    if (failed(d))
      return failure();
    result.push_back(*d);
  }
  return result;
}

LogicalResult CallArgs::checkKnown(ArrayRef<StringRef> allowed) const {
  for (const auto &[name, value] : call.kwargs) {
    if (llvm::is_contained(allowed, StringRef(name)))
      continue;
    auto diag = emitError(value.loc)
                << "'" << call.name << "' has no keyword argument '" << name
                << "'";
    if (allowed.empty())
      diag << " (it takes none)";
    else
      diag << " (it takes: " << llvm::join(allowed, ", ") << ")"
           << didYouMean(name, allowed);
    return failure();
  }
  return success();
}

InFlightDiagnostic CallArgs::missing(StringRef key) const {
  return emitError(call.loc)
         << "'" << call.name << "' needs the keyword argument '" << key << "'";
}

InFlightDiagnostic CallArgs::wrong(const AttrValue &v, StringRef key,
                                   StringRef expected) const {
  return emitError(v.loc) << "'" << key << "' of '" << call.name << "' must be "
                          << expected;
}
