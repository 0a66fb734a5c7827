//===- ProgramText.h - a generated graph file, line by line ----*- C++ -*-===//
//
// The differential tester's programs are ordinary `.tg` files written in one
// fixed layout (one parameter, statement or update per line) so that the
// shrinker can drop and rewrite single lines and a failing program is
// directly a regression file. Each output and update line carries the error
// bound the generator derived for it (`# err=...`), and a header comment
// carries the run seed and the number of calls, so a file replays alone.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_DIFFTEST_PROGRAMTEXT_H
#define TCC_TEST_DIFFTEST_PROGRAMTEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcc::difftest {

/// An input or output of a function.
struct Param {
  std::string name;
  std::string type; ///< "f32[N, 4]"
  bool borrow = false;
  bool internal = false;
  /// Outputs: how far the compiled value may be from the reference's.
  double err = 0;
};

/// `target = expr`, in a body or in an updates block.
struct Statement {
  std::string target;
  std::string expr;
  /// Updates: the error bound of the new value.
  double err = 0;
};

struct FunctionText {
  std::string name;
  std::vector<Param> inputs, outputs;
  std::vector<Statement> body, updates;
};

struct SharedText {
  std::string name, type, init;
};

/// A whole program and how to run it.
struct ProgramText {
  /// Seeds the inputs, symbol sizes, shared values and borrow variants.
  uint64_t seed = 0;
  /// Number of calls in sequence (each picks a function).
  int calls = 3;
  /// Free comment lines (the failure a shrunk file reproduces).
  std::vector<std::string> notes;
  std::vector<SharedText> shared;
  std::vector<FunctionText> functions;

  /// The `.tg` text, header comments included.
  std::string print() const;
  /// Reads text that print() wrote (or a hand edit of it); nullopt and
  /// `error` on anything else.
  static std::optional<ProgramText> parse(const std::string &text,
                                          std::string &error);
  /// Number of lines a shrinker can remove (a size measure).
  size_t size() const;
};

} // namespace tcc::difftest

#endif // TCC_TEST_DIFFTEST_PROGRAMTEXT_H
