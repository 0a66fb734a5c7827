//===- GradParser.cpp - grad(y, [x, ...]) in graph files ------------------===//
//
// `grad` is the one call with several results, so it has its own syntax:
// `g = grad(y, x)` is an expression, and `ga, gb = grad(y, [a, b])` the one
// statement that assigns several names; both take `consider_constant=[c,
// ...]` last. Both call GraphBuilder::grad.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;

/// Where a missing ',' or ']' of a grad call is reported.
static constexpr const char *kGradForm = "in grad(y, [x, ...])";

/// The tensor of a grad argument; a literal has no gradient.
static FailureOr<TensorRef> gradArgument(const Operand &operand) {
  if (operand.isLiteral())
    return emitError(operand.loc)
           << "grad needs tensors, got the literal '" << operand.source << "'";
  return operand.tensor;
}

FailureOr<SmallVector<TensorRef>> Parser::parseGradCall(const Token &name,
                                                        bool &isList) {
  Location loc = locOf(name.loc());
  consume(); // (
  Nesting level(depth);
  if (level.tooDeep())
    return tooDeep();
  FailureOr<Operand> y = parseComparison();
  if (failed(y) || failed(expect(TokenKind::Comma, kGradForm)))
    return failure();
  FailureOr<TensorRef> yTensor = gradArgument(*y);
  if (failed(yTensor))
    return failure();
  SmallVector<TensorRef> wrt;
  SmallVector<Location> wrtLocs;
  isList = consumeIf(TokenKind::LBracket);
  do {
    FailureOr<Operand> x = parseComparison();
    if (failed(x))
      return failure();
    FailureOr<TensorRef> xTensor = gradArgument(*x);
    if (failed(xTensor))
      return failure();
    wrt.push_back(*xTensor);
    wrtLocs.push_back(x->loc);
  } while (isList && consumeIf(TokenKind::Comma));
  if (isList && failed(expect(TokenKind::RBracket, kGradForm)))
    return failure();
  // consider_constant=[c, ...] (or one value): values no gradient goes
  // through, as PyTensor's grad takes them.
  SmallVector<TensorRef> constants;
  if (consumeIf(TokenKind::Comma)) {
    if (!tok.isKeyword("consider_constant"))
      return unexpected("'consider_constant='", kGradForm);
    consume();
    if (failed(expect(TokenKind::Assign, kGradForm)))
      return failure();
    bool constantList = consumeIf(TokenKind::LBracket);
    do {
      FailureOr<Operand> c = parseComparison();
      if (failed(c))
        return failure();
      FailureOr<TensorRef> cTensor = gradArgument(*c);
      if (failed(cTensor))
        return failure();
      constants.push_back(*cTensor);
    } while (constantList && consumeIf(TokenKind::Comma));
    if (constantList && failed(expect(TokenKind::RBracket, kGradForm)))
      return failure();
  }
  if (failed(expect(TokenKind::RParen, "to close the argument list")))
    return failure();
  SmallVector<TensorRef> grads =
      builder.grad(*yTensor, wrt, loc, wrtLocs, constants);
  if (llvm::any_of(grads, [](const TensorRef &g) { return !g; }))
    return failure();
  return grads;
}
