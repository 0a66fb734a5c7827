//===- ParserCalls.cpp - calls that take sizes, calls of file functions ---===//
//
// `zeros([T, T])` and `arange(N)` take sizes, not tensors: their positional
// arguments are read as keyword values. A call of a function of the same
// file is inlined: its body is parsed again, from its saved lexer, with its
// inputs bound to the arguments and its dimension names to the arguments'
// sizes, so that each call builds ops of the caller's shapes. A function
// may call only the functions above it, so calls cannot recurse; the depth
// of nested calls is bounded as well.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;
using tc::Dim;
using tc::Shape;

/// Calls nested deeper than this are reported.
static constexpr size_t kMaxCallDepth = 32;
/// More calls than this inlined into one function are reported: a function
/// that calls another twice doubles its size at each level.
static constexpr unsigned kMaxInlinedCalls = 10000;

FailureOr<Operand> Parser::parseConstructorCall(const Token &name) {
  CallSite call{name.text.str(), locOf(name.loc()), {}, {}, &symbols};
  if (!callStack.empty())
    call.bindings = &bindings;
  consume(); // (
  Nesting level(depth);
  if (level.tooDeep())
    return tooDeep();
  // Positional sizes and numbers, by position; full's value is an
  // expression (a literal such as -inf, or a scalar tensor).
  SmallVector<AttrValue> positional;
  Token close = tok;
  while (!tok.is(TokenKind::RParen)) {
    Lexer probe = lexer;
    if (tok.is(TokenKind::Identifier) && probe.next().is(TokenKind::Assign)) {
      Location keyLoc = here();
      std::string key = consume().text.str();
      consume(); // =
      for (const auto &kw : call.kwargs)
        if (kw.first == key)
          return emitError(keyLoc)
                 << "keyword argument '" << key << "' is given twice";
      FailureOr<AttrValue> value = parseAttrValue();
      if (failed(value))
        return failure();
      call.kwargs.emplace_back(key, *value);
    } else if (!call.kwargs.empty()) {
      return error() << "positional arguments must come before keyword "
                        "arguments";
    } else if (call.name == "full" && positional.size() == 1 &&
               call.args.empty()) {
      FailureOr<Operand> value = parseComparison();
      if (failed(value))
        return failure();
      call.args.push_back(*value);
    } else {
      FailureOr<AttrValue> value = parseAttrValue();
      if (failed(value))
        return failure();
      positional.push_back(*value);
    }
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  close = tok;
  if (failed(expect(TokenKind::RParen, "to close the argument list")))
    return failure();
  // Positional values take the names numpy gives them.
  SmallVector<StringRef, 3> names;
  if (call.name == "arange")
    names = positional.size() == 1
                ? SmallVector<StringRef, 3>{"stop"}
                : SmallVector<StringRef, 3>{"start", "stop", "step"};
  else if (call.name == "eye")
    names = {"N", "M"};
  else
    names = {"shape"};
  if (positional.size() > names.size())
    return emitError(positional[names.size()].loc)
           << "'" << call.name << "' takes at most " << names.size()
           << " positional argument" << (names.size() == 1 ? "" : "s")
           << (call.name == "full" ? " (the shape and the value)" : "");
  for (auto [i, value] : llvm::enumerate(positional)) {
    for (const auto &kw : call.kwargs)
      if (kw.first == names[i])
        return emitError(kw.second.loc)
               << "'" << call.name << "' takes '" << names[i] << "' once";
    call.kwargs.emplace_back(names[i].str(), value);
  }
  TensorRef t = emitCall(builder, call);
  if (!t)
    return failure();
  return Operand::ofTensor(t, call.loc, span(name.text, close.text));
}

std::optional<LogicalResult>
Parser::reportUndefinedFunction(const Token &name) {
  Location loc = locOf(name.loc());
  if (name.text == currentName)
    return emitError(loc) << "function '" << name.text
                          << "' calls itself; recursion is not supported";
  if (allFunctionNames.contains(name.text))
    return emitError(loc) << "function '" << name.text
                          << "' is defined below; a function can call only "
                             "the functions above it";
  return std::nullopt;
}

FailureOr<Operand> Parser::parseFunctionCallExpr(const Token &name) {
  FailureOr<SmallVector<TensorRef>> outputs = parseFunctionCall(name);
  if (failed(outputs))
    return failure();
  if (outputs->size() != 1)
    return emitError(locOf(name.loc()))
           << "function '" << name.text << "' has " << outputs->size()
           << " outputs; assign them to as many names: a, b = " << name.text
           << "(...)";
  return Operand::ofTensor(outputs->front(), locOf(name.loc()), name.text);
}

/// "f32[N, 4]".
static std::string typeText(Type elementType, const Shape &shape) {
  return elementTypeName(elementType) + tc::formatShape(shape);
}

/// Binds the callee's dimension names in `declared` to the sizes of
/// `actual`; a message when they disagree.
static std::optional<std::string> unify(const Shape &declared,
                                        const Shape &actual,
                                        llvm::StringMap<Dim> &bindings) {
  if (declared.size() != actual.size())
    return std::string("the ranks differ");
  // Whole names first, so that products (B*T) can be computed.
  for (auto [d, a] : llvm::zip(declared, actual)) {
    if (!d.isDynamic()) {
      if (a.size != d.size)
        return "dimension " + d.str() + " is " + a.str() + " here";
      continue;
    }
    if (tc::isProductSymbol(d.symbol))
      continue;
    auto [it, inserted] = bindings.try_emplace(d.symbol, a);
    if (inserted)
      continue;
    if (!(it->second == a) || (a.isDynamic() && a.symbol.empty()))
      return d.symbol + " would be both " + it->second.str() + " and " +
             a.str();
  }
  for (auto [d, a] : llvm::zip(declared, actual)) {
    if (!d.isDynamic() || !tc::isProductSymbol(d.symbol))
      continue;
    std::optional<tc::DimProduct> p = tc::productOf(d);
    tc::DimProduct value;
    value.coef = p ? p->coef : 1;
    bool known = p.has_value();
    for (const std::string &f :
         p ? p->factors : SmallVector<std::string, 2>{}) {
      auto it = bindings.find(f);
      std::optional<tc::DimProduct> fp =
          it == bindings.end() ? std::nullopt : tc::productOf(it->second);
      std::optional<tc::DimProduct> m =
          fp ? tc::multiply(value, *fp) : std::nullopt;
      if (!m) {
        known = false;
        break;
      }
      value = *m;
    }
    if (!known || !(tc::productDim(value) == a))
      return "dimension " + d.str() + " is " + a.str() + " here";
  }
  return std::nullopt;
}

FailureOr<SmallVector<TensorRef>> Parser::parseFunctionCall(const Token &name) {
  Location loc = locOf(name.loc());
  auto found = functions.find(name.text);
  if (found == functions.end()) {
    if (std::optional<LogicalResult> reported = reportUndefinedFunction(name))
      return failure();
    return emitError(loc) << "unknown function '" << name.text << "'";
  }
  const FunctionDef &def = found->second;
  consume(); // (
  Nesting level(depth);
  if (level.tooDeep())
    return tooDeep();
  std::vector<Operand> args;
  Token close = tok;
  while (!tok.is(TokenKind::RParen)) {
    Lexer probe = lexer;
    if (tok.is(TokenKind::Identifier) && probe.next().is(TokenKind::Assign))
      return error() << "function '" << name.text
                     << "' takes its inputs by position, not by keyword";
    FailureOr<Operand> arg = parseComparison();
    if (failed(arg))
      return failure();
    args.push_back(*arg);
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  close = tok;
  if (failed(expect(TokenKind::RParen, "to close the argument list")))
    return failure();
  if (args.size() != def.inputs.size())
    return emitError(loc) << "function '" << name.text << "' takes "
                          << def.inputs.size() << " input"
                          << (def.inputs.size() == 1 ? "" : "s") << ", got "
                          << args.size();
  if (def.hasUpdates)
    return emitError(loc)
           << "function '" << name.text
           << "' updates shared variables, so it cannot be called from "
              "another function; return the new values instead and update "
              "them in the caller";
  // Reported at the outermost call, in the function being defined.
  if (callStack.empty())
    outerCallLoc = loc;
  if (++inlinedCalls > kMaxInlinedCalls)
    return emitError(*outerCallLoc)
           << "calls are inlined more than " << kMaxInlinedCalls
           << " times into '" << currentName
           << "'; call fewer functions more than once";
  if (callStack.size() >= kMaxCallDepth)
    return emitError(loc) << "calls are nested more than " << kMaxCallDepth
                          << " functions deep";

  // The arguments, in the declared dtypes, and the callee's sizes.
  llvm::StringMap<Dim> calleeBindings;
  SmallVector<TensorRef> inputs;
  for (auto [i, arg, spec] : llvm::enumerate(args, def.inputs)) {
    TensorRef t = materialize(builder, arg, spec.elementType);
    if (!t)
      return failure();
    std::optional<std::string> why;
    if (t.elementType() != spec.elementType)
      why = "the dtypes differ";
    else
      why = unify(spec.shape, t.shape, calleeBindings);
    if (why)
      return emitError(arg.loc)
             << "argument " << i + 1 << " of '" << name.text << "' is "
             << typeText(t.elementType(), t.shape) << ", but '" << name.text
             << "' declares " << spec.name << " : "
             << typeText(spec.elementType, spec.shape) << " (" << *why << ")";
    inputs.push_back(t);
  }

  // Parse the body again in the callee's scope; restore the caller's after.
  Lexer savedLexer = lexer;
  Token savedTok = tok;
  llvm::StringMap<TensorRef> savedScope = std::move(scope);
  llvm::StringSet<> savedInputs = std::move(inputNames);
  llvm::StringSet<> savedSymbols = std::move(symbols);
  llvm::StringMap<Dim> savedBindings = std::move(bindings);
  auto restore = llvm::make_scope_exit([&] {
    lexer = savedLexer;
    tok = savedTok;
    scope = std::move(savedScope);
    inputNames = std::move(savedInputs);
    symbols = std::move(savedSymbols);
    bindings = std::move(savedBindings);
    callStack.pop_back();
  });
  callStack.push_back(name.text.str());
  scope.clear();
  inputNames.clear();
  for (auto [spec, t] : llvm::zip(def.inputs, inputs)) {
    scope[spec.name] = t;
    inputNames.insert(spec.name);
  }
  symbols = def.symbols;
  bindings = std::move(calleeBindings);
  lexer = def.body;
  tok = def.first;
  // The body was checked when the function was defined, and the arguments
  // unify with its inputs, so it builds the same ops at the caller's sizes.
  while (!tok.is(TokenKind::RBrace))
    if (failed(parseStatement()))
      return failure();
  SmallVector<TensorRef> outputs;
  for (const TensorSpec &spec : def.outputs)
    outputs.push_back(scope.lookup(spec.name));
  return outputs;
}

LogicalResult Parser::parseMultipleAssignment(const Token &first) {
  SmallVector<Token> targets = {first};
  while (consumeIf(TokenKind::Comma)) {
    Token t = tok;
    if (failed(identifier("after ',' in an assignment")))
      return failure();
    targets.push_back(t);
  }
  for (const Token &t : targets)
    if (failed(checkAssignable(t)))
      return failure();
  if (failed(expect(TokenKind::Assign, "after the names in an assignment")))
    return failure();
  if (atScan())
    return parseScan(targets);
  if (atWhile())
    return parseWhile(targets);
  Token callee = tok;
  Lexer probe = lexer;
  if (!tok.is(TokenKind::Identifier) || !probe.next().is(TokenKind::LParen))
    return error() << "several names take the outputs of grad(y, [...]) or "
                      "of a call of a function of this file: a, b = f(x)";
  consume();
  if (callee.text == "grad" && !functions.count(callee.text)) {
    bool isList = false;
    FailureOr<SmallVector<TensorRef>> grads = parseGradCall(callee, isList);
    if (failed(grads))
      return failure();
    if (grads->size() != targets.size())
      return emitError(locOf(first.loc()))
             << targets.size() << " names for the " << grads->size()
             << " gradients of grad";
    for (auto [t, g] : llvm::zip(targets, *grads))
      scope[t.text] = g;
    return success();
  }
  if (!functions.count(callee.text)) {
    if (std::optional<LogicalResult> reported = reportUndefinedFunction(callee))
      return failure();
    return emitError(locOf(callee.loc()))
           << "several names take the outputs of a call of a function of "
              "this file; '"
           << callee.text << "' is not one";
  }
  FailureOr<SmallVector<TensorRef>> outputs = parseFunctionCall(callee);
  if (failed(outputs))
    return failure();
  if (outputs->size() != targets.size())
    return emitError(locOf(callee.loc()))
           << "function '" << callee.text << "' has " << outputs->size()
           << " output" << (outputs->size() == 1 ? "" : "s") << ", but "
           << targets.size() << " names take them";
  for (auto [t, value] : llvm::zip(targets, *outputs))
    scope[t.text] = value;
  return success();
}
