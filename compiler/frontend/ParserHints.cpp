//===- ParserHints.cpp - what to write instead of numpy habits ------------===//
//
// `E[ids]`, `x.T`, `x.astype(...)`, `W[0] = ...` in updates and misspelled
// keywords: each gets a message that names the construct and says what a
// graph file writes instead. The checks are small functions so that
// indexing syntax, when graph files gain it, replaces only what it makes
// valid (a tensor as an index stays an error: that is take()).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ParserImpl.h"
#include "compiler/frontend/Suggest.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using namespace tcc::frontend::detail;

LogicalResult Parser::rejectTensorIndex(const Token &name) {
  if (!tok.is(TokenKind::LBracket))
    return success();
  Lexer probe = lexer;
  Token index = probe.next();
  Token after = probe.next();
  bool isTensor = index.is(TokenKind::Identifier) &&
                  (scope.count(index.text) || builder.hasShared(index.text));
  if (!isTensor ||
      !(after.is(TokenKind::RBracket) || after.is(TokenKind::Comma)))
    return success();
  return error() << "'" << name.text << "[" << index.text
                 << "]' indexes with a tensor, which graph files do not do; "
                    "write take("
                 << name.text << ", " << index.text << ")";
}

LogicalResult Parser::rejectAttribute(const Operand &base) {
  if (!tok.is(TokenKind::Error) || tok.text != ".")
    return success();
  Lexer probe = lexer;
  Token attr = probe.next();
  if (!attr.is(TokenKind::Identifier))
    return success();
  StringRef x = base.source;
  auto diag = error() << "'" << x << "." << attr.text
                      << "' is numpy; tensors have no attributes in graph "
                         "files";
  if (attr.text == "T")
    diag << ": write transpose(" << x << ")";
  else if (attr.text == "astype")
    diag << ": write cast(" << x << ", dtype=f32)";
  else if (attr.text == "shape")
    diag << ": write size(" << x << ", 0) for a dimension";
  else
    diag << ": call a function, as in " << attr.text << "(" << x << ")";
  return failure();
}

LogicalResult Parser::rejectIndexedUpdate(StringRef variable) {
  if (!tok.is(TokenKind::LBracket))
    return success();
  return error() << "'updates' assigns whole shared variables, so '" << variable
                 << "[...] = ...' is not supported; compute all of the new "
                    "value (e.g. with select or concatenate) and write "
                 << variable << " = ...";
}

std::string Parser::keywordHint(StringRef word, ArrayRef<StringRef> keywords) {
  return didYouMean(word, keywords);
}
