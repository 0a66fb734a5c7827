//===- ExprParser.cpp - expressions of graph files ------------------------===//
//
// Expressions, calls and keyword values of the recursive-descent parser.
// Literals fold as they are combined (Expr.cpp); a literal meets a dtype
// only next to a tensor. Nesting depth is bounded so that no input can
// exhaust the stack: each parenthesis, call, unary minus and right side of
// '**' is one level.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"
#include "compiler/frontend/Suggest.h"

#include <limits>

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;

FailureOr<Operand> Parser::parseExpr() {
  Nesting level(depth);
  if (level.tooDeep())
    return tooDeep();
  return parseComparison();
}

FailureOr<Operand> Parser::parseComparison() {
  FailureOr<Operand> lhs = parseOr();
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
    FailureOr<Operand> rhs = parseOr();
    if (failed(rhs))
      return failure();
    return combine(op, *lhs, *rhs);
  }
  default:
    return lhs;
  }
}

// As in Python, '|', '^' and '&' (loosest first) bind tighter than
// comparisons and looser than arithmetic: `(x > 0) & (y > 0)` needs its
// parentheses.
FailureOr<Operand>
Parser::parseLogicalLevel(TokenKind kind,
                          FailureOr<Operand> (Parser::*next)()) {
  FailureOr<Operand> lhs = (this->*next)();
  while (succeeded(lhs) && tok.is(kind)) {
    Token op = consume();
    FailureOr<Operand> rhs = (this->*next)();
    if (failed(rhs))
      return failure();
    lhs = combineLogical(op, *lhs, *rhs);
  }
  return lhs;
}

FailureOr<Operand> Parser::parseOr() {
  return parseLogicalLevel(TokenKind::Pipe, &Parser::parseXor);
}

FailureOr<Operand> Parser::parseXor() {
  return parseLogicalLevel(TokenKind::Caret, &Parser::parseAnd);
}

FailureOr<Operand> Parser::parseAnd() {
  return parseLogicalLevel(TokenKind::Amp, &Parser::parseAdditive);
}

FailureOr<Operand> Parser::parseAdditive() {
  FailureOr<Operand> lhs = parseMultiplicative();
  while (succeeded(lhs) &&
         (tok.is(TokenKind::Plus) || tok.is(TokenKind::Minus))) {
    Token op = consume();
    FailureOr<Operand> rhs = parseMultiplicative();
    if (failed(rhs))
      return failure();
    lhs = combine(op, *lhs, *rhs);
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
    lhs = combine(op, *lhs, *rhs);
  }
  return lhs;
}

/// What to write instead of '&', '|', '^' or '~' on numbers.
static constexpr StringLiteral kOperatorHint =
    "they are logical operators, and as in Python they bind tighter than "
    "comparisons: write (x > 0) & (y < 1)";
/// '^' on numbers is more likely a power.
static constexpr StringLiteral kCaretHint =
    "it is the logical xor of bools (for a power write x ** 2; as in Python "
    "it binds tighter than comparisons: write (x > 0) ^ (y < 1))";

