//===- Parser.cpp - graph files (.tg) to the tc dialect -------------------===//
//
// A recursive-descent parser (grammar in docs/graph-format.md) that emits
// through GraphBuilder as it goes. This file reads the declarations and
// function bodies; ExprParser.cpp reads expressions.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;
using tc::Dim;
using tc::Shape;

Parser::Parser(llvm::SourceMgr &sourceMgr, MLIRContext *context,
               const GraphFileOptions &options)
    : sourceMgr(sourceMgr), context(context), options(options),
      lexer(sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer()),
      builder(context,
              locOf(llvm::SMLoc::getFromPointer(
                  sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                      ->getBufferStart())),
              GraphBuilderOptions{options.warningsAsErrors,
                                  options.dataParallel, options.ranks}) {
  tok = lexer.next();
}

Location Parser::locOf(llvm::SMLoc loc) {
  auto [line, col] = sourceMgr.getLineAndColumn(loc);
  StringRef file = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                       ->getBufferIdentifier();
  return FileLineColLoc::get(context, file, line, col);
}

LogicalResult Parser::tooDeep() {
  return error() << "expression nested more than " << kMaxNesting
                 << " levels deep";
}

LogicalResult Parser::expect(TokenKind kind, StringRef context) {
  if (consumeIf(kind))
    return success();
  return unexpected(describe(kind), context);
}

LogicalResult Parser::unexpected(StringRef wanted, StringRef context) {
  if (tok.is(TokenKind::BadNumber))
    return error() << describeBadNumber(tok.text, /*inExpression=*/false);
  auto diag = error() << "expected " << wanted << " " << context;
  if (tok.is(TokenKind::Error))
    diag << ", found invalid text '" << tok.text << "'";
  else if (tok.is(TokenKind::Eof))
    diag << ", found the end of the file";
  else
    diag << ", found '" << tok.text << "'";
  return failure();
}

FailureOr<std::string> Parser::identifier(StringRef context) {
  if (!tok.is(TokenKind::Identifier))
    return unexpected("a name", context);
  return consume().text.str();
}

OwningOpRef<ModuleOp> Parser::parse() {
  if (failed(parseHeader()))
    return nullptr;
  // Every function's name, so that a call of one defined further down gets
  // a message that says so.
  for (Lexer scan = lexer; true;) {
    Token t = scan.next();
    if (t.is(TokenKind::Eof))
      break;
    if (t.isKeyword("func"))
      if (Token n = scan.next(); n.is(TokenKind::Identifier))
        allFunctionNames.insert(n.text);
  }
  while (!tok.is(TokenKind::Eof)) {
    LogicalResult result = failure();
    if (tok.isKeyword("shared"))
      result = parseShared();
    else if (tok.isKeyword("func"))
      result = parseFunction();
    else
      result = !keywordHint(tok.text, {"shared", "func"}).empty()
                   ? LogicalResult(error()
                                   << "expected 'shared' or 'func' at the top "
                                      "level, found '"
                                   << tok.text << "'"
                                   << keywordHint(tok.text, {"shared", "func"}))
                   : unexpected("'shared' or 'func'", "at the top level");
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
    // A product of sizes and names: 784, N, B*T, 2*N.
    tc::DimProduct product;
    do {
      if (tok.is(TokenKind::Integer)) {
        int64_t size;
        if (tok.text.getAsInteger(10, size) || size < 0 ||
            llvm::MulOverflow(product.coef, size, product.coef))
          return error() << "dimension " << tok.text << " is too large";
        consume();
      } else if (tok.is(TokenKind::Identifier)) {
        if (!allowSymbols)
          return error() << "a shared variable needs a static shape; '"
                         << tok.text << "' is symbolic";
        product.factors.push_back(tok.text.str());
        symbols.insert(tok.text);
        consume();
      } else {
        return unexpected("a dimension size or name", "in the shape");
      }
    } while (consumeIf(TokenKind::Star));
    shape.push_back(tc::productDim(product));
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBracket, "to close the shape");
}

FailureOr<DictionaryAttr> Parser::parseInitParams(tc::InitKind kind) {
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
    FailureOr<Attribute> attr = initParam(kind, key, *value);
    if (failed(attr))
      return failure();
    params.append(key, *attr);
  } while (consumeIf(TokenKind::Comma));
  if (failed(expect(TokenKind::RParen, "to close the initializer")))
    return failure();
  return params.getDictionary(context);
}

namespace {
/// What a parameter of an initializer holds.
enum class ParamKind { Number, Integer, Path, Unknown };
} // namespace

