//===- Builtins.cpp - the functions a graph file can call -----------------===//
//
// One table maps each callable name to its arity, its keyword arguments and
// the GraphBuilder method that emits it.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/CallArgs.h"
#include "compiler/frontend/CollectiveBuiltins.h"
#include "compiler/frontend/ConvBuiltins.h"
#include "compiler/frontend/Expr.h"
#include "compiler/frontend/RandomBuiltins.h"
#include "compiler/frontend/Slicing.h"
#include "compiler/frontend/Suggest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using tc::Dim;
using tc::Shape;

namespace {

/// A built-in: its positional arity, its keywords, and how to emit it from
/// materialized tensor arguments. `variadic` takes `arity` or more.
struct Builtin {
  unsigned arity;
  bool variadic;
  SmallVector<StringRef> keywords;
  std::function<TensorRef(GraphBuilder &, const CallSite &, const CallArgs &,
                          ArrayRef<TensorRef>)>
      emit;
};

Builtin unary(UnaryKind kind) {
  return {1,
          false,
          {},
          [kind](GraphBuilder &b, const CallSite &c, const CallArgs &,
                 ArrayRef<TensorRef> t) { return b.unary(c.loc, kind, t[0]); }};
}

Builtin binary(BinaryKind kind) {
  return {2,
          false,
          {},
          [kind](GraphBuilder &b, const CallSite &c, const CallArgs &,
                 ArrayRef<TensorRef> t) {
            return b.binary(c.loc, kind, t[0], t[1]);
          }};
}

/// What to write instead of a logical function on numbers.
constexpr StringLiteral kLogicalHint =
    "compare first, e.g. logical_and(x > 0, y != 0)";

Builtin logical(LogicalKind kind) {
  static constexpr StringLiteral names[] = {"logical_and", "logical_or",
                                            "logical_xor"};
  return {2,
          false,
          {},
          [kind](GraphBuilder &b, const CallSite &c, const CallArgs &,
                 ArrayRef<TensorRef> t) {
            return b.logical(c.loc, kind, t[0], t[1], names[(int)kind],
                             kLogicalHint);
          }};
}

Builtin reduction(ReduceKind kind) {
  return {1,
          false,
          {"axis", "keepdims"},
          [kind](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                 ArrayRef<TensorRef> t) -> TensorRef {
            FailureOr<SmallVector<int64_t>> axes = kw.integers("axis");
            FailureOr<bool> keep = kw.boolean("keepdims", false);
            if (failed(axes) || failed(keep))
              return {};
            return b.reduce(c.loc, kind, t[0], *axes, *keep);
          }};
}

/// var and std: a reduction with `ddof` (default 0, as numpy).
Builtin moment(ReduceKind kind) {
  return {1,
          false,
          {"axis", "keepdims", "ddof"},
          [kind](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                 ArrayRef<TensorRef> t) -> TensorRef {
            FailureOr<SmallVector<int64_t>> axes = kw.integers("axis");
            FailureOr<bool> keep = kw.boolean("keepdims", false);
            FailureOr<int64_t> ddof = kw.integer("ddof", 0);
            if (failed(axes) || failed(keep) || failed(ddof))
              return {};
            return b.reduce(c.loc, kind, t[0], *axes, *keep, *ddof);
          }};
}

Builtin normalization(bool log) {
  return {1,
          false,
          {"axis"},
          [log](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                ArrayRef<TensorRef> t) -> TensorRef {
            FailureOr<int64_t> axis = kw.integer("axis", -1);
            if (failed(axis))
              return {};
            return b.softmax(c.loc, t[0], *axis, log);
          }};
}

const llvm::StringMap<Builtin> &builtins() {
  static const llvm::StringMap<Builtin> table = [] {
    llvm::StringMap<Builtin> m;
    m["neg"] = unary(UnaryKind::Neg);
    m["abs"] = unary(UnaryKind::Abs);
    m["relu"] = unary(UnaryKind::Relu);
    m["exp"] = unary(UnaryKind::Exp);
    m["log"] = unary(UnaryKind::Log);
    m["tanh"] = unary(UnaryKind::Tanh);
    m["sigmoid"] = unary(UnaryKind::Sigmoid);
    m["sqrt"] = unary(UnaryKind::Sqrt);
    m["rsqrt"] = unary(UnaryKind::Rsqrt);
    m["sign"] = unary(UnaryKind::Sign);
    m["erf"] = unary(UnaryKind::Erf);
    m["log1p"] = unary(UnaryKind::Log1p);
    m["expm1"] = unary(UnaryKind::Expm1);
    m["softplus"] = unary(UnaryKind::Softplus);
    m["sin"] = unary(UnaryKind::Sin);
    m["cos"] = unary(UnaryKind::Cos);
    m["floor"] = unary(UnaryKind::Floor);
    m["ceil"] = unary(UnaryKind::Ceil);
    m["round"] = unary(UnaryKind::Round);
    m["logical_and"] = logical(LogicalKind::And);
    m["logical_or"] = logical(LogicalKind::Or);
    m["logical_xor"] = logical(LogicalKind::Xor);
    m["logical_not"] = {1,
                        false,
                        {},
                        [](GraphBuilder &b, const CallSite &c, const CallArgs &,
                           ArrayRef<TensorRef> t) {
                          return b.logicalNot(c.loc, t[0], "logical_not",
                                              kLogicalHint);
                        }};
    m["clip"] = {
        3,
        false,
        {},
        [](GraphBuilder &b, const CallSite &c, const CallArgs &,
           ArrayRef<TensorRef> t) { return b.clip(c.loc, t[0], t[1], t[2]); }};
    m["add"] = binary(BinaryKind::Add);
    m["sub"] = binary(BinaryKind::Sub);
    m["mul"] = binary(BinaryKind::Mul);
    m["div"] = binary(BinaryKind::Div);
    m["pow"] = binary(BinaryKind::Pow);
    m["maximum"] = binary(BinaryKind::Maximum);
    m["minimum"] = binary(BinaryKind::Minimum);
    m["sum"] = reduction(ReduceKind::Sum);
    m["mean"] = reduction(ReduceKind::Mean);
    m["max"] = reduction(ReduceKind::Max);
    m["min"] = reduction(ReduceKind::Min);
    m["prod"] = reduction(ReduceKind::Prod);
    m["logsumexp"] = reduction(ReduceKind::LogSumExp);
    m["var"] = moment(ReduceKind::Var);
    m["std"] = moment(ReduceKind::Std);
    m["softmax"] = normalization(false);
    m["log_softmax"] = normalization(true);
    m["matmul"] = {
        2,
        false,
        {},
        [](GraphBuilder &b, const CallSite &c, const CallArgs &,
           ArrayRef<TensorRef> t) { return b.matmul(c.loc, t[0], t[1]); }};
    Builtin select = {3,
                      false,
                      {},
                      [](GraphBuilder &b, const CallSite &c, const CallArgs &,
                         ArrayRef<TensorRef> t) {
                        return b.select(c.loc, t[0], t[1], t[2]);
                      }};
    m["select"] = select;
    m["where"] = select;
    m["ifelse"] = {3,
                   false,
                   {},
                   [](GraphBuilder &b, const CallSite &c, const CallArgs &,
                      ArrayRef<TensorRef> t) {
                     return b.ifElse(c.loc, t[0], t[1], t[2]);
                   }};
    m["cast"] = {1,
                 false,
                 {"dtype"},
                 [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                    ArrayRef<TensorRef> t) -> TensorRef {
                   FailureOr<Type> dtype = kw.dtype("dtype");
                   if (failed(dtype))
                     return {};
                   return b.cast(c.loc, t[0], *dtype);
                 }};
    m["argmax"] = {1,
                   false,
                   {"axis", "keepdims"},
                   [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                      ArrayRef<TensorRef> t) -> TensorRef {
                     FailureOr<int64_t> axis = kw.integer("axis", -1);
                     FailureOr<bool> keep = kw.boolean("keepdims", false);
                     if (failed(axis) || failed(keep))
                       return {};
                     return b.argmax(c.loc, t[0], *axis, *keep);
                   }};
    m["size"] = {1,
                 false,
                 {"axis"},
                 [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                    ArrayRef<TensorRef> t) -> TensorRef {
                   // size(x, 0) or size(x, axis=0).
                   FailureOr<int64_t> axis = kw.integer("axis", std::nullopt);
                   if (failed(axis))
                     return {};
                   return b.size(c.loc, t[0], *axis);
                 }};
    m["transpose"] = {1,
                      false,
                      {"perm"},
                      [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                         ArrayRef<TensorRef> t) -> TensorRef {
                        FailureOr<SmallVector<int64_t>> perm =
                            kw.integers("perm");
                        if (failed(perm))
                          return {};
                        return b.transpose(c.loc, t[0], *perm);
                      }};
    m["reshape"] = {1,
                    false,
                    {"shape"},
                    [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                       ArrayRef<TensorRef> t) -> TensorRef {
                      FailureOr<Shape> shape =
                          kw.shape("shape", CallArgs::Sizes::AnyInteger,
                                   CallArgs::OneSize::IsError);
                      if (failed(shape))
                        return {};
                      return b.reshape(c.loc, t[0], *shape);
                    }};
    m["broadcast_to"] = {
        1,
        false,
        {"shape"},
        [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
           ArrayRef<TensorRef> t) -> TensorRef {
          FailureOr<Shape> shape = kw.shape(
              "shape", CallArgs::Sizes::AnyInteger, CallArgs::OneSize::IsError);
          if (failed(shape))
            return {};
          return b.broadcastTo(c.loc, t[0], *shape);
        }};
    m["slice"] = {1,
                  false,
                  {"begin", "end", "step"},
                  [](GraphBuilder &b, const CallSite &c, const CallArgs &,
                     ArrayRef<TensorRef> t) -> TensorRef {
                    return emitSliceCall(b, c, t[0]);
                  }};
    Builtin concat = {1,
                      true,
                      {"axis"},
                      [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                         ArrayRef<TensorRef> t) -> TensorRef {
                        FailureOr<int64_t> axis = kw.integer("axis", 0);
                        if (failed(axis))
                          return {};
                        return b.concat(c.loc, t, *axis);
                      }};
    m["concatenate"] = concat;
    m["concat"] = concat;
    Builtin take = {2,
                    false,
                    {"axis"},
                    [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
                       ArrayRef<TensorRef> t) -> TensorRef {
                      FailureOr<int64_t> axis = kw.integer("axis", 0);
                      if (failed(axis))
                        return {};
                      return b.take(c.loc, t[0], t[1], *axis);
                    }};
    // Handled by emitIndexingCall; listed so that they are known names.
    m["one_hot"] = {1, true, {"depth", "dtype"}, nullptr};
    m["dynamic_slice"] = {1, true, {"size"}, nullptr};
    m["take"] = take;
    m["gather"] = take;
    m["take_along_axis"] = {
        2,
        false,
        {"axis"},
        [](GraphBuilder &b, const CallSite &c, const CallArgs &kw,
           ArrayRef<TensorRef> t) -> TensorRef {
          FailureOr<int64_t> axis = kw.integer("axis", std::nullopt);
          if (failed(axis))
            return {};
          return b.takeAlongAxis(c.loc, t[0], t[1], *axis);
        }};
    m["scatter_add"] = {3,
                        false,
                        {"axis"},
                        [](GraphBuilder &b, const CallSite &c,
                           const CallArgs &kw,
                           ArrayRef<TensorRef> t) -> TensorRef {
                          FailureOr<int64_t> axis = kw.integer("axis", 0);
                          if (failed(axis))
                            return {};
                          return b.scatterAdd(c.loc, t[0], t[1], t[2], *axis);
                        }};
    // Windowed ops (ConvBuiltins.cpp).
    auto window = [](unsigned arity, SmallVector<StringRef> keywords) {
      return Builtin{
          arity, false, keywords,
          [](GraphBuilder &b, const CallSite &c, const CallArgs &,
             ArrayRef<TensorRef> t) { return emitWindowCall(b, c, t); }};
    };
    m["conv1d"] = m["conv2d"] =
        window(2, {"layout", "stride", "padding", "dilation", "groups"});
    m["max_pool2d"] = m["avg_pool2d"] =
        window(1, {"kernel", "stride", "padding", "layout"});
    m["global_avg_pool"] = window(1, {"layout"});
    // Random numbers with explicit state (RandomBuiltins.cpp).
    auto random = [](SmallVector<StringRef> keywords) {
      return Builtin{
          1, true, keywords,
          [](GraphBuilder &b, const CallSite &c, const CallArgs &,
             ArrayRef<TensorRef> t) { return emitRandomCall(b, c, t); }};
    };
    m["random_uniform"] = random({"shape", "dtype", "low", "high"});
    m["random_normal"] = random({"shape", "dtype", "mean", "std"});
    m["bernoulli"] = random({"shape", "dtype", "p"});
    // Collectives across the ranks of a job (CollectiveBuiltins.cpp).
    auto collective = [](unsigned arity, SmallVector<StringRef> keywords) {
      return Builtin{
          arity, false, keywords,
          [](GraphBuilder &b, const CallSite &c, const CallArgs &,
             ArrayRef<TensorRef> t) { return emitCollectiveCall(b, c, t); }};
    };
    m["all_reduce"] = collective(1, {"op"});
    m["all_gather"] = collective(1, {"ranks"});
    m["reduce_scatter"] = collective(1, {"op", "ranks"});
    m["broadcast"] = collective(1, {"root"});
    m["process_rank"] = collective(0, {});
    m["rng_advance"] = {
        1,
        false,
        {},
        [](GraphBuilder &b, const CallSite &c, const CallArgs &,
           ArrayRef<TensorRef> t) { return emitRandomCall(b, c, t); }};
    return m;
  }();
  return table;
}

/// The dtype that literals alone choose (see emitCall).
Type defaultLiteralType(MLIRContext *context, ArrayRef<Operand> literals) {
  Builder b(context);
  bool anyFloat = false, allBool = true;
  for (const Operand &o : literals) {
    anyFloat |= o.literal->kind == Literal::Kind::Float;
    allBool &= o.literal->kind == Literal::Kind::Bool;
  }
  if (anyFloat)
    return b.getF32Type();
  return allBool ? Type(b.getI1Type()) : Type(b.getI64Type());
}

/// one_hot and dynamic_slice, whose positional arguments are not all
/// tensors of one dtype (see emitCall).
TensorRef emitIndexingCall(GraphBuilder &builder, const CallSite &call,
                           const CallArgs &kw) {
  ArrayRef<Operand> args(call.args);
  if (args.empty() || args[0].isLiteral()) {
    emitError(call.loc) << "'" << call.name << "' needs a tensor first";
    return {};
  }
  TensorRef first = materialize(builder, args[0], Type());
  if (!first)
    return {};
  if (call.name == "one_hot") {
    if (failed(kw.checkKnown({"depth", "dtype"})))
      return {};
    std::optional<int64_t> depth;
    if (args.size() == 2) {
      const Operand &d = args[1];
      if (!d.isLiteral() || d.literal->kind != Literal::Kind::Integer ||
          d.literal->integer.getSignificantBits() > 64 || kw.find("depth")) {
        emitError(d.loc) << "the depth of 'one_hot' is an integer, given "
                            "once (one_hot(ids, 10) or depth=10)";
        return {};
      }
      depth = d.literal->integer.getSExtValue();
    } else if (args.size() != 1) {
      emitError(call.loc) << "'one_hot' takes the ids and a depth, got "
                          << args.size() << " positional arguments";
      return {};
    }
    FailureOr<int64_t> d =
        depth ? FailureOr<int64_t>(*depth) : kw.integer("depth", std::nullopt);
    FailureOr<Type> dtype =
        kw.find("dtype")
            ? kw.dtype("dtype")
            : FailureOr<Type>(Float32Type::get(call.loc.getContext()));
    if (failed(d) || failed(dtype))
      return {};
    return builder.oneHot(call.loc, first, *d, *dtype);
  }
  // dynamic_slice(x, start0, start1, ..., size=[...])
  if (failed(kw.checkKnown({"size"})))
    return {};
  FailureOr<SmallVector<int64_t>> sizes = kw.integers("size");
  if (failed(sizes))
    return {};
  if (!kw.find("size")) {
    emitError(call.loc) << "'dynamic_slice' needs the keyword argument 'size'";
    return {};
  }
  Type i64 = IntegerType::get(call.loc.getContext(), 64);
  SmallVector<TensorRef> starts;
  for (const Operand &a : args.drop_front()) {
    TensorRef t = materialize(builder, a, i64);
    if (!t)
      return {};
    starts.push_back(t);
  }
  return builder.dynamicSlice(call.loc, first, starts, *sizes);
}

} // namespace