FailureOr<Operand> Parser::parseUnary() {
  if (tok.is(TokenKind::Tilde)) {
    Token op = consume();
    Nesting level(depth);
    if (level.tooDeep())
      return tooDeep();
    FailureOr<Operand> operand = parseUnary();
    if (failed(operand))
      return failure();
    Location loc = locOf(op.loc());
    StringRef source = span(op.text, operand->source);
    if (operand->isLiteral()) {
      if (operand->literal->kind != Literal::Kind::Bool)
        return emitError(loc) << "'~' needs a bool operand, got the literal "
                              << operand->source << "; " << kOperatorHint;
      Literal negated = Literal::ofBool(!operand->literal->boolean);
      negated.folded = true;
      return Operand::ofLiteral(negated, loc, source);
    }
    TensorRef t = builder.logicalNot(loc, operand->tensor, "'~'",
                                     "it is the logical not; write x == 0 "
                                     "for numbers, or ~(x > 0)");
    if (!t)
      return failure();
    return Operand::ofTensor(t, loc, source);
  }
  if (tok.is(TokenKind::Minus)) {
    Token op = consume();
    Nesting level(depth);
    if (level.tooDeep())
      return tooDeep();
    FailureOr<Operand> operand = parseUnary();
    if (failed(operand))
      return failure();
    Location loc = locOf(op.loc());
    StringRef source = span(op.text, operand->source);
    if (operand->isLiteral()) {
      FailureOr<Literal> negated = negate(loc, *operand->literal);
      if (failed(negated))
        return failure();
      return Operand::ofLiteral(*negated, loc, source);
    }
    TensorRef t = builder.unary(loc, UnaryKind::Neg, operand->tensor);
    if (!t)
      return failure();
    return Operand::ofTensor(t, loc, source);
  }
  FailureOr<Operand> base = parsePrimary();
  if (succeeded(base) && failed(rejectAttribute(*base)))
    return failure();
  if (failed(base) || !tok.is(TokenKind::StarStar))
    return base;
  // `a ** -b` binds tighter than unary minus on the left: -x**2 = -(x**2).
  Token op = consume();
  Nesting level(depth);
  if (level.tooDeep())
    return tooDeep();
  FailureOr<Operand> exponent = parseUnary();
  if (failed(exponent))
    return failure();
  return combine(op, *base, *exponent);
}

