//===- Parser.cpp - graph files (.tg) to the tc dialect -------------------===//
//
// A recursive-descent parser (grammar in docs/graph-format.md) that emits
// through GraphBuilder as it goes. Nesting depth is bounded so that no input
// can exhaust the stack.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Parser.h"
#include "compiler/frontend/Expr.h"
#include "compiler/frontend/Lexer.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using tc::Dim;
using tc::Shape;

namespace {

/// Deeper nesting than this is reported instead of recursed into.
constexpr unsigned kMaxNesting = 256;

class Parser {
public:
  Parser(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : sourceMgr(sourceMgr), context(context),
        lexer(
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer()),
        builder(context,
                locOf(llvm::SMLoc::getFromPointer(
                    sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                        ->getBufferStart()))) {
    tok = lexer.next();
  }

  OwningOpRef<ModuleOp> parse();

private:
  // Tokens and diagnostics.
  Location locOf(llvm::SMLoc loc) {
    auto [line, col] = sourceMgr.getLineAndColumn(loc);
    StringRef file = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                         ->getBufferIdentifier();
    return FileLineColLoc::get(context, file, line, col);
  }
  Location here() { return locOf(tok.loc()); }
  InFlightDiagnostic error() { return emitError(here()); }
  Token consume() {
    Token t = tok;
    tok = lexer.next();
    return t;
  }
  bool consumeIf(TokenKind kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }
  LogicalResult expect(TokenKind kind, StringRef context) {
    if (consumeIf(kind))
      return success();
    return unexpected(describe(kind), context);
  }
  LogicalResult unexpected(StringRef wanted, StringRef context) {
    auto diag = error() << "expected " << wanted << " " << context;
    if (tok.is(TokenKind::Error))
      diag << ", found invalid text '" << tok.text << "'";
    else if (tok.is(TokenKind::Eof))
      diag << ", found the end of the file";
    else
      diag << ", found '" << tok.text << "'";
    return failure();
  }
  FailureOr<std::string> identifier(StringRef context) {
    if (!tok.is(TokenKind::Identifier))
      return unexpected("a name", context);
    return consume().text.str();
  }

  // Declarations.
  LogicalResult parseHeader();
  LogicalResult parseShared();
  LogicalResult parseFunction();
  FailureOr<TensorSpec> parseSpec(bool isOutput);
  LogicalResult parseType(Type &elementType, Shape &shape, bool allowSymbols);
  FailureOr<DictionaryAttr> parseInitParams(tc::InitKind kind);

  // Function bodies.
  LogicalResult parseStatement();
  LogicalResult parseUpdates(std::vector<std::pair<std::string, TensorRef>> &,
                             SmallVectorImpl<Location> &locs);

  // Expressions.
  FailureOr<Operand> parseExpr();
  FailureOr<Operand> parseComparison();
  FailureOr<Operand> parseAdditive();
  FailureOr<Operand> parseMultiplicative();
  FailureOr<Operand> parseUnary();
  FailureOr<Operand> parsePrimary();
  FailureOr<Operand> parseCall(const Token &name);
  FailureOr<AttrValue> parseAttrValue();
  FailureOr<Operand> lookup(const Token &name);
  FailureOr<Operand> combine(Location loc, TokenKind op, Operand lhs,
                             Operand rhs);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  Lexer lexer;
  Token tok;
  GraphBuilder builder;
  unsigned depth = 0;

  // The function being parsed.
  llvm::StringMap<TensorRef> scope;
  llvm::StringSet<> inputNames;
  llvm::StringSet<> symbols;
};

OwningOpRef<ModuleOp> Parser::parse() {
  if (failed(parseHeader()))
    return nullptr;
  while (!tok.is(TokenKind::Eof)) {
    LogicalResult result = failure();
    if (tok.isKeyword("shared"))
      result = parseShared();
    else if (tok.isKeyword("func"))
      result = parseFunction();
    else
      result = unexpected("'shared' or 'func'", "at the top level");
    if (failed(result))
      return nullptr;
  }
  return builder.finish();
}

LogicalResult Parser::parseHeader() {
  if (!tok.isKeyword("tg"))
    return error() << "a graph file starts with the line 'tg 1'";
  consume();
  if (!tok.is(TokenKind::Integer))
    return unexpected("the format version", "after 'tg'");
  if (tok.text != "1")
    return error() << "unsupported graph format version " << tok.text
                   << " (this tcc reads version 1)";
  consume();
  return success();
}

LogicalResult Parser::parseType(Type &elementType, Shape &shape,
                                bool allowSymbols) {
  if (!tok.is(TokenKind::Identifier))
    return unexpected("a dtype (f16, bf16, f32, f64, i32, i64, bool)",
                      "in the type");
  elementType = parseElementType(context, tok.text);
  if (!elementType)
    return error() << "unknown dtype '" << tok.text
                   << "' (expected f16, bf16, f32, f64, i32, i64 or bool)";
  consume();
  if (failed(expect(TokenKind::LBracket, "after the dtype (f32[] is a "
                                         "scalar)")))
    return failure();
  shape.clear();
  if (consumeIf(TokenKind::RBracket))
    return success();
  do {
    if (tok.is(TokenKind::Integer)) {
      int64_t size;
      if (tok.text.getAsInteger(10, size) || size < 0)
        return error() << "dimension " << tok.text << " is too large";
      shape.push_back(Dim::fixed(size));
      consume();
    } else if (tok.is(TokenKind::Identifier)) {
      if (!allowSymbols)
        return error() << "a shared variable needs a static shape; '"
                       << tok.text << "' is symbolic";
      shape.push_back(Dim::dynamic(tok.text));
      symbols.insert(tok.text);
      consume();
    } else {
      return unexpected("a dimension size or name", "in the shape");
    }
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBracket, "to close the shape");
}

FailureOr<DictionaryAttr> Parser::parseInitParams(tc::InitKind kind) {
  Builder b(context);
  NamedAttrList params;
  if (!consumeIf(TokenKind::LParen))
    return DictionaryAttr();
  if (consumeIf(TokenKind::RParen))
    return params.getDictionary(context);
  do {
    Location at = here();
    std::string key;
    // npy("path") and fill(2.5) may omit the keyword.
    if (tok.is(TokenKind::Identifier)) {
      key = consume().text.str();
      if (failed(expect(TokenKind::Assign, "after the parameter name")))
        return failure();
    } else if (kind == tc::InitKind::Npy) {
      key = "path";
    } else if (kind == tc::InitKind::Fill) {
      key = "value";
    } else {
      return unexpected("a parameter name", "in the initializer");
    }
    if (params.get(key))
      return emitError(at) << "parameter '" << key << "' is given twice";
    FailureOr<AttrValue> value = parseAttrValue();
    if (failed(value))
      return failure();
    Attribute attr;
    if (key == "seed" && value->kind == AttrValue::Kind::Integer) {
      attr = b.getI64IntegerAttr(value->integer);
    } else if (value->kind == AttrValue::Kind::Integer ||
               value->kind == AttrValue::Kind::Float) {
      attr = b.getF64FloatAttr(value->kind == AttrValue::Kind::Integer
                                   ? (double)value->integer
                                   : value->number);
    } else if (value->kind == AttrValue::Kind::String) {
      // A path is relative to the graph file.
      StringRef file = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                           ->getBufferIdentifier();
      llvm::SmallString<256> path(value->text);
      if (!llvm::sys::path::is_absolute(path)) {
        path = llvm::sys::path::parent_path(file);
        llvm::sys::path::append(path, value->text);
      }
      if (!llvm::sys::fs::exists(path))
        return emitError(value->loc) << "file '" << path << "' does not exist";
      attr = b.getStringAttr(path);
    } else {
      return emitError(value->loc)
             << "parameter '" << key << "' must be a number or a string";
    }
    params.append(key, attr);
  } while (consumeIf(TokenKind::Comma));
  if (failed(expect(TokenKind::RParen, "to close the initializer")))
    return failure();
  return params.getDictionary(context);
}

LogicalResult Parser::parseShared() {
  Location loc = here();
  consume(); // shared
  FailureOr<std::string> name = identifier("after 'shared'");
  if (failed(name) || failed(expect(TokenKind::Colon, "after the name")))
    return failure();
  Type elementType;
  Shape shape;
  if (failed(parseType(elementType, shape, /*allowSymbols=*/false)) ||
      failed(expect(TokenKind::Assign, "before the initializer")))
    return failure();
  Location initLoc = here();
  FailureOr<std::string> initName = identifier("as the initializer");
  if (failed(initName))
    return failure();
  std::optional<tc::InitKind> kind = tc::symbolizeInitKind(*initName);
  if (!kind)
    return emitError(initLoc)
           << "unknown initializer '" << *initName
           << "' (expected zeros, ones, fill, uniform, normal or npy)";
  FailureOr<DictionaryAttr> params = parseInitParams(*kind);
  if (failed(params))
    return failure();
  DictionaryAttr dict = *params;
  if (dict && dict.empty())
    dict = DictionaryAttr();
  return builder.declareShared(loc, *name, elementType, tc::sizesOf(shape),
                               *kind, dict);
}

FailureOr<TensorSpec> Parser::parseSpec(bool isOutput) {
  TensorSpec spec{"", Type(), {}, false, false, here()};
  FailureOr<std::string> name =
      identifier(isOutput ? "as an output name" : "as an input name");
  if (failed(name) || failed(expect(TokenKind::Colon, "after the name")) ||
      failed(parseType(spec.elementType, spec.shape, /*allowSymbols=*/true)))
    return failure();
  spec.name = *name;
  while (tok.is(TokenKind::Identifier)) {
    if (tok.text == "borrow")
      spec.borrow = true;
    else if (isOutput && tok.text == "internal")
      spec.returnInternalType = true;
    else
      return error() << "unknown flag '" << tok.text << "' (expected "
                     << (isOutput ? "borrow or internal" : "borrow") << ")";
    consume();
  }
  return spec;
}

LogicalResult Parser::parseFunction() {
  consume(); // func
  Location loc = here();
  FailureOr<std::string> name = identifier("after 'func'");
  if (failed(name) ||
      failed(expect(TokenKind::LParen, "to open the input list")))
    return failure();
  symbols.clear();
  SmallVector<TensorSpec> inputs, outputs;
  if (!tok.is(TokenKind::RParen)) {
    do {
      FailureOr<TensorSpec> spec = parseSpec(false);
      if (failed(spec))
        return failure();
      inputs.push_back(*spec);
    } while (consumeIf(TokenKind::Comma));
  }
  if (failed(expect(TokenKind::RParen, "to close the input list")) ||
      failed(expect(TokenKind::Arrow, "before the outputs")) ||
      failed(expect(TokenKind::LParen, "to open the output list")))
    return failure();
  if (!tok.is(TokenKind::RParen)) {
    do {
      FailureOr<TensorSpec> spec = parseSpec(true);
      if (failed(spec))
        return failure();
      outputs.push_back(*spec);
    } while (consumeIf(TokenKind::Comma));
  }
  if (failed(expect(TokenKind::RParen, "to close the output list")) ||
      failed(expect(TokenKind::LBrace, "to open the function body")))
    return failure();
  FailureOr<SmallVector<TensorRef>> args =
      builder.beginFunction(loc, *name, inputs, outputs);
  if (failed(args))
    return failure();
  scope.clear();
  inputNames.clear();
  for (auto [spec, arg] : llvm::zip(inputs, *args)) {
    scope[spec.name] = arg;
    inputNames.insert(spec.name);
  }
  std::vector<std::pair<std::string, TensorRef>> updates;
  SmallVector<Location> updateLocs;
  while (!tok.is(TokenKind::RBrace)) {
    if (tok.isKeyword("updates")) {
      if (failed(parseUpdates(updates, updateLocs)))
        return failure();
      if (!tok.is(TokenKind::RBrace))
        return error() << "the updates block must end the function body";
      break;
    }
    if (tok.is(TokenKind::Eof))
      return unexpected("'}'", "to close the function body");
    if (failed(parseStatement()))
      return failure();
  }
  Location end = here();
  consume(); // }
  SmallVector<TensorRef> results;
  for (const TensorSpec &spec : outputs) {
    auto it = scope.find(spec.name);
    if (it == scope.end() || inputNames.contains(spec.name))
      return emitError(spec.loc)
             << "output '" << spec.name << "' is never assigned";
    results.push_back(it->second);
  }
  return builder.endFunction(end, results, updates, updateLocs);
}

LogicalResult Parser::parseStatement() {
  Token name = tok;
  FailureOr<std::string> target = identifier("to start a statement");
  if (failed(target))
    return failure();
  if (inputNames.contains(*target))
    return emitError(locOf(name.loc()))
           << "cannot assign to input '" << *target
           << "'; inputs are read-only names (use a new name)";
  if (builder.hasShared(*target))
    return emitError(locOf(name.loc()))
           << "'" << *target
           << "' is a shared variable; assign it in the 'updates' block";
  if (failed(expect(TokenKind::Assign, "after the name in an assignment")))
    return failure();
  FailureOr<Operand> value = parseExpr();
  if (failed(value))
    return failure();
  if (value->isLiteral())
    return emitError(value->loc)
           << "cannot tell the dtype of '" << *target
           << "': a literal alone has none (use it with a tensor)";
  scope[*target] = value->tensor;
  return success();
}

LogicalResult
Parser::parseUpdates(std::vector<std::pair<std::string, TensorRef>> &updates,
                     SmallVectorImpl<Location> &locs) {
  consume(); // updates
  if (failed(expect(TokenKind::LBrace, "after 'updates'")))
    return failure();
  while (!consumeIf(TokenKind::RBrace)) {
    Location at = here();
    FailureOr<std::string> name = identifier("to name a shared variable");
    if (failed(name))
      return failure();
    if (!builder.hasShared(*name))
      return emitError(at) << "'" << *name
                           << "' is not a shared variable and cannot be "
                              "updated";
    if (failed(expect(TokenKind::Assign, "after the variable")))
      return failure();
    FailureOr<Operand> value = parseExpr();
    if (failed(value))
      return failure();
    TensorRef current = builder.readShared(at, *name);
    TensorRef t = materialize(builder, *value, current.elementType());
    if (!t)
      return failure();
    updates.emplace_back(*name, t);
    locs.push_back(at);
  }
  return success();
}

FailureOr<Operand> Parser::parseExpr() {
  if (++depth > kMaxNesting) {
    --depth;
    return error() << "expression nested more than " << kMaxNesting
                   << " levels deep";
  }
  FailureOr<Operand> result = parseComparison();
  --depth;
  return result;
}

FailureOr<Operand> Parser::parseComparison() {
  FailureOr<Operand> lhs = parseAdditive();
  if (failed(lhs))
    return failure();
  switch (tok.kind) {
  case TokenKind::EqEq:
  case TokenKind::NotEq:
  case TokenKind::Less:
  case TokenKind::LessEq:
  case TokenKind::Greater:
  case TokenKind::GreaterEq: {
    Token op = consume();
    FailureOr<Operand> rhs = parseAdditive();
    if (failed(rhs))
      return failure();
    return combine(locOf(op.loc()), op.kind, *lhs, *rhs);
  }
  default:
    return lhs;
  }
}

FailureOr<Operand> Parser::parseAdditive() {
  FailureOr<Operand> lhs = parseMultiplicative();
  while (succeeded(lhs) &&
         (tok.is(TokenKind::Plus) || tok.is(TokenKind::Minus))) {
    Token op = consume();
    FailureOr<Operand> rhs = parseMultiplicative();
    if (failed(rhs))
      return failure();
    lhs = combine(locOf(op.loc()), op.kind, *lhs, *rhs);
  }
  return lhs;
}

FailureOr<Operand> Parser::parseMultiplicative() {
  FailureOr<Operand> lhs = parseUnary();
  while (succeeded(lhs) &&
         (tok.is(TokenKind::Star) || tok.is(TokenKind::Slash))) {
    Token op = consume();
    FailureOr<Operand> rhs = parseUnary();
    if (failed(rhs))
      return failure();
    lhs = combine(locOf(op.loc()), op.kind, *lhs, *rhs);
  }
  return lhs;
}

FailureOr<Operand> Parser::parseUnary() {
  if (tok.is(TokenKind::Minus)) {
    Token op = consume();
    if (++depth > kMaxNesting)
      return error() << "expression nested more than " << kMaxNesting
                     << " levels deep";
    FailureOr<Operand> operand = parseUnary();
    --depth;
    if (failed(operand))
      return failure();
    Location loc = locOf(op.loc());
    if (operand->isLiteral()) {
      operand->literal = -*operand->literal;
      operand->loc = loc;
      return operand;
    }
    TensorRef t = builder.unary(loc, UnaryKind::Neg, operand->tensor);
    if (!t)
      return failure();
    return Operand{t, std::nullopt, false, false, loc};
  }
  FailureOr<Operand> base = parsePrimary();
  if (failed(base) || !tok.is(TokenKind::StarStar))
    return base;
  // `a ** -b` binds tighter than unary minus on the left: -x**2 = -(x**2).
  Token op = consume();
  if (++depth > kMaxNesting)
    return error() << "expression nested more than " << kMaxNesting
                   << " levels deep";
  FailureOr<Operand> exponent = parseUnary();
  --depth;
  if (failed(exponent))
    return failure();
  return combine(locOf(op.loc()), TokenKind::StarStar, *base, *exponent);
}

FailureOr<Operand> Parser::parsePrimary() {
  Location loc = here();
  switch (tok.kind) {
  case TokenKind::Integer:
  case TokenKind::Float: {
    Token t = consume();
    double value;
    if (t.text.getAsDouble(value))
      return emitError(loc) << "invalid number '" << t.text << "'";
    return Operand{{}, value, t.is(TokenKind::Integer), false, loc};
  }
  case TokenKind::LParen: {
    consume();
    FailureOr<Operand> inner = parseExpr();
    if (failed(inner) ||
        failed(expect(TokenKind::RParen, "to close the parenthesis")))
      return failure();
    return inner;
  }
  case TokenKind::Identifier: {
    Token name = consume();
    if (name.text == "true" || name.text == "false")
      return Operand{{}, name.text == "true" ? 1.0 : 0.0, true, true, loc};
    if (tok.is(TokenKind::LParen))
      return parseCall(name);
    return lookup(name);
  }
  default:
    return unexpected("an expression", "here");
  }
}

FailureOr<Operand> Parser::lookup(const Token &name) {
  Location loc = locOf(name.loc());
  auto it = scope.find(name.text);
  if (it != scope.end())
    return Operand{it->second, std::nullopt, false, false, loc};
  if (builder.hasShared(name.text)) {
    TensorRef t = builder.readShared(loc, name.text);
    return Operand{t, std::nullopt, false, false, loc};
  }
  if (symbols.contains(name.text))
    return emitError(loc) << "'" << name.text
                          << "' is a dimension, not a tensor";
  return emitError(loc) << "unknown name '" << name.text << "'";
}

FailureOr<Operand> Parser::parseCall(const Token &name) {
  CallSite call{name.text.str(), locOf(name.loc()), {}, {}, &symbols};
  consume(); // (
  if (++depth > kMaxNesting)
    return error() << "expression nested more than " << kMaxNesting
                   << " levels deep";
  auto restore = llvm::make_scope_exit([&] { --depth; });
  if (!consumeIf(TokenKind::RParen)) {
    do {
      // `key=value` is a keyword argument; `key == value` is an expression.
      if (tok.is(TokenKind::Identifier)) {
        Lexer probe = lexer;
        Token afterName = probe.next();
        if (afterName.is(TokenKind::Assign)) {
          std::string key = consume().text.str();
          consume(); // =
          for (const auto &kw : call.kwargs)
            if (kw.first == key)
              return error()
                     << "keyword argument '" << key << "' is given twice";
          FailureOr<AttrValue> value = parseAttrValue();
          if (failed(value))
            return failure();
          call.kwargs.emplace_back(key, *value);
          continue;
        }
      }
      if (!call.kwargs.empty())
        return error() << "positional arguments must come before keyword "
                          "arguments";
      FailureOr<Operand> arg = parseExpr();
      if (failed(arg))
        return failure();
      call.args.push_back(*arg);
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RParen, "to close the argument list")))
      return failure();
  }
  TensorRef t = emitCall(builder, call);
  if (!t)
    return failure();
  return Operand{t, std::nullopt, false, false, call.loc};
}

