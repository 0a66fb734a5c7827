//===- ParserControlFlow.cpp - scan statements ----------------------------===//
//
//   hT, hs = scan(h = h0, x in xs) {
//     h1 = tanh(matmul(x, Wx) + matmul(h, Wh) + b)
//     return h1, h1
//   }
//
// Inside the parentheses, `NAME = expr` declares a carried state with its
// initial value and `NAME in expr` a sequence with the name of its element
// at each step; `n_steps=` (a size) and `go_backwards=` are options. The
// body is a block of statements that sees the names of the function above
// it (the non-sequences) and the declared names; its names stay local.
// `return` lists the carried states' next values, then the per-step
// outputs to stack; the names on the left take the final states, then the
// stacked outputs.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;

bool Parser::atScan() {
  Lexer probe = lexer;
  return tok.isKeyword("scan") && probe.next().is(TokenKind::LParen) &&
         !functions.count("scan");
}

LogicalResult Parser::parseScan(ArrayRef<Token> targets) {
  Location loc = here();
  consume(); // scan
  consume(); // (
  Nesting level(depth);
  if (level.tooDeep())
    return tooDeep();
  SmallVector<std::string> stateNames, elementNames;
  SmallVector<TensorRef> inits, sequences;
  std::optional<tc::Dim> steps;
  bool reverse = false;
  llvm::StringSet<> declared;
  while (!tok.is(TokenKind::RParen)) {
    Token name = tok;
    if (failed(identifier("to name a carried state (h = h0), a sequence's "
                          "element (x in xs) or an option of the scan")))
      return failure();
    if (name.text == "n_steps" || name.text == "go_backwards") {
      if (failed(expect(TokenKind::Assign, "after the option")))
        return failure();
      if (name.text == "n_steps") {
        FailureOr<tc::Dim> dim = parseLoopSize(loc, "scan", "n_steps");
        if (failed(dim))
          return failure();
        steps = *dim;
      } else {
        FailureOr<AttrValue> value = parseAttrValue();
        if (failed(value))
          return failure();
        if (value->kind != AttrValue::Kind::Bool)
          return emitError(value->loc) << "go_backwards must be true or false";
        reverse = value->boolean;
      }
    } else if (tok.isKeyword("in")) {
      consume();
      if (failed(declareLoopName(name, "scan", declared)))
        return failure();
      FailureOr<Operand> seq = parseExpr();
      if (failed(seq))
        return failure();
      if (seq->isLiteral())
        return emitError(seq->loc)
               << "a scan iterates over a tensor, not over a literal";
      elementNames.push_back(name.text.str());
      sequences.push_back(seq->tensor);
    } else {
      if (failed(expect(TokenKind::Assign,
                        "after a carried state's name (h = h0) or 'in' "
                        "after a sequence element's (x in xs)")) ||
          failed(declareLoopName(name, "scan", declared)) ||
          failed(parseCarriedState(name, stateNames, inits)))
        return failure();
    }
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (failed(expect(TokenKind::RParen, "to close the scan's declarations")) ||
      failed(expect(TokenKind::LBrace, "to open the scan's body")))
    return failure();
  FailureOr<SmallVector<TensorRef>> args =
      builder.beginScan(loc, inits, sequences, steps, reverse);
  if (failed(args))
    return failure();
  builder.nameLoopStates(stateNames);
  // The body's names are its own: the function's scope comes back after.
  llvm::StringMap<TensorRef> outer = scope;
  auto restore = llvm::make_scope_exit([&] { scope = std::move(outer); });
  size_t k = 0;
  for (const std::string &name : stateNames)
    scope[name] = (*args)[k++];
  for (const std::string &name : elementNames)
    scope[name] = (*args)[k++];
  BodyUpdates bodyUpdates;
  SmallVector<Operand, 2> values;
  Location returnLoc = loc;
  if (failed(parseLoopBody("scan's",
                           "the next values of its carried states, then its "
                           "outputs",
                           bodyUpdates, values, returnLoc))) {
    builder.abandonScan();
    return failure();
  }
  if (values.size() < inits.size() || values.size() == 0) {
    builder.abandonScan();
    return emitError(returnLoc)
           << "the scan's body returns " << values.size()
           << " values; it returns the next value of each of its "
           << inits.size()
           << " carried states first, then any outputs to stack";
  }
  SmallVector<TensorRef> next, perStep;
  SmallVector<Location> nextLocs;
  for (auto [i, value] : llvm::enumerate(values)) {
    TensorRef t;
    if (i < inits.size()) {
      t = materialize(builder, value, inits[i].elementType());
      nextLocs.push_back(value.loc);
      next.push_back(t);
    } else {
      if (value.isLiteral()) {
        builder.abandonScan();
        return emitError(value.loc)
               << "cannot tell the dtype of the scan's output #"
               << i - inits.size() << ": a literal alone has none";
      }
      t = value.tensor;
      perStep.push_back(t);
    }
    if (!t) {
      builder.abandonScan();
      return failure();
    }
  }
  // Each step advances the variables of its updates block and those that
  // the loops in it advance: the scan carries them.
  FailureOr<std::vector<LoopUpdate>> advanced = advanceInLoop(bodyUpdates);
  if (failed(advanced)) {
    builder.abandonScan();
    return failure();
  }
  SmallVector<TensorRef> results =
      builder.endScan(loc, next, perStep, nextLocs);
  if (results.empty())
    return failure();
  passUpdatesOut(*advanced, results);
  if (results.size() != targets.size())
    return emitError(locOf(targets.front().loc()))
           << targets.size() << " name" << (targets.size() == 1 ? "" : "s")
           << " for the scan's " << results.size()
           << " results (its final states, then its stacked outputs)";
  restore.release();
  scope = std::move(outer);
  for (auto [t, value] : llvm::zip(targets, results))
    scope[t.text] = value;
  return success();
}