FailureOr<Operand> Parser::parseAtom() {
  Location loc = here();
  switch (tok.kind) {
  case TokenKind::Integer:
  case TokenKind::Float: {
    Token t = consume();
    FailureOr<Literal> value =
        parseNumber(loc, t.text, t.is(TokenKind::Integer));
    if (failed(value))
      return failure();
    return Operand::ofLiteral(*value, loc, t.text);
  }
  case TokenKind::BadNumber:
    return error() << describeBadNumber(tok.text, /*inExpression=*/true);
  case TokenKind::LParen: {
    Token open = consume();
    FailureOr<Operand> inner = parseExpr();
    if (failed(inner))
      return failure();
    Token close = tok;
    if (failed(expect(TokenKind::RParen, "to close the parenthesis")))
      return failure();
    inner->source = span(open.text, close.text);
    return inner;
  }
  case TokenKind::Identifier: {
    Token name = consume();
    if (name.text == "true" || name.text == "false")
      return Operand::ofLiteral(Literal::ofBool(name.text == "true"), loc,
                                name.text);
    if (tok.is(TokenKind::LParen))
      return parseCall(name);
    if (failed(rejectTensorIndex(name)))
      return failure();
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
    return Operand::ofTensor(it->second, loc, name.text);
  if (builder.hasShared(name.text)) {
    TensorRef t = builder.readShared(loc, name.text);
    return Operand::ofTensor(t, loc, name.text);
  }
  if (symbols.contains(name.text))
    return emitError(loc) << "'" << name.text
                          << "' is a dimension, not a tensor";
  // inf and nan are float literals unless a tensor takes the name.
  if (name.text == "inf" || name.text == "nan")
    return Operand::ofLiteral(
        Literal::ofFloat(name.text == "inf"
                             ? std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN()),
        loc, name.text);
  SmallVector<StringRef> names;
  for (const auto &entry : scope)
    names.push_back(entry.getKey());
  llvm::sort(names);
  return emitError(loc) << "unknown name '" << name.text << "'"
                        << didYouMean(name.text, names);
}

FailureOr<Operand> Parser::parseCall(const Token &name) {
  if (name.text == "grad" && !functions.count(name.text)) {
    bool isList = false;
    FailureOr<SmallVector<TensorRef>> grads = parseGradCall(name, isList);
    if (failed(grads))
      return failure();
    if (grads->size() != 1)
      return emitError(locOf(name.loc()))
             << "grad with respect to " << grads->size() << " values gives "
             << grads->size()
             << " gradients; assign them to as many names: ga, gb = grad(y, "
                "[a, b])";
    return Operand::ofTensor(grads->front(), locOf(name.loc()), name.text);
  }
  if (functions.count(name.text))
    return parseFunctionCallExpr(name);
  if (reportUndefinedFunction(name))
    return failure();
  if (name.text == "scan")
    return emitError(locOf(name.loc()))
           << "scan is a statement of its own, not part of an expression: "
              "write 'hT, hs = scan(h = h0, x in xs) { ... return ... }'";
  if (name.text == "while")
    return emitError(locOf(name.loc()))
           << "while is a statement of its own, not part of an expression: "
              "write 'xT, n = while(x = x0, max_steps=50, cond=...) { ... "
              "return ... }'";
  if (takesShapeArguments(name.text))
    return parseConstructorCall(name);
  CallSite call{name.text.str(), locOf(name.loc()), {}, {}, &symbols};
  if (!callStack.empty())
    call.bindings = &bindings;
  consume(); // (
  // The call is one level; its arguments are parsed inside it.
  Nesting level(depth);
  if (level.tooDeep())
    return tooDeep();
  Token close = tok;
  if (!consumeIf(TokenKind::RParen)) {
    while (true) {
      // `key=value` is a keyword argument; `key == value` is an expression.
      Lexer probe = lexer;
      if (tok.is(TokenKind::Identifier) && probe.next().is(TokenKind::Assign)) {
        Location keyLoc = here();
        std::string key = consume().text.str();
        consume(); // =
        for (const auto &kw : call.kwargs)
          if (kw.first == key)
            return emitError(keyLoc)
                   << "keyword argument '" << key << "' is given twice";
        for (const auto &kw : call.expressionKwargs)
          if (kw.first == key)
            return emitError(keyLoc)
                   << "keyword argument '" << key << "' is given twice";
        if (takesExpressionKeyword(call.name, key)) {
          FailureOr<Operand> value = parseComparison();
          if (failed(value))
            return failure();
          call.expressionKwargs.emplace_back(key, *value);
        } else {
          FailureOr<AttrValue> value = parseAttrValue();
          if (failed(value))
            return failure();
          call.kwargs.emplace_back(key, *value);
        }
      } else {
        if (!call.kwargs.empty())
          return error() << "positional arguments must come before keyword "
                            "arguments";
        FailureOr<Operand> arg = parseComparison();
        if (failed(arg))
          return failure();
        call.args.push_back(*arg);
      }
      if (!consumeIf(TokenKind::Comma))
        break;
      if (tok.is(TokenKind::RParen))
        return unexpected("an argument", "after ','");
    }
    close = tok;
    if (failed(expect(TokenKind::RParen, "to close the argument list")))
      return failure();
  }
  StringRef source = span(name.text, close.text);
  if (std::optional<FailureOr<Literal>> folded = foldCall(call, source)) {
    if (failed(*folded))
      return failure();
    return Operand::ofLiteral(**folded, call.loc, source);
  }
  TensorRef t = emitCall(builder, call);
  if (!t)
    return failure();
  return Operand::ofTensor(t, call.loc, source);
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
    Token t = consume();
    FailureOr<Literal> value = parseNumber(locOf(t.loc()), t.text, false);
    if (failed(value))
      return failure();
    v.kind = AttrValue::Kind::Float;
    v.number = negative ? -value->number : value->number;
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
      // A product of dimensions (`B*T`): a flat list of factors.
      if (tok.is(TokenKind::Star)) {
        AttrValue product{e->loc};
        product.kind = AttrValue::Kind::Product;
        product.list.push_back(*e);
        while (consumeIf(TokenKind::Star)) {
          if (tok.is(TokenKind::LBracket))
            return error() << "lists cannot be nested here";
          FailureOr<AttrValue> f = parseAttrValue();
          if (failed(f))
            return failure();
          product.list.push_back(*f);
        }
        e = product;
      }
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

/// The arithmetic an operator token stands for; none for a comparison.
static std::optional<BinaryKind> arithmeticOf(TokenKind op) {
  switch (op) {
  case TokenKind::Plus:
    return BinaryKind::Add;
  case TokenKind::Minus:
    return BinaryKind::Sub;
  case TokenKind::Star:
    return BinaryKind::Mul;
  case TokenKind::Slash:
    return BinaryKind::Div;
  case TokenKind::StarStar:
    return BinaryKind::Pow;
  default:
    return std::nullopt;
  }
}

/// The predicate a comparison token stands for.
static tc::ComparePredicate predicateOf(TokenKind op) {
  switch (op) {
  case TokenKind::EqEq:
    return tc::ComparePredicate::eq;
  case TokenKind::NotEq:
    return tc::ComparePredicate::ne;
  case TokenKind::Less:
    return tc::ComparePredicate::lt;
  case TokenKind::LessEq:
    return tc::ComparePredicate::le;
  case TokenKind::Greater:
    return tc::ComparePredicate::gt;
  default:
    return tc::ComparePredicate::ge;
  }
}

FailureOr<Operand> Parser::combineLogical(const Token &op, Operand lhs,
                                          Operand rhs) {
  Location loc = locOf(op.loc());
  StringRef source = span(lhs.source, rhs.source);
  LogicalKind kind = op.is(TokenKind::Amp)    ? LogicalKind::And
                     : op.is(TokenKind::Pipe) ? LogicalKind::Or
                                              : LogicalKind::Xor;
  StringRef hint = kind == LogicalKind::Xor ? StringRef(kCaretHint)
                                            : StringRef(kOperatorHint);
  for (const Operand *o : {&lhs, &rhs})
    if (o->isLiteral() && o->literal->kind != Literal::Kind::Bool)
      return emitError(loc)
             << describe(op.kind) << " needs bool operands, got the literal "
             << o->source << "; " << hint;
  if (lhs.isLiteral() && rhs.isLiteral()) {
    bool a = lhs.literal->boolean, b = rhs.literal->boolean;
    Literal folded = Literal::ofBool(kind == LogicalKind::And  ? a && b
                                     : kind == LogicalKind::Or ? a || b
                                                               : a != b);
    folded.folded = true;
    return Operand::ofLiteral(folded, loc, source);
  }
  Type i1 = IntegerType::get(builder.getContext(), 1);
  for (const Operand *o : {&lhs, &rhs})
    if (!o->isLiteral() && o->tensor.elementType() != i1)
      return emitError(loc) << describe(op.kind) << " needs bool operands, got "
                            << elementTypeName(o->tensor.elementType())
                            << tc::formatShape(o->tensor.shape) << "; " << hint;
  TensorRef a = lhs.isLiteral() ? materialize(builder, lhs, i1) : lhs.tensor;
  TensorRef b = rhs.isLiteral() ? materialize(builder, rhs, i1) : rhs.tensor;
  if (!a || !b)
    return failure();
  TensorRef result = builder.logical(loc, kind, a, b, describe(op.kind), hint);
  if (!result)
    return failure();
  return Operand::ofTensor(result, loc, source);
}

FailureOr<Operand> Parser::combine(const Token &op, Operand lhs, Operand rhs) {
  Location loc = locOf(op.loc());
  StringRef source = span(lhs.source, rhs.source);
  std::optional<BinaryKind> arithmetic = arithmeticOf(op.kind);
  if (lhs.isLiteral() && rhs.isLiteral()) {
    if (!arithmetic)
      return emitError(loc) << "comparison of two literals; compare a tensor";
    FailureOr<Literal> folded =
        fold(loc, *arithmetic, *lhs.literal, *rhs.literal, source);
    if (failed(folded))
      return failure();
    return Operand::ofLiteral(*folded, loc, source);
  }
  Type dtype =
      lhs.isLiteral() ? rhs.tensor.elementType() : lhs.tensor.elementType();
  TensorRef a = materialize(builder, lhs, dtype);
  TensorRef b = materialize(builder, rhs, dtype);
  if (!a || !b)
    return failure();
  TensorRef result = arithmetic
                         ? builder.binary(loc, *arithmetic, a, b)
                         : builder.compare(loc, predicateOf(op.kind), a, b);
  if (!result)
    return failure();
  return Operand::ofTensor(result, loc, source);
}
