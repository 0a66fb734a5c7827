//===- ParserLoopParts.cpp - what scan and while statements share ---------===//
//
// A scan (ParserControlFlow.cpp) and a while (ParserWhile.cpp) declare
// carried states the same way (`h = h0`), take a size option the same way
// (`n_steps=`, `max_steps=`), and have the same body: statements, an
// optional updates block, then `return` and the next values.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/CallArgs.h"
#include "compiler/frontend/ParserImpl.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;

FailureOr<tc::Dim> Parser::parseLoopSize(Location loc, StringRef loop,
                                         StringRef option) {
  FailureOr<AttrValue> value = parseAttrValue();
  if (failed(value))
    return failure();
  CallSite site{loop.str(), loc, {}, {}, &symbols};
  if (!callStack.empty())
    site.bindings = &bindings;
  CallArgs args(site);
  return args.dim(*value, option);
}

LogicalResult Parser::declareLoopName(const Token &name, StringRef loop,
                                      llvm::StringSet<> &declared) {
  if (failed(checkAssignable(name)))
    return failure();
  if (!declared.insert(name.text).second)
    return emitError(locOf(name.loc()))
           << "'" << name.text << "' is declared twice in the " << loop;
  return success();
}

LogicalResult Parser::parseCarriedState(const Token &name,
                                        SmallVectorImpl<std::string> &names,
                                        SmallVectorImpl<TensorRef> &inits) {
  FailureOr<Operand> init = parseExpr();
  if (failed(init))
    return failure();
  if (init->isLiteral())
    return emitError(init->loc)
           << "cannot tell the dtype of carried state '" << name.text
           << "': a literal alone has none (write a tensor, such as "
              "zeros([], dtype=f32) + "
           << init->source << ")";
  names.push_back(name.text.str());
  inits.push_back(init->tensor);
  return success();
}

LogicalResult Parser::parseLoopBody(StringRef whose, StringRef returns,
                                    BodyUpdates &updates,
                                    SmallVectorImpl<Operand> &values,
                                    Location &returnLoc) {
  // The loops in the body add the variables they advance after this.
  updates.innerUpdates = loopUpdates.size();
  while (!tok.isKeyword("return")) {
    if (tok.is(TokenKind::RBrace) || tok.is(TokenKind::Eof))
      return error() << "a " << whose << " body ends with 'return' and "
                     << returns;
    FailureOr<bool> sawUpdates = parseBodyUpdates(whose, updates);
    if (failed(sawUpdates))
      return failure();
    if (*sawUpdates)
      continue;
    if (failed(parseStatement()))
      return failure();
  }
  returnLoc = here();
  consume(); // return
  while (true) {
    FailureOr<Operand> value = parseExpr();
    if (failed(value))
      return failure();
    values.push_back(*value);
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  return expect(TokenKind::RBrace, ("to close the " + whose + " body").str());
}
