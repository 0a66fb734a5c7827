//===- Lexer.cpp - tokens of graph files (.tg) ----------------------------===//

#include "compiler/frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace tcc::frontend;
using llvm::StringRef;

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
  case TokenKind::BadNumber:
    return "invalid number";
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
  case TokenKind::Ellipsis:
    return "'...'";
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
  case TokenKind::Amp:
    return "'&'";
  case TokenKind::Pipe:
    return "'|'";
  case TokenKind::Caret:
    return "'^'";
  case TokenKind::Tilde:
    return "'~'";
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
  if (c == '.' && buffer.substr(pos).starts_with("..")) {
    pos += 2;
    return make(TokenKind::Ellipsis, start);
  }
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
  case '&':
    return make(TokenKind::Amp, start);
  case '|':
    return make(TokenKind::Pipe, start);
  case '^':
    return make(TokenKind::Caret, start);
  case '~':
    return make(TokenKind::Tilde, start);
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

/// The length of the number at the start of `text`: digits, an optional
/// '.' and digits, an optional exponent with digits. Sets `isFloat`.
static size_t scanNumber(StringRef text, bool &isFloat) {
  size_t pos = 0;
  auto digits = [&] {
    while (pos < text.size() && llvm::isDigit(text[pos]))
      ++pos;
  };
  isFloat = false;
  digits();
  if (pos < text.size() && text[pos] == '.') {
    isFloat = true;
    ++pos;
    digits();
  }
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    size_t exponent = pos + 1;
    if (exponent < text.size() &&
        (text[exponent] == '+' || text[exponent] == '-'))
      ++exponent;
    if (exponent < text.size() && llvm::isDigit(text[exponent])) {
      isFloat = true;
      pos = exponent;
      digits();
    }
  }
  return pos;
}

static bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

Token Lexer::lexNumber(size_t start) {
  bool isFloat;
  pos = start + scanNumber(buffer.drop_front(start), isFloat);
  // A number that runs into a name, a '.' or a sign of a missing exponent
  // (`2x`, `1.2.3`, `1e+`) is one invalid token, all of it.
  bool bad = false;
  while (pos < buffer.size() &&
         (isNameChar(buffer[pos]) || buffer[pos] == '.' ||
          ((buffer[pos] == '+' || buffer[pos] == '-') &&
           (buffer[pos - 1] == 'e' || buffer[pos - 1] == 'E')))) {
    bad = true;
    ++pos;
  }
  if (bad)
    return make(TokenKind::BadNumber, start);
  return make(isFloat ? TokenKind::Float : TokenKind::Integer, start);
}

std::string tcc::frontend::describeBadNumber(StringRef text,
                                             bool inExpression) {
  std::string message = "invalid number '" + text.str() + "'";
  bool isFloat;
  size_t length = scanNumber(text, isFloat);
  StringRef number = text.take_front(length), rest = text.drop_front(length);
  if (!rest.empty() && (rest[0] == 'e' || rest[0] == 'E') &&
      (rest.size() == 1 || rest[1] == '+' || rest[1] == '-' ||
       llvm::isDigit(rest[1])))
    return message + " (an exponent needs digits)";
  bool isName = !rest.empty() && !llvm::isDigit(rest[0]) &&
                llvm::all_of(rest, isNameChar);
  if (inExpression && !number.empty() && isName)
    return message + "; write " + number.str() + " * " + rest.str();
  return message;
}

Token Lexer::lexString(size_t start) {
  while (pos < buffer.size() && buffer[pos] != '"' && buffer[pos] != '\n')
    ++pos;
  if (pos >= buffer.size() || buffer[pos] != '"')
    return make(TokenKind::Error, start);
  ++pos;
  return make(TokenKind::String, start);
}
