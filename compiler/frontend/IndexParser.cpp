//===- IndexParser.cpp - numpy indexing in graph-file expressions ---------===//
//
// `x[1:3, ..., -1]`: an atom followed by indices. Each entry is an integer
// literal (its axis goes away), a slice `begin:end:step` whose bounds are
// integer literals or the dimension's name, or `...`. What they mean is
// decided in Slicing.cpp; here they are only read, with their locations.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;

/// What an entry of `x[...]` may be.
static constexpr StringLiteral kIndexForms =
    "an index must be an integer literal, a slice such as 1:3, or '...'";

FailureOr<Operand> Parser::parsePrimary() {
  FailureOr<Operand> base = parseAtom();
  // A loop, not recursion: x[0][1][2] indexes the result each time.
  while (succeeded(base) && tok.is(TokenKind::LBracket))
    base = parseIndex(*base);
  return base;
}

FailureOr<std::optional<SliceBound>> Parser::parseIndexBound() {
  Location loc = here();
  SliceBound bound(loc);
  if (tok.is(TokenKind::Minus) || tok.is(TokenKind::Integer)) {
    bool negative = consumeIf(TokenKind::Minus);
    if (!tok.is(TokenKind::Integer))
      return emitError(loc) << kIndexForms;
    int64_t value;
    if (consume().text.getAsInteger(10, value))
      return emitError(loc) << "index is too large";
    bound.kind = SliceBound::Kind::Integer;
    bound.integer = negative ? -value : value;
    return std::optional<SliceBound>(bound);
  }
  if (tok.is(TokenKind::Float))
    return emitError(loc) << kIndexForms;
  if (!tok.is(TokenKind::Identifier))
    return std::optional<SliceBound>();
  // A dimension's name or a product of names and sizes (`N`, `2*N`).
  bound.kind = SliceBound::Kind::Dim;
  while (true) {
    Location at = here();
    if (tok.is(TokenKind::Integer) && !bound.text.empty()) {
      int64_t value;
      if (consume().text.getAsInteger(10, value) ||
          llvm::MulOverflow(bound.dim.coef, value, bound.dim.coef))
        return emitError(at) << "dimension is too large";
      bound.text += std::to_string(value);
    } else if (tok.is(TokenKind::Identifier)) {
      Token name = consume();
      if (!symbols.contains(name.text)) {
        if (scope.count(name.text) || inputNames.contains(name.text) ||
            builder.hasShared(name.text))
          return emitError(at)
                 << "'" << name.text
                 << "' is a tensor; an index must be an integer literal "
                    "(a gather by tensor ids is take(x, ids, axis=...))";
        return emitError(at) << "unknown dimension '" << name.text
                             << "': name it in an input's type first";
      }
      bound.dim.factors.push_back(name.text.str());
      bound.text += name.text.str();
    } else {
      return emitError(at) << kIndexForms;
    }
    if (!consumeIf(TokenKind::Star))
      break;
    bound.text += "*";
  }
  llvm::sort(bound.dim.factors);
  return std::optional<SliceBound>(bound);
}

FailureOr<Operand> Parser::parseIndex(const Operand &base) {
  Token open = consume(); // [
  Location loc = locOf(open.loc());
  if (base.isLiteral())
    return emitError(loc) << "the literal " << base.source
                          << " cannot be indexed";
  std::vector<IndexEntry> entries;
  if (tok.is(TokenKind::RBracket))
    return error() << kIndexForms;
  do {
    if (tok.is(TokenKind::RBracket))
      break; // a trailing ',' as in Python
    IndexEntry entry(here());
    if (consumeIf(TokenKind::Ellipsis)) {
      entry.kind = IndexEntry::Kind::Ellipsis;
      entries.push_back(entry);
      if (!tok.is(TokenKind::Comma) && !tok.is(TokenKind::RBracket))
        return unexpected("',' or ']'", "after an index");
      continue;
    }
    FailureOr<std::optional<SliceBound>> first = parseIndexBound();
    if (failed(first))
      return failure();
    if (!tok.is(TokenKind::Colon)) {
      if (!*first)
        return emitError(entry.loc) << kIndexForms;
      // A dimension's name only bounds a slice (x[:N]).
      if ((*first)->kind != SliceBound::Kind::Integer ||
          (!tok.is(TokenKind::Comma) && !tok.is(TokenKind::RBracket)))
        return emitError(entry.loc) << kIndexForms;
      entry.kind = IndexEntry::Kind::Integer;
      entry.index = (*first)->integer;
      entries.push_back(entry);
      continue;
    }
    consume(); // :
    if (*first)
      entry.slice.begin = **first;
    FailureOr<std::optional<SliceBound>> second = parseIndexBound();
    if (failed(second))
      return failure();
    if (*second)
      entry.slice.end = **second;
    if (consumeIf(TokenKind::Colon)) {
      Location stepLoc = here();
      FailureOr<std::optional<SliceBound>> step = parseIndexBound();
      if (failed(step))
        return failure();
      if (*step && (*step)->kind != SliceBound::Kind::Integer)
        return emitError(stepLoc) << frontend::kNonzeroSliceStep;
      if (*step) {
        entry.slice.step = (*step)->integer;
        entry.slice.stepLoc = stepLoc;
      }
    }
    if (!tok.is(TokenKind::Comma) && !tok.is(TokenKind::RBracket))
      return unexpected("',' or ']'", "after an index");
    entries.push_back(entry);
  } while (consumeIf(TokenKind::Comma));
  Token close = tok;
  if (failed(expect(TokenKind::RBracket, "to close the index")))
    return failure();
  TensorRef t = emitIndex(builder, loc, base.tensor, entries);
  if (!t)
    return failure();
  return Operand::ofTensor(t, loc, span(base.source, close.text));
}
