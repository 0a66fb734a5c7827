//===- ParserLoopUpdates.cpp - shared variables advanced in loops ---------===//
//
//   hT, hs = scan(h = h0, x in xs) {
//     noise = random_normal(rng, h, std=0.1)
//     updates { rng = rng_advance(rng) }
//     return tanh(h + x + noise), h
//   }
//
// A scan's or a while's body may end with an updates block: each step
// advances the variables it names, and the loops inside the body pass the
// variables they advance to the loop around. The builder carries each
// variable as a hidden state of the loop; the loop's final value goes up,
// loop by loop, to the function, which updates the variable once, when the
// call succeeds.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;

FailureOr<bool> Parser::parseBodyUpdates(StringRef loop, BodyUpdates &updates) {
  Lexer probe = lexer;
  if (!tok.isKeyword("updates") || !probe.next().is(TokenKind::LBrace))
    return false;
  if (failed(parseUpdates(updates.own, updates.ownLocs)))
    return failure();
  if (!tok.isKeyword("return"))
    return error() << "the updates block of a " << loop
                   << " body comes last, just before its 'return'";
  return true;
}

FailureOr<std::vector<Parser::LoopUpdate>>
Parser::advanceInLoop(BodyUpdates &updates) {
  // The body's own block after the loops inside it, as in the function.
  for (auto [update, at] : llvm::zip(updates.own, updates.ownLocs))
    loopUpdates.push_back({update.first, update.second, at});
  std::vector<LoopUpdate> advanced(loopUpdates.begin() + updates.innerUpdates,
                                   loopUpdates.end());
  loopUpdates.erase(loopUpdates.begin() + updates.innerUpdates,
                    loopUpdates.end());
  for (const LoopUpdate &u : advanced)
    if (failed(builder.updateInLoop(u.loc, u.name, u.value)))
      return failure();
  return advanced;
}

void Parser::passUpdatesOut(ArrayRef<LoopUpdate> advanced,
                            SmallVectorImpl<TensorRef> &results) {
  size_t first = results.size() - advanced.size();
  for (auto [k, u] : llvm::enumerate(advanced))
    loopUpdates.push_back({u.name, results[first + k], u.loc});
  results.resize(first);
}
