//===- Lexer.h - tokens of graph files (.tg) -------------------*- C++ -*-===//

#ifndef TCC_COMPILER_FRONTEND_LEXER_H
#define TCC_COMPILER_FRONTEND_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace tcc::frontend {

/// The kinds of token in a graph file.
enum class TokenKind {
  Eof,
  Error, ///< An invalid character or malformed literal; text says why.
  Identifier,
  Integer,
  Float,
  BadNumber, ///< A malformed number, all of it: `2x`, `1e+`, `1.2.3`.
  String,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Assign, ///< =
  Arrow,  ///< ->
  Plus,
  Minus,
  Star,
  StarStar, ///< ** (power)
  Slash,
  EqEq,
  NotEq,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  Amp,   ///< & (logical and of bools)
  Pipe,  ///< | (logical or of bools)
  Caret, ///< ^ (logical xor of bools)
  Tilde, ///< ~ (logical not of bools)
  /// ... (every other axis, in an index)
  Ellipsis,
};

/// A token: its kind, its text in the buffer, and where it starts.
struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef text;
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(text.data()); }
  bool is(TokenKind k) const { return kind == k; }
  bool isKeyword(llvm::StringRef word) const {
    return kind == TokenKind::Identifier && text == word;
  }
};

/// A human-readable name of a token kind for diagnostics ("'->'").
llvm::StringRef describe(TokenKind kind);

/// The message for a BadNumber token: "invalid number '1e+' (an exponent
/// needs digits)"; with `inExpression`, a number that runs into a name gets
/// "invalid number '2x'; write 2 * x".
std::string describeBadNumber(llvm::StringRef text, bool inExpression);

/// Splits a buffer into tokens; `#` starts a comment to the end of the line,
/// and whitespace (newlines included) only separates tokens.
class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer) : buffer(buffer), pos(0) {}
  /// The next token; after the end, Eof forever.
  Token next();

private:
  Token make(TokenKind kind, size_t start) {
    return Token{kind, buffer.slice(start, pos)};
  }
  Token lexNumber(size_t start);
  Token lexString(size_t start);

  llvm::StringRef buffer;
  size_t pos;
};

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_LEXER_H
