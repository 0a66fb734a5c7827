//===- RandomBuiltins.cpp - graph-file calls of random ops ----------------===//
//
// `random_uniform(rng, x)` draws numbers of x's shape and dtype (x's values
// are not read), `random_uniform(rng, shape=[2, 3], dtype=f32)` of a static
// shape; `bernoulli(rng, x, p=0.1)` is 1 with probability p. `rng` is the
// state, `rng_advance(rng)` the state for the next call.
//
// The parameters may be tensors that broadcast to the result, as numpy's
// `size=` takes them: `bernoulli(rng, x, p=keep)`,
// `random_normal(rng, x, mean=mu, std=sigma)`,
// `random_uniform(rng, x, low=a, high=b)`. They are compositions of the
// tc.random op with elementwise ops, so the reference interpreter, every
// target and `grad` (the reparameterization: d/d mean is 1, d/d std the
// standard normal) need nothing new. A tensor `p` compares an f64 uniform,
// which holds the word u exactly as u * 2^-32, with p: u * 2^-32 < p is
// u < ceil(p * 2^32), the scalar bernoulli's test, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/RandomBuiltins.h"
#include "compiler/frontend/CallArgs.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;

bool frontend::takesExpressionKeyword(StringRef name, StringRef key) {
  if (name == "bernoulli")
    return key == "p";
  if (name == "random_normal")
    return key == "mean" || key == "std";
  if (name == "random_uniform")
    return key == "low" || key == "high";
  return false;
}

namespace {

/// The expression given for `key`, or null.
const Operand *findExpression(const CallSite &call, StringRef key) {
  for (const auto &[name, value] : call.expressionKwargs)
    if (name == key)
      return &value;
  return nullptr;
}

/// Whether `from` broadcasts to exactly `to` as an operand of an
/// elementwise op: aligned from the right, each size 1 or the same.
bool broadcastsTo(const tc::Shape &from, const tc::Shape &to) {
  if (from.size() > to.size())
    return false;
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (!from[i].isStatic(1) && !(from[i] == to[offset + i]))
      return false;
  return true;
}

/// A tensor parameter `key` of the call, checked against the result `like`
/// (dtype `dtype`; any float when `dtype` is null): a located error for a
/// parameter that is not a float tensor of that dtype or does not
/// broadcast to the result.
TensorRef tensorParameter(const CallSite &call, StringRef key,
                          const Operand &value, const tc::Shape &resultShape,
                          Type dtype) {
  const TensorRef &t = value.tensor;
  if (!isa<FloatType>(t.elementType()) || (dtype && t.elementType() != dtype)) {
    auto diag = emitError(value.loc)
                << "parameter '" << key << "' of '" << call.name << "' is "
                << elementTypeName(t.elementType()) << tc::formatShape(t.shape)
                << "; it must be ";
    if (dtype)
      diag << "a tensor of the result's dtype " << elementTypeName(dtype)
           << " (convert with cast)";
    else
      diag << "a floating-point tensor";
    return {};
  }
  if (!broadcastsTo(t.shape, resultShape)) {
    emitError(value.loc) << "parameter '" << key << "' of '" << call.name
                         << "' has shape " << tc::formatShape(t.shape)
                         << ", which does not broadcast to the result's shape "
                         << tc::formatShape(resultShape);
    return {};
  }
  return t;
}

/// A number parameter (an integer or float literal); `dflt` when absent.
FailureOr<double> numberParameter(const CallSite &call, StringRef key,
                                  const Operand *value, double dflt) {
  if (!value)
    return dflt;
  const Literal &l = *value->literal;
  if (l.kind == Literal::Kind::Bool) {
    emitError(value->loc) << "parameter '" << key << "' must be a number";
    return failure();
  }
  (void)call;
  return l.kind == Literal::Kind::Integer ? l.integer.roundToDouble(true)
                                          : l.number;
}

} // namespace

