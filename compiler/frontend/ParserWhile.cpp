//===- ParserWhile.cpp - while statements ---------------------------------===//
//
//   r, n = while(r = r0, max_steps=50, cond=abs(r * r - a) > 1e-6) {
//     return 0.5 * (r + a / r)
//   }
//
// Inside the parentheses, `NAME = expr` declares a carried state with its
// initial value, `max_steps=` (a size) bounds the number of steps, and
// `cond=` comes last: a bool scalar over the states, checked before each
// step (the loop stops when it is false or after max_steps steps). The
// body is a block of statements that sees the function's names and the
// states; it may end with an updates block (ParserLoopUpdates.cpp), and
// `return` lists the states' next values. The names on the left
// take the final states, then optionally the number of steps that ran
// (i64[]).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;

bool Parser::atWhile() {
  Lexer probe = lexer;
  return tok.isKeyword("while") && probe.next().is(TokenKind::LParen) &&
         !functions.count("while");
}

LogicalResult Parser::parseWhile(ArrayRef<Token> targets) {
  Location loc = here();
  consume(); // while
  consume(); // (
  Nesting level(depth);
  if (level.tooDeep())
    return tooDeep();
  SmallVector<std::string> stateNames;
  SmallVector<TensorRef> inits;
  std::optional<tc::Dim> maxSteps;
  llvm::StringSet<> declared;
  bool sawCond = false;
  SmallVector<TensorRef> bodyArgs;
  // The function's names come back after the loop.
  llvm::StringMap<TensorRef> outer = scope;
  auto restore = llvm::make_scope_exit([&] { scope = outer; });
  while (!tok.is(TokenKind::RParen)) {
    Token name = tok;
    if (failed(identifier("to name a carried state (x = x0) or an option of "
                          "the while loop (max_steps=, cond=)")))
      return failure();
    if (failed(expect(TokenKind::Assign, "after the name")))
      return failure();
    if (name.text == "max_steps") {
      FailureOr<tc::Dim> dim = parseLoopSize(loc, "while", "max_steps");
      if (failed(dim))
        return failure();
      maxSteps = *dim;
    } else if (name.text == "cond") {
      if (!maxSteps)
        return emitError(locOf(name.loc()))
               << "a while loop needs max_steps= (the most steps it runs) "
                  "before its cond=";
      FailureOr<SmallVector<TensorRef>> args =
          builder.beginWhile(loc, inits, *maxSteps);
      if (failed(args))
        return failure();
      builder.nameLoopStates(stateNames);
      for (auto [k, stateName] : llvm::enumerate(stateNames))
        scope[stateName] = (*args)[k];
      FailureOr<Operand> cond = parseExpr();
      if (failed(cond)) {
        builder.abandonScan();
        return failure();
      }
      if (cond->isLiteral()) {
        builder.abandonScan();
        return emitError(cond->loc)
               << "the condition of a while loop is a bool scalar computed "
                  "from its states, not a literal";
      }
      FailureOr<SmallVector<TensorRef>> args2 =
          builder.whileBody(cond->loc, cond->tensor);
      if (failed(args2)) {
        builder.abandonScan();
        return failure();
      }
      bodyArgs = std::move(*args2);
      sawCond = true;
      if (!tok.is(TokenKind::RParen)) {
        builder.abandonScan();
        return error() << "cond= comes last in a while loop's declarations "
                          "(after its states and max_steps=)";
      }
      break;
    } else {
      if (failed(declareLoopName(name, "while loop", declared)) ||
          failed(parseCarriedState(name, stateNames, inits)))
        return failure();
    }
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!sawCond)
    return emitError(loc) << "a while loop needs cond= (a bool scalar over "
                             "its states: it steps while the condition holds)";
  auto abandon = [&] {
    builder.abandonScan();
    return failure();
  };
  if (failed(expect(TokenKind::RParen,
                    "to close the while loop's declarations")) ||
      failed(expect(TokenKind::LBrace, "to open the while loop's body")))
    return abandon();
  // The body sees its own arguments for the states (whileBody made them).
  scope = outer;
  for (auto [k, stateName] : llvm::enumerate(stateNames))
    scope[stateName] = bodyArgs[k];
  BodyUpdates bodyUpdates;
  SmallVector<Operand, 2> values;
  Location returnLoc = loc;
  if (failed(parseLoopBody("while loop's",
                           "the next values of its carried states", bodyUpdates,
                           values, returnLoc)))
    return abandon();
  if (values.size() != inits.size()) {
    builder.abandonScan();
    return emitError(returnLoc)
           << "the while loop's body returns " << values.size()
           << " values; it returns the next value of each of its "
           << inits.size() << " carried states";
  }
  SmallVector<TensorRef> next;
  SmallVector<Location> nextLocs;
  for (auto [i, value] : llvm::enumerate(values)) {
    TensorRef t = materialize(builder, value, inits[i].elementType());
    if (!t)
      return abandon();
    next.push_back(t);
    nextLocs.push_back(value.loc);
  }
  // Each step advances the variables of its updates block and those that
  // the loops in it advance: the while carries them.
  FailureOr<std::vector<LoopUpdate>> advanced = advanceInLoop(bodyUpdates);
  if (failed(advanced))
    return abandon();
  SmallVector<TensorRef> results = builder.endWhile(loc, next, nextLocs);
  if (results.empty())
    return failure();
  passUpdatesOut(*advanced, results);
  if (targets.size() != inits.size() && targets.size() != inits.size() + 1)
    return emitError(locOf(targets.front().loc()))
           << targets.size() << " name" << (targets.size() == 1 ? "" : "s")
           << " for the while loop's results: its " << inits.size()
           << " final states, then optionally the number of steps it ran";
  restore.release();
  scope = std::move(outer);
  for (auto [t, value] : llvm::zip(targets, results))
    scope[t.text] = value;
  return success();
}