FailureOr<AttrValue> Parser::parseAttrValue() {
  AttrValue v{here()};
  bool negative = consumeIf(TokenKind::Minus);
  if (tok.is(TokenKind::Integer)) {
    if (consume().text.getAsInteger(10, v.integer))
      return emitError(v.loc) << "integer is too large";
    v.kind = AttrValue::Kind::Integer;
    v.integer = negative ? -v.integer : v.integer;
    return v;
  }
  if (tok.is(TokenKind::Float)) {
    if (consume().text.getAsDouble(v.number))
      return emitError(v.loc) << "invalid number";
    v.kind = AttrValue::Kind::Float;
    v.number = negative ? -v.number : v.number;
    return v;
  }
  if (negative)
    return unexpected("a number", "after '-'");
  if (tok.is(TokenKind::Identifier)) {
    v.text = consume().text.str();
    v.kind = v.text == "true" || v.text == "false" ? AttrValue::Kind::Bool
                                                   : AttrValue::Kind::Name;
    v.boolean = v.text == "true";
    return v;
  }
  if (tok.is(TokenKind::String)) {
    StringRef text = consume().text;
    v.kind = AttrValue::Kind::String;
    v.text = text.drop_front().drop_back().str();
    return v;
  }
  if (consumeIf(TokenKind::LBracket)) {
    v.kind = AttrValue::Kind::List;
    if (consumeIf(TokenKind::RBracket))
      return v;
    do {
      // Lists hold scalars only: no nesting to bound.
      if (tok.is(TokenKind::LBracket))
        return error() << "lists cannot be nested here";
      FailureOr<AttrValue> e = parseAttrValue();
      if (failed(e))
        return failure();
      v.list.push_back(*e);
    } while (consumeIf(TokenKind::Comma));
    if (failed(expect(TokenKind::RBracket, "to close the list")))
      return failure();
    return v;
  }
  if (tok.is(TokenKind::Error) && tok.text.starts_with("\""))
    return error() << "unterminated string";
  return unexpected("a value", "for the keyword argument");
}