TensorRef frontend::emitRandomCall(GraphBuilder &builder, const CallSite &call,
                                   ArrayRef<TensorRef> tensors) {
  if (call.name == "rng_advance")
    return builder.advanceRandomState(call.loc, tensors[0]);
  if (tensors.size() > 2) {
    emitError(call.loc) << "'" << call.name
                        << "' takes 1 or 2 positional arguments, got "
                        << tensors.size();
    return {};
  }
  StringRef distribution = call.name == "bernoulli"       ? "bernoulli"
                           : call.name == "random_normal" ? "normal"
                                                          : "uniform";
  TensorRef like = tensors.size() == 2 ? tensors[1] : TensorRef{};
  SmallVector<int64_t> shape;
  Type dtype = like ? like.elementType() : Type();
  if (!like) {
    const AttrValue *s = CallArgs(call).find("shape");
    if (!s) {
      emitError(call.loc) << "'" << call.name
                          << "' needs the keyword argument 'shape'";
      return {};
    }
    bool ok = s->kind == AttrValue::Kind::List;
    for (const AttrValue &e : s->list)
      if (ok && e.kind == AttrValue::Kind::Integer && e.integer >= 0)
        shape.push_back(e.integer);
      else
        ok = false;
    if (!ok) {
      emitError(s->loc) << "'shape' of '" << call.name
                        << "' must be a list of integers";
      return {};
    }
    dtype = FloatType::getF32(builder.getContext());
    if (const AttrValue *d = CallArgs(call).find("dtype")) {
      dtype = d->kind == AttrValue::Kind::Name
                  ? parseElementType(call.loc.getContext(), d->text)
                  : Type();
      if (!dtype) {
        emitError(d->loc) << "'dtype' of '" << call.name
                          << "' must be a dtype (f16, bf16, f32, f64, i32, "
                             "i64, bool)";
        return {};
      }
    }
  } else if (CallArgs(call).find("shape") || CallArgs(call).find("dtype")) {
    emitError(call.loc) << "'" << call.name
                        << "' needs either a tensor to take the shape and "
                           "dtype of or 'shape' and 'dtype', got both";
    return {};
  }
  tc::Shape resultShape = like ? like.shape : tc::Shape{};
  if (!like)
    for (int64_t d : shape)
      resultShape.push_back(tc::Dim::fixed(d));

  if (distribution == "bernoulli") {
    const Operand *p = findExpression(call, "p");
    if (p && !p->isLiteral()) {
      TensorRef prob = tensorParameter(call, "p", *p, resultShape, Type());
      if (!prob)
        return {};
      // GraphBuilder::random's checks of the state and the dtype, named
      // after bernoulli (the numbers are an f64 uniform's).
      const TensorRef &state = tensors[0];
      if (!state)
        return {};
      if (!state.elementType().isInteger(64) || state.shape.size() != 1 ||
          !state.shape[0].isStatic(2)) {
        emitError(call.loc)
            << "'bernoulli' needs a random state i64[2] (such as 'shared rng "
               ": i64[2] = zeros') as its first argument, got "
            << elementTypeName(state.elementType())
            << tc::formatShape(state.shape);
        return {};
      }
      if (!isa<FloatType>(dtype) && !dtype.isInteger(1)) {
        emitError(call.loc)
            << "bernoulli needs a floating-point or bool tensor, got "
            << elementTypeName(dtype);
        return {};
      }
      Type f64 = FloatType::getF64(builder.getContext());
      TensorRef u = builder.random(call.loc, "uniform", tensors[0], like, shape,
                                   f64, 0.5);
      TensorRef bit = builder.compare(call.loc, tc::ComparePredicate::lt, u,
                                      builder.cast(p->loc, prob, f64));
      return dtype.isInteger(1) ? bit : builder.cast(call.loc, bit, dtype);
    }
    FailureOr<double> value = numberParameter(call, "p", p, 0.5);
    if (failed(value))
      return {};
    if (!(*value >= 0 && *value <= 1)) {
      emitError(call.loc) << "'" << call.name
                          << "' needs a probability p in [0, 1], got "
                          << *value;
      return {};
    }
    return builder.random(call.loc, distribution, tensors[0], like, shape,
                          dtype, *value);
  }

  // normal: mean + std * z; uniform: low + (high - low) * u. A parameter
  // left out is not applied, so that the plain forms stay one op.
  StringRef shiftKey = distribution == "normal" ? "mean" : "low";
  StringRef scaleKey = distribution == "normal" ? "std" : "high";
  const Operand *shiftArg = findExpression(call, shiftKey);
  const Operand *scaleArg = findExpression(call, scaleKey);
  TensorRef r = builder.random(call.loc, distribution, tensors[0], like, shape,
                               dtype, 0.5);
  if (!r || (!shiftArg && !scaleArg))
    return r;
  auto parameter = [&](StringRef key, const Operand *arg,
                       double dflt) -> TensorRef {
    if (arg && !arg->isLiteral())
      return tensorParameter(call, key, *arg, resultShape, dtype);
    FailureOr<double> value = numberParameter(call, key, arg, dflt);
    if (failed(value))
      return {};
    if (arg)
      return materialize(builder, *arg, dtype);
    return builder.constant(call.loc, *value, dtype);
  };
  TensorRef shift = parameter(shiftKey, shiftArg, 0.0);
  TensorRef scale = parameter(scaleKey, scaleArg, 1.0);
  if (!shift || !scale)
    return {};
  if (distribution == "uniform") {
    if (!shiftArg)
      return builder.binary(call.loc, BinaryKind::Mul, scale, r);
    TensorRef width = builder.binary(call.loc, BinaryKind::Sub, scale, shift);
    return builder.binary(call.loc, BinaryKind::Add, shift,
                          builder.binary(call.loc, BinaryKind::Mul, width, r));
  }
  TensorRef scaled =
      scaleArg ? builder.binary(call.loc, BinaryKind::Mul, scale, r) : r;
  return shiftArg ? builder.binary(call.loc, BinaryKind::Add, shift, scaled)
                  : scaled;
}
