//===- RandomBuiltins.cpp - graph-file calls of random ops ----------------===//
//
// `random_uniform(rng, x)` draws numbers of x's shape and dtype (x's values
// are not read), `random_uniform(rng, shape=[2, 3], dtype=f32)` of a static
// shape; `bernoulli(rng, x, p=0.1)` is 1 with probability p. `rng` is the
// state, `rng_advance(rng)` the state for the next call.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/RandomBuiltins.h"
#include "compiler/frontend/CallArgs.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;

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
  double p = 0.5;
  if (const AttrValue *v = CallArgs(call).find("p")) {
    if (v->kind == AttrValue::Kind::Integer)
      p = double(v->integer);
    else if (v->kind == AttrValue::Kind::Float)
      p = v->number;
    else {
      emitError(v->loc) << "parameter 'p' must be a number";
      return {};
    }
  }
  if (!(p >= 0 && p <= 1)) {
    emitError(call.loc) << "'" << call.name
                        << "' needs a probability p in [0, 1], got " << p;
    return {};
  }
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
  return builder.random(call.loc, distribution, tensors[0], like, shape, dtype,
                        p);
}
