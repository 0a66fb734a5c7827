//===- Constructors.cpp - calls that make tensors from shapes, and scans --===//
//
// arange, iota, eye, zeros, ones, full take sizes and numbers rather than
// tensors: the parser reads their positional arguments as keyword values
// (ParserCalls.cpp) and this file turns them into GraphBuilder calls, with
// numpy's defaults. zeros_like, ones_like, full_like, tril, triu, cumsum
// and cumprod take a tensor.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/CallArgs.h"
#include "compiler/frontend/Expr.h"
#include "compiler/frontend/Suggest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using tc::Dim;
using tc::Shape;

namespace {

/// `arange([start,] stop[, step], dtype=...)`: numpy's sizes and values.
/// A dimension name is a stop that counts from 0 by 1.
TensorRef emitArange(GraphBuilder &b, const CallSite &call,
                     const CallArgs &args) {
  const AttrValue *stop = args.find("stop");
  if (!stop) {
    args.missing("stop");
    return {};
  }
  const AttrValue *start = args.find("start");
  const AttrValue *step = args.find("step");
  bool symbolic = stop->kind == AttrValue::Kind::Name ||
                  stop->kind == AttrValue::Kind::Product;
  bool allInteger = true;
  double values[3] = {0, 0, 1};
  const AttrValue *given[3] = {start, symbolic ? nullptr : stop, step};
  static constexpr StringLiteral keys[] = {"start", "stop", "step"};
  for (int i = 0; i < 3; ++i) {
    if (!given[i])
      continue;
    bool isInteger;
    FailureOr<double> v = args.number(*given[i], keys[i], isInteger);
    if (failed(v))
      return {};
    allInteger &= isInteger;
    values[i] = *v;
  }
  Builder builder(b.getContext());
  FailureOr<Type> dtype =
      args.dtype("dtype", allInteger ? Type(builder.getI64Type())
                                     : Type(builder.getF32Type()));
  if (failed(dtype))
    return {};
  if (dtype->isInteger(1)) {
    emitError(call.loc) << "'arange' needs a number dtype, not bool";
    return {};
  }
  if (values[2] == 0 || !std::isfinite(values[2]) ||
      !std::isfinite(values[0]) || !std::isfinite(values[1])) {
    emitError(step ? step->loc : call.loc)
        << "arange needs finite numbers and a step that is not 0";
    return {};
  }
  if (!allInteger && isa<IntegerType>(*dtype)) {
    emitError(call.loc) << "arange with dtype=" << elementTypeName(*dtype)
                        << " needs integer start, stop and step";
    return {};
  }
  if (symbolic) {
    FailureOr<Dim> d = args.dim(*stop, "stop");
    if (failed(d))
      return {};
    // The count ceil((T - start) / step) is a size expression over T,
    // which has integers only.
    if (values[0] != std::trunc(values[0]) ||
        values[2] != std::trunc(values[2]) || std::fabs(values[0]) > 1e15 ||
        std::fabs(values[2]) > 1e15) {
      emitError(start && values[0] != std::trunc(values[0]) ? start->loc
                                                            : step->loc)
          << "arange up to a dimension name needs integer start and step "
             "(the count ceil((stop - start) / step) is a size); for other "
             "values write arange("
          << (stop->kind == AttrValue::Kind::Name ? stop->text
                                                  : std::string("N"))
          << ") * step + start";
      return {};
    }
    if (d->isDynamic())
      return b.arangeTo(call.loc, *d, int64_t(values[0]), int64_t(values[2]),
                        *dtype);
    // A name bound to a static size (in a called function).
    values[1] = double(d->size);
  }
  Dim size;
  {
    // numpy: ceil((stop - start) / step), at least 0.
    double count = std::ceil((values[1] - values[0]) / values[2]);
    if (count > 9.0e15) {
      emitError(call.loc) << "arange would have " << count
                          << " elements, too many";
      return {};
    }
    size = Dim::fixed(count > 0 ? int64_t(count) : 0);
  }
  return b.arange(call.loc, size, values[0], values[2], *dtype);
}

/// The value of `full`: the positional operand or `value=`, in the dtype
/// asked for (a literal's own kind otherwise: f32, i64 or bool).
TensorRef fillValue(GraphBuilder &b, const CallSite &call, const CallArgs &args,
                    std::optional<double> fixed) {
  Builder builder(b.getContext());
  std::optional<Operand> value;
  if (fixed) {
    value = Operand::ofLiteral(Literal::ofFloat(*fixed), call.loc, "");
  } else if (!call.args.empty()) {
    value = call.args.front();
  } else if (const AttrValue *v = args.find("value")) {
    Literal literal;
    if (v->kind == AttrValue::Kind::Integer)
      literal = Literal::ofInteger(
          llvm::APInt(64, uint64_t(v->integer), /*isSigned=*/true));
    else if (v->kind == AttrValue::Kind::Float)
      literal = Literal::ofFloat(v->number);
    else if (v->kind == AttrValue::Kind::Bool)
      literal = Literal::ofBool(v->boolean);
    else {
      args.wrong(*v, "value", "a number or true/false");
      return {};
    }
    value = Operand::ofLiteral(literal, v->loc, "");
  } else {
    args.missing("value");
    return {};
  }
  Type natural;
  if (!value->isLiteral())
    natural = value->tensor.elementType();
  else if (value->literal->kind == Literal::Kind::Float || fixed)
    natural = builder.getF32Type();
  else if (value->literal->kind == Literal::Kind::Integer)
    natural = builder.getI64Type();
  else
    natural = builder.getI1Type();
  FailureOr<Type> dtype = args.dtype("dtype", natural);
  if (failed(dtype))
    return {};
  if (fixed && dtype->isInteger(1))
    return b.constant(call.loc, builder.getBoolAttr(*fixed != 0));
  if (fixed && isa<IntegerType>(*dtype))
    return b.constant(call.loc,
                      builder.getIntegerAttr(*dtype, int64_t(*fixed)));
  TensorRef t = materialize(b, *value, *dtype);
  if (t && t.elementType() != *dtype)
    t = b.cast(call.loc, t, *dtype);
  return t;
}

/// The one tensor argument of a `*_like`, tril/triu or scan call, and an
/// optional second positional integer (k or axis) stored under `second`.
FailureOr<TensorRef> tensorArgument(const CallSite &call, StringRef second,
                                    std::optional<int64_t> &secondValue) {
  size_t n = call.args.size();
  size_t most = second.empty() ? 1 : 2;
  if (n < 1 || n > most) {
    return emitError(call.loc) << "'" << call.name << "' takes "
                               << (most == 1 ? "1 positional argument"
                                             : "1 or 2 positional "
                                               "arguments")
                               << ", got " << n;
  }
  const Operand &x = call.args[0];
  if (x.isLiteral())
    return emitError(x.loc)
           << "'" << call.name << "' needs a tensor, got " << x.source;
  if (n == 2) {
    const Operand &s = call.args[1];
    if (!s.isLiteral() || s.literal->kind != Literal::Kind::Integer ||
        s.literal->integer.getSignificantBits() > 64)
      return emitError(s.loc) << "'" << second << "' of '" << call.name
                              << "' must be an integer";
    for (const auto &kw : call.kwargs)
      if (kw.first == second)
        return emitError(kw.second.loc)
               << "'" << call.name << "' takes '" << second << "' once";
    secondValue = s.literal->integer.getSExtValue();
  }
  return x.tensor;
}

} // namespace