/// The kind of `key` for `init`; Unknown for a parameter it does not take
/// (the tc.shared verifier reports those).
static ParamKind paramKind(tc::InitKind init, StringRef key) {
  switch (init) {
  case tc::InitKind::Zeros:
  case tc::InitKind::Ones:
    break;
  case tc::InitKind::Fill:
    if (key == "value")
      return ParamKind::Number;
    break;
  case tc::InitKind::Uniform:
  case tc::InitKind::Normal: {
    bool uniform = init == tc::InitKind::Uniform;
    if (key == "seed")
      return ParamKind::Integer;
    if (key == (uniform ? "low" : "mean") || key == (uniform ? "high" : "std"))
      return ParamKind::Number;
    break;
  }
  case tc::InitKind::Npy:
    if (key == "path")
      return ParamKind::Path;
    break;
  }
  return ParamKind::Unknown;
}

FailureOr<Attribute> Parser::initParam(tc::InitKind kind, StringRef key,
                                       const AttrValue &value) {
  Builder b(context);
  bool isInteger = value.kind == AttrValue::Kind::Integer;
  bool isNumber = isInteger || value.kind == AttrValue::Kind::Float;
  auto number = [&]() -> Attribute {
    return b.getF64FloatAttr(isInteger ? (double)value.integer : value.number);
  };
  switch (paramKind(kind, key)) {
  case ParamKind::Integer:
    if (!isInteger)
      return emitError(value.loc)
             << "parameter '" << key << "' must be an integer";
    return Attribute(b.getI64IntegerAttr(value.integer));
  case ParamKind::Number:
    if (!isNumber)
      return emitError(value.loc)
             << "parameter '" << key << "' must be a number";
    return number();
  case ParamKind::Path: {
    if (value.kind != AttrValue::Kind::String)
      return emitError(value.loc)
             << "parameter '" << key << "' must be a string (a file path)";
    // A relative path is relative to the graph file.
    llvm::SmallString<256> path(value.text);
    if (!llvm::sys::path::is_absolute(path)) {
      if (options.baseDirectory)
        path = *options.baseDirectory;
      else
        path = llvm::sys::path::parent_path(
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                ->getBufferIdentifier());
      llvm::sys::path::append(path, value.text);
    }
    if (!llvm::sys::fs::exists(path))
      return emitError(value.loc) << "file '" << path << "' does not exist";
    return Attribute(b.getStringAttr(path));
  }
  case ParamKind::Unknown:
    // The verifier names the parameters the initializer takes.
    if (isInteger && key == "seed")
      return Attribute(b.getI64IntegerAttr(value.integer));
    if (isNumber)
      return number();
    if (value.kind == AttrValue::Kind::String)
      return Attribute(b.getStringAttr(value.text));
    return emitError(value.loc)
           << "parameter '" << key << "' must be a number or a string";
  }
  return failure();
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
  if (failed(builder.declareShared(loc, *name, elementType, tc::sizesOf(shape),
                                   *kind, dict)))
    return failure();
  // `sharded`: optimizer state split across the ranks (ZeRO stage 1).
  if (!tok.isKeyword("sharded"))
    return success();
  Location shardedLoc = here();
  consume();
  return builder.shardShared(shardedLoc, *name);
}

FailureOr<TensorSpec> Parser::parseSpec(bool isOutput) {
  TensorSpec spec{"", Type(), {}, false, false, here()};
  FailureOr<std::string> name =
      identifier(isOutput ? "as an output name" : "as an input name");
  if (failed(name) || failed(expect(TokenKind::Colon, "after the name")) ||
      failed(parseType(spec.elementType, spec.shape, /*allowSymbols=*/true)))
    return failure();
  spec.name = *name;
  // The flags are the only names that may follow a type; any other name
  // means a missing ',' (reported by the list).
  while (tok.isKeyword("borrow") || tok.isKeyword("internal")) {
    if (tok.text == "borrow")
      spec.borrow = true;
    else if (isOutput)
      spec.returnInternalType = true;
    else
      return error() << "'internal' is a flag of outputs; an input may only "
                        "be 'borrow'";
    consume();
  }
  return spec;
}

LogicalResult Parser::parseSpecList(bool isOutput,
                                    SmallVectorImpl<TensorSpec> &specs) {
  StringRef what = isOutput ? "output" : "input";
  if (!consumeIf(TokenKind::LParen))
    return unexpected("'('", isOutput ? "to open the output list"
                                      : "to open the input list");
  if (consumeIf(TokenKind::RParen))
    return success();
  while (true) {
    FailureOr<TensorSpec> spec = parseSpec(isOutput);
    if (failed(spec))
      return failure();
    specs.push_back(*spec);
    if (consumeIf(TokenKind::RParen))
      return success();
    if (!consumeIf(TokenKind::Comma))
      return unexpected("',' or ')'",
                        ("after " + what + " '" + spec->name + "'").str());
  }
}

