//===- Lexer.cpp - tokens of graph files (.tg) ----------------------------===//

#include "compiler/frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace tcc::frontend;

llvm::StringRef tcc::frontend::describe(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Error:
    return "invalid token";
  case TokenKind::Identifier:
    return "identifier";
  case TokenKind::Integer:
    return "integer";
  case TokenKind::Float:
    return "number";
  case TokenKind::String:
    return "string";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Assign:
    return "'='";
  case TokenKind::Arrow:
    return "'->'";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::StarStar:
    return "'**'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::EqEq:
    return "'=='";
  case TokenKind::NotEq:
    return "'!='";
  case TokenKind::Less:
    return "'<'";
  case TokenKind::LessEq:
    return "'<='";
  case TokenKind::Greater:
    return "'>'";
  case TokenKind::GreaterEq:
    return "'>='";
  }
  return "token";
}

Token Lexer::next() {
  // Skip whitespace and comments.
  while (pos < buffer.size()) {
    char c = buffer[pos];
    if (c == '#') {
      while (pos < buffer.size() && buffer[pos] != '\n')
        ++pos;
    } else if (llvm::isSpace(c)) {
      ++pos;
    } else {
      break;
    }
  }
  size_t start = pos;
  if (pos >= buffer.size())
    return Token{TokenKind::Eof, buffer.substr(buffer.size())};

  char c = buffer[pos++];
  auto peekIs = [&](char expected) {
    if (pos < buffer.size() && buffer[pos] == expected) {
      ++pos;
      return true;
    }
    return false;
  };
  if (llvm::isAlpha(c) || c == '_') {
    while (pos < buffer.size() &&
           (llvm::isAlnum(buffer[pos]) || buffer[pos] == '_'))
      ++pos;
    return make(TokenKind::Identifier, start);
  }
  if (llvm::isDigit(c) ||
      (c == '.' && pos < buffer.size() && llvm::isDigit(buffer[pos])))
    return lexNumber(start);
  switch (c) {
  case '"':
    return lexString(start);
  case '(':
    return make(TokenKind::LParen, start);
  case ')':
    return make(TokenKind::RParen, start);
  case '[':
    return make(TokenKind::LBracket, start);
  case ']':
    return make(TokenKind::RBracket, start);
  case '{':
    return make(TokenKind::LBrace, start);
  case '}':
    return make(TokenKind::RBrace, start);
  case ',':
    return make(TokenKind::Comma, start);
  case ':':
    return make(TokenKind::Colon, start);
  case '+':
    return make(TokenKind::Plus, start);
  case '/':
    return make(TokenKind::Slash, start);
  case '-':
    return make(peekIs('>') ? TokenKind::Arrow : TokenKind::Minus, start);
  case '*':
    return make(peekIs('*') ? TokenKind::StarStar : TokenKind::Star, start);
  case '=':
    return make(peekIs('=') ? TokenKind::EqEq : TokenKind::Assign, start);
  case '!':
    if (peekIs('='))
      return make(TokenKind::NotEq, start);
    break;
  case '<':
    return make(peekIs('=') ? TokenKind::LessEq : TokenKind::Less, start);
  case '>':
    return make(peekIs('=') ? TokenKind::GreaterEq : TokenKind::Greater, start);
  default:
    break;
  }
  return make(TokenKind::Error, start);
}

Token Lexer::lexNumber(size_t start) {
  bool isFloat = false;
  auto digits = [&] {
    while (pos < buffer.size() && llvm::isDigit(buffer[pos]))
      ++pos;
  };
  pos = start;
  digits();
  if (pos < buffer.size() && buffer[pos] == '.') {
    isFloat = true;
    ++pos;
    digits();
  }
  if (pos < buffer.size() && (buffer[pos] == 'e' || buffer[pos] == 'E')) {
    size_t mark = pos++;
    if (pos < buffer.size() && (buffer[pos] == '+' || buffer[pos] == '-'))
      ++pos;
    if (pos < buffer.size() && llvm::isDigit(buffer[pos])) {
      isFloat = true;
      digits();
    } else {
      pos = mark + 1;
      return make(TokenKind::Error, start);
    }
  }
  // A number runs straight into a name: `2x` is a typo, not `2 * x`.
  if (pos < buffer.size() && (llvm::isAlpha(buffer[pos]) || buffer[pos] == '_'))
    return make(TokenKind::Error, start);
  return make(isFloat ? TokenKind::Float : TokenKind::Integer, start);
}

Token Lexer::lexString(size_t start) {
  while (pos < buffer.size() && buffer[pos] != '"' && buffer[pos] != '\n')
    ++pos;
  if (pos >= buffer.size() || buffer[pos] != '"')
    return make(TokenKind::Error, start);
  ++pos;
  return make(TokenKind::String, start);
}