TensorRef frontend::emitCall(GraphBuilder &builder, const CallSite &call) {
  if (std::optional<TensorRef> made = emitConstructorCall(builder, call))
    return *made;
  const auto &table = builtins();
  auto it = table.find(call.name);
  if (it == table.end()) {
    SmallVector<StringRef> names(constructorNames());
    for (const auto &entry : table)
      names.push_back(entry.getKey());
    names.push_back("scan");  // a statement (ParserControlFlow.cpp)
    names.push_back("while"); // a statement (ParserWhile.cpp)
    llvm::sort(names);
    std::string suggestion = didYouMean(call.name, names);
    if (!suggestion.empty())
      emitError(call.loc) << "unknown function '" << call.name << "'"
                          << suggestion;
    else
      emitError(call.loc) << "unknown function '" << call.name
                          << "'; known functions are: "
                          << llvm::join(names, ", ");
    return {};
  }
  const Builtin &fn = it->second;
  size_t n = call.args.size();
  // size(x, 0): the axis may also be the second positional argument, an
  // integer literal.
  if (call.name == "size" && n == 2) {
    const Operand &axis = call.args[1];
    if (!axis.isLiteral() || axis.literal->kind != Literal::Kind::Integer ||
        axis.literal->integer.getSignificantBits() > 64) {
      emitError(axis.loc) << "the axis of 'size' must be an integer";
      return {};
    }
    if (CallArgs(call).find("axis")) {
      emitError(axis.loc) << "'size' takes its axis once";
      return {};
    }
    if (call.args[0].isLiteral()) {
      emitError(call.args[0].loc) << "'size' needs a tensor";
      return {};
    }
    TensorRef input = materialize(builder, call.args[0], Type());
    if (!input)
      return {};
    return builder.size(call.loc, input, axis.literal->integer.getSExtValue());
  }
  // one_hot(ids, 10): the depth may be the second positional argument;
  // dynamic_slice(x, i * bs, 0, size=[bs, D]): the starts are i64 scalars,
  // literals included.
  if (call.name == "one_hot" || call.name == "dynamic_slice")
    return emitIndexingCall(builder, call, CallArgs(call));
  if (n < fn.arity || (!fn.variadic && n != fn.arity)) {
    emitError(call.loc) << "'" << call.name << "' takes "
                        << (fn.variadic ? "at least " : "") << fn.arity
                        << " positional argument" << (fn.arity == 1 ? "" : "s")
                        << ", got " << n;
    return {};
  }
  CallArgs kwargs(call);
  if (failed(kwargs.checkKnown(fn.keywords)))
    return {};
  // Literal arguments take the dtype of the first tensor argument; select's
  // condition is bool and does not lend its dtype. When only the condition
  // is a tensor (`select(c, 1.0, 0.0)`), the literals choose: f32 if any is
  // a float, else i64 for integers, else bool.
  ArrayRef<Operand> args(call.args);
  bool isSelect =
      call.name == "select" || call.name == "where" || call.name == "ifelse";
  Type dtype = firstElementType(isSelect ? args.drop_front() : args);
  if (!dtype && isSelect && !args.front().isLiteral())
    dtype = defaultLiteralType(builder.getContext(), args.drop_front());
  SmallVector<TensorRef> tensors;
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type want = isSelect && i == 0
                    ? Type(IntegerType::get(builder.getContext(), 1))
                    : dtype;
    if (arg.isLiteral() && !want) {
      emitError(arg.loc) << "cannot tell the dtype of this literal; pass a "
                            "tensor argument or use cast(...)";
      return {};
    }
    TensorRef t = materialize(builder, arg, want);
    if (!t)
      return {};
    tensors.push_back(t);
  }
  return fn.emit(builder, call, kwargs, tensors);
}