LogicalResult Parser::parseFunction() {
  consume(); // func
  Location loc = here();
  FailureOr<std::string> name = identifier("after 'func'");
  if (failed(name))
    return failure();
  currentName = *name;
  inlinedCalls = 0;
  symbols.clear();
  SmallVector<TensorSpec> inputs, outputs;
  if (failed(parseSpecList(/*isOutput=*/false, inputs)) ||
      failed(expect(TokenKind::Arrow, "before the outputs")) ||
      failed(parseSpecList(/*isOutput=*/true, outputs)) ||
      failed(expect(TokenKind::LBrace, "to open the function body")))
    return failure();
  // Later functions that call this one parse its body again from here.
  FunctionDef def;
  def.inputs = inputs;
  def.outputs = outputs;
  def.body = lexer;
  def.first = tok;
  def.symbols = symbols;
  FailureOr<SmallVector<TensorRef>> args =
      builder.beginFunction(loc, *name, inputs, outputs);
  if (failed(args))
    return failure();
  scope.clear();
  inputNames.clear();
  loopUpdates.clear();
  for (auto [spec, arg] : llvm::zip(inputs, *args)) {
    scope[spec.name] = arg;
    inputNames.insert(spec.name);
  }
  std::vector<std::pair<std::string, TensorRef>> updates;
  SmallVector<Location> updateLocs;
  while (!tok.is(TokenKind::RBrace)) {
    if (tok.isKeyword("updates")) {
      def.hasUpdates = true;
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
  // The variables that loops advanced are updated with their final values,
  // before the updates block's (each variable once: a second update is
  // reported in the block).
  for (auto [k, u] : llvm::enumerate(loopUpdates)) {
    def.hasUpdates = true;
    updates.insert(updates.begin() + k, {u.name, u.value});
    updateLocs.insert(updateLocs.begin() + k, u.loc);
  }
  loopUpdates.clear();
  SmallVector<TensorRef> results;
  for (const TensorSpec &spec : outputs) {
    auto it = scope.find(spec.name);
    if (it == scope.end() || inputNames.contains(spec.name))
      return emitError(spec.loc)
             << "output '" << spec.name << "' is never assigned";
    results.push_back(it->second);
  }
  if (failed(builder.endFunction(end, results, updates, updateLocs)))
    return failure();
  functions.try_emplace(*name, std::move(def));
  return success();
}

LogicalResult Parser::checkAssignable(const Token &name) {
  if (inputNames.contains(name.text))
    return emitError(locOf(name.loc()))
           << "cannot assign to input '" << name.text
           << "'; inputs are read-only names (use a new name)";
  if (builder.hasShared(name.text))
    return emitError(locOf(name.loc()))
           << "'" << name.text
           << "' is a shared variable; assign it in the 'updates' block";
  return success();
}

LogicalResult Parser::parseStatement() {
  Token name = tok;
  FailureOr<std::string> target = identifier("to start a statement");
  if (failed(target) || failed(checkAssignable(name)))
    return failure();
  if (tok.is(TokenKind::Comma))
    return parseMultipleAssignment(name);
  if (tok.is(TokenKind::LBrace) && !keywordHint(*target, {"updates"}).empty())
    return error() << "expected '=' after the name in an assignment, found "
                      "'{'"
                   << keywordHint(*target, {"updates"});
  if (failed(expect(TokenKind::Assign, "after the name in an assignment")))
    return failure();
  if (atScan())
    return parseScan({name});
  if (atWhile())
    return parseWhile({name});
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
    if (failed(rejectIndexedUpdate(*name)))
      return failure();
    if (failed(expect(TokenKind::Assign, "after the variable")))
      return failure();
    FailureOr<Operand> value = parseExpr();
    if (failed(value))
      return failure();
    // A literal takes the variable's dtype (without reading the variable).
    Type dtype = builder.sharedType(*name).getElementType();
    TensorRef t = materialize(builder, *value, dtype);
    if (!t)
      return failure();
    updates.emplace_back(*name, t);
    locs.push_back(at);
  }
  return success();
}

OwningOpRef<ModuleOp>
frontend::parseGraphFile(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                         const GraphFileOptions &options) {
  Parser parser(sourceMgr, context, options);
  return parser.parse();
}