/// Applies a binary operator to two literals at parse time.
static std::optional<double> foldLiterals(TokenKind op, double a, double b) {
  switch (op) {
  case TokenKind::Plus:
    return a + b;
  case TokenKind::Minus:
    return a - b;
  case TokenKind::Star:
    return a * b;
  case TokenKind::Slash:
    return a / b;
  case TokenKind::StarStar:
    return std::pow(a, b);
  default:
    return std::nullopt;
  }
}

FailureOr<Operand> Parser::combine(Location loc, TokenKind op, Operand lhs,
                                   Operand rhs) {
  if (lhs.isLiteral() && rhs.isLiteral()) {
    std::optional<double> folded = foldLiterals(op, *lhs.literal, *rhs.literal);
    if (!folded)
      return emitError(loc) << "comparison of two literals; compare a tensor";
    bool integral = lhs.integral && rhs.integral && op != TokenKind::Slash;
    return Operand{{}, *folded, integral, false, loc};
  }
  Type dtype =
      lhs.isLiteral() ? rhs.tensor.elementType() : lhs.tensor.elementType();
  TensorRef a = materialize(builder, lhs, dtype);
  TensorRef b = materialize(builder, rhs, dtype);
  if (!a || !b)
    return failure();
  TensorRef result;
  switch (op) {
  case TokenKind::Plus:
    result = builder.binary(loc, BinaryKind::Add, a, b);
    break;
  case TokenKind::Minus:
    result = builder.binary(loc, BinaryKind::Sub, a, b);
    break;
  case TokenKind::Star:
    result = builder.binary(loc, BinaryKind::Mul, a, b);
    break;
  case TokenKind::Slash:
    result = builder.binary(loc, BinaryKind::Div, a, b);
    break;
  case TokenKind::StarStar:
    result = builder.binary(loc, BinaryKind::Pow, a, b);
    break;
  case TokenKind::EqEq:
    result = builder.compare(loc, tc::ComparePredicate::eq, a, b);
    break;
  case TokenKind::NotEq:
    result = builder.compare(loc, tc::ComparePredicate::ne, a, b);
    break;
  case TokenKind::Less:
    result = builder.compare(loc, tc::ComparePredicate::lt, a, b);
    break;
  case TokenKind::LessEq:
    result = builder.compare(loc, tc::ComparePredicate::le, a, b);
    break;
  case TokenKind::Greater:
    result = builder.compare(loc, tc::ComparePredicate::gt, a, b);
    break;
  case TokenKind::GreaterEq:
    result = builder.compare(loc, tc::ComparePredicate::ge, a, b);
    break;
  default:
    return emitError(loc) << "unexpected operator";
  }
  if (!result)
    return failure();
  return Operand{result, std::nullopt, false, false, loc};
}

} // namespace

OwningOpRef<ModuleOp> frontend::parseGraphFile(llvm::SourceMgr &sourceMgr,
                                               MLIRContext *context) {
  Parser parser(sourceMgr, context);
  return parser.parse();
}