ArrayRef<StringRef> frontend::constructorNames() {
  static const StringRef names[] = {
      "arange", "cumprod",   "cumsum", "eye",  "full",  "full_like", "iota",
      "ones",   "ones_like", "tril",   "triu", "zeros", "zeros_like"};
  return names;
}

bool frontend::takesShapeArguments(StringRef name) {
  return name == "arange" || name == "iota" || name == "eye" ||
         name == "zeros" || name == "ones" || name == "full";
}

std::optional<TensorRef> frontend::emitConstructorCall(GraphBuilder &b,
                                                       const CallSite &call) {
  StringRef name = call.name;
  if (!llvm::is_contained(constructorNames(), name))
    return std::nullopt;
  CallArgs args(call);
  Builder builder(b.getContext());
  Type f32 = builder.getF32Type();
  if (name == "arange") {
    if (failed(args.checkKnown({"start", "stop", "step", "dtype"})))
      return TensorRef();
    return emitArange(b, call, args);
  }
  if (name == "iota") {
    if (failed(args.checkKnown({"shape", "axis", "dtype"})))
      return TensorRef();
    FailureOr<Shape> shape = args.shape("shape");
    FailureOr<int64_t> axis = args.integer("axis", 0);
    FailureOr<Type> dtype = args.dtype("dtype", builder.getI64Type());
    if (failed(shape) || failed(axis) || failed(dtype))
      return TensorRef();
    return b.iota(call.loc, *shape, *axis, *dtype);
  }
  if (name == "eye") {
    if (failed(args.checkKnown({"N", "M", "k", "dtype"})))
      return TensorRef();
    FailureOr<Shape> n = args.shape("N");
    FailureOr<Shape> m = args.find("M") ? args.shape("M") : n;
    FailureOr<int64_t> k = args.integer("k", 0);
    FailureOr<Type> dtype = args.dtype("dtype", f32);
    if (failed(n) || failed(m) || failed(k) || failed(dtype))
      return TensorRef();
    if (n->size() != 1 || m->size() != 1) {
      emitError(call.loc) << "eye takes sizes, not shapes: eye(N) or eye(N, M)";
      return TensorRef();
    }
    return b.eye(call.loc, n->front(), m->front(), *k, *dtype);
  }
  if (name == "zeros" || name == "ones" || name == "full") {
    bool isFull = name == "full";
    if (failed(isFull ? args.checkKnown({"shape", "value", "dtype"})
                      : args.checkKnown({"shape", "dtype"})))
      return TensorRef();
    if (isFull && !call.args.empty() && args.find("value")) {
      emitError(call.loc) << "'full' takes 'value' once";
      return TensorRef();
    }
    FailureOr<Shape> shape = args.shape("shape");
    if (failed(shape))
      return TensorRef();
    std::optional<double> fixed;
    if (!isFull)
      fixed = name == "ones" ? 1.0 : 0.0;
    TensorRef value = fillValue(b, call, args, fixed);
    if (!value)
      return TensorRef();
    return b.full(call.loc, *shape, value);
  }
  if (name == "zeros_like" || name == "ones_like" || name == "full_like") {
    bool isFull = name == "full_like";
    if (failed(isFull ? args.checkKnown({"value", "dtype"})
                      : args.checkKnown({"dtype"})))
      return TensorRef();
    std::optional<int64_t> none;
    FailureOr<TensorRef> x = tensorArgument(call, "", none);
    if (failed(x))
      return TensorRef();
    TensorRef like = *x;
    std::optional<double> fixed;
    if (!isFull)
      fixed = name == "ones_like" ? 1.0 : 0.0;
    // The value takes the tensor's dtype unless dtype= says otherwise.
    CallSite valueCall = call;
    valueCall.args.clear();
    if (!args.find("dtype")) {
      AttrValue dt(call.loc);
      dt.kind = AttrValue::Kind::Name;
      dt.text = elementTypeName(like.elementType());
      valueCall.kwargs.emplace_back("dtype", dt);
    }
    TensorRef value = fillValue(b, valueCall, CallArgs(valueCall), fixed);
    if (!value)
      return TensorRef();
    return b.full(call.loc, like.shape, value, &like);
  }
  if (name == "tril" || name == "triu") {
    if (failed(args.checkKnown({"k"})))
      return TensorRef();
    std::optional<int64_t> k;
    FailureOr<TensorRef> x = tensorArgument(call, "k", k);
    FailureOr<int64_t> kw = args.integer("k", 0);
    if (failed(x) || failed(kw))
      return TensorRef();
    return b.triangle(call.loc, *x, k.value_or(*kw), name == "tril");
  }
  // cumsum, cumprod.
  if (failed(args.checkKnown({"axis"})))
    return TensorRef();
  std::optional<int64_t> axis;
  FailureOr<TensorRef> x = tensorArgument(call, "axis", axis);
  if (failed(x))
    return TensorRef();
  if (!axis) {
    if (args.find("axis")) {
      FailureOr<int64_t> a = args.integer("axis", 0);
      if (failed(a))
        return TensorRef();
      axis = *a;
    } else if (x->shape.size() == 1) {
      axis = 0;
    } else {
      emitError(call.loc) << "'" << name << "' of a tensor of rank "
                          << x->shape.size()
                          << " needs an axis (numpy would flatten it; write "
                          << name
                          << "(reshape(x, shape=[-1]), axis=0) for that)";
      return TensorRef();
    }
  }
  return b.scan(call.loc, name == "cumsum" ? ScanKind::Sum : ScanKind::Prod, *x,
                *axis);
}
