//===- ParserImpl.h - the graph-file parser's state ------------*- C++ -*-===//
//
// The recursive-descent parser shared by Parser.cpp (declarations, function
// bodies) and ExprParser.cpp (expressions, calls, keyword values). Internal
// to the front end; Parser.h is the interface.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_PARSERIMPL_H
#define TCC_COMPILER_FRONTEND_PARSERIMPL_H

#include "compiler/frontend/Expr.h"
#include "compiler/frontend/Lexer.h"
#include "compiler/frontend/Parser.h"
#include "compiler/frontend/Slicing.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace tcc::frontend::detail {

/// Deeper nesting than this is reported instead of recursed into.
constexpr unsigned kMaxNesting = 256;

/// The text from `begin` to `end` in one buffer.
inline llvm::StringRef span(llvm::StringRef first, llvm::StringRef last) {
  return llvm::StringRef(first.data(),
                         last.data() + last.size() - first.data());
}

class Parser {
public:
  Parser(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context,
         const GraphFileOptions &options);

  mlir::OwningOpRef<mlir::ModuleOp> parse();

private:
  /// One level of nesting while alive (a parenthesis, a call, a unary
  /// minus, the right side of '**'); `tooDeep` past kMaxNesting.
  class Nesting {
  public:
    explicit Nesting(unsigned &depth) : depth(depth) { ++depth; }
    ~Nesting() { --depth; }
    Nesting(const Nesting &) = delete;
    Nesting &operator=(const Nesting &) = delete;
    bool tooDeep() const { return depth > kMaxNesting; }

  private:
    unsigned &depth;
  };

  // Tokens and diagnostics.
  mlir::Location locOf(llvm::SMLoc loc);
  mlir::Location here() { return locOf(tok.loc()); }
  mlir::InFlightDiagnostic error() { return mlir::emitError(here()); }
  mlir::LogicalResult tooDeep();
  Token consume() {
    Token t = tok;
    tok = lexer.next();
    return t;
  }
  bool consumeIf(TokenKind kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }
  mlir::LogicalResult expect(TokenKind kind, llvm::StringRef context);
  mlir::LogicalResult unexpected(llvm::StringRef wanted,
                                 llvm::StringRef context);
  mlir::FailureOr<std::string> identifier(llvm::StringRef context);

  // Declarations (Parser.cpp).
  mlir::LogicalResult parseHeader();
  mlir::LogicalResult parseShared();
  mlir::LogicalResult parseFunction();
  mlir::LogicalResult parseSpecList(bool isOutput,
                                    llvm::SmallVectorImpl<TensorSpec> &specs);
  mlir::FailureOr<TensorSpec> parseSpec(bool isOutput);
  mlir::LogicalResult parseType(mlir::Type &elementType, tc::Shape &shape,
                                bool allowSymbols);
  mlir::FailureOr<mlir::DictionaryAttr> parseInitParams(tc::InitKind kind);
  mlir::FailureOr<mlir::Attribute>
  initParam(tc::InitKind kind, llvm::StringRef key, const AttrValue &value);

  // Function bodies (Parser.cpp).
  mlir::LogicalResult parseStatement();
  mlir::LogicalResult
  parseUpdates(std::vector<std::pair<std::string, TensorRef>> &updates,
               llvm::SmallVectorImpl<mlir::Location> &locs);

  // Expressions (ExprParser.cpp).
  mlir::FailureOr<Operand> parseExpr();
  mlir::FailureOr<Operand> parseComparison();
  mlir::FailureOr<Operand> parseOr();
  mlir::FailureOr<Operand> parseXor();
  mlir::FailureOr<Operand> parseAnd();
  /// One left-associative level of the logical operators: `next` operands
  /// joined by `op`.
  mlir::FailureOr<Operand>
  parseLogicalLevel(TokenKind op, mlir::FailureOr<Operand> (Parser::*next)());
  mlir::FailureOr<Operand> parseAdditive();
  mlir::FailureOr<Operand> parseMultiplicative();
  mlir::FailureOr<Operand> parseUnary();
  /// An atom followed by any number of indices (`x[0][1:]`,
  /// IndexParser.cpp).
  mlir::FailureOr<Operand> parsePrimary();
  /// A number, a name, a call or a parenthesized expression.
  mlir::FailureOr<Operand> parseAtom();
  /// `base[...]`, the current token being '['.
  mlir::FailureOr<Operand> parseIndex(const Operand &base);
  /// A bound in an index (`-1`, `N`, `2*N`), or nothing when the token
  /// cannot start one.
  mlir::FailureOr<std::optional<SliceBound>> parseIndexBound();
  mlir::FailureOr<Operand> parseCall(const Token &name);
  mlir::FailureOr<AttrValue> parseAttrValue();
  /// `grad(y, x)` or `grad(y, [x, z, ...])` after the name (GradParser.cpp):
  /// one gradient per value; `isList` says whether they were bracketed.
  mlir::FailureOr<llvm::SmallVector<TensorRef>> parseGradCall(const Token &name,
                                                              bool &isList);
  /// An error unless `name` may be assigned by a statement.
  mlir::LogicalResult checkAssignable(const Token &name);
  mlir::FailureOr<Operand> lookup(const Token &name);
  mlir::FailureOr<Operand> combine(const Token &op, Operand lhs, Operand rhs);
  /// `lhs & rhs`, `lhs | rhs` and `lhs ^ rhs`: bool tensors and true/false
  /// only.
  mlir::FailureOr<Operand> combineLogical(const Token &op, Operand lhs,
                                          Operand rhs);

  // Calls that take sizes, and calls of the file's own functions, which
  // are inlined (ParserCalls.cpp).
  /// A function of this file, kept so that later functions can call it:
  /// its declaration, and the lexer at the start of its body to parse the
  /// body again at each call.
  struct FunctionDef {
    llvm::SmallVector<TensorSpec> inputs, outputs;
    Lexer body{llvm::StringRef()};
    Token first;
    llvm::StringSet<> symbols;
    bool hasUpdates = false;
  };
  mlir::FailureOr<Operand> parseConstructorCall(const Token &name);
  /// A call of a function of this file in an expression (one output).
  mlir::FailureOr<Operand> parseFunctionCallExpr(const Token &name);
  /// Parses the arguments of a call of `name` (a function of this file)
  /// and inlines its body; returns its outputs in order.
  mlir::FailureOr<llvm::SmallVector<TensorRef>>
  parseFunctionCall(const Token &name);
  /// `a, b = f(x)`: `first` is the first name, already consumed.
  mlir::LogicalResult parseMultipleAssignment(const Token &first);
  /// Reports a call of `name`, which is not defined above; nullopt when
  /// `name` is no function of this file at all.
  std::optional<mlir::LogicalResult> reportUndefinedFunction(const Token &name);

  // Loops (ParserControlFlow.cpp).
  /// Whether the tokens ahead are `scan(` (no function of this file being
  /// called so).
  bool atScan();
  /// `a, b = scan(h = h0, x in xs, ...) { ... return next, out }`, the
  /// current token being 'scan'; `targets` are the names assigned.
  mlir::LogicalResult parseScan(llvm::ArrayRef<Token> targets);
  /// Whether the tokens ahead are `while(` (ParserWhile.cpp).
  bool atWhile();
  /// `x, n = while(x = x0, max_steps=50, cond=...) { ... return next }`,
  /// the current token being 'while'; `targets` are the names assigned.
  mlir::LogicalResult parseWhile(llvm::ArrayRef<Token> targets);

  // Shared variables advanced inside loops (ParserLoopUpdates.cpp).
  /// A variable a loop advanced, with its value after the loop.
  struct LoopUpdate {
    std::string name;
    TensorRef value;
    mlir::Location loc;
  };
  /// What one loop's body advances: its own updates block, and the loops
  /// inside it (the entries of `loopUpdates` from `innerUpdates` on).
  struct BodyUpdates {
    size_t innerUpdates = 0;
    std::vector<std::pair<std::string, TensorRef>> own;
    llvm::SmallVector<mlir::Location> ownLocs;
  };
  /// In a loop's body: parses its `updates { ... }` block when one starts
  /// here (true), which must come last, just before 'return'; `loop` names
  /// the loop ("scan's", "while loop's") for the message.
  mlir::FailureOr<bool> parseBodyUpdates(llvm::StringRef loop,
                                         BodyUpdates &updates);
  /// Gives the builder's open loop the variables its body advances
  /// (reported on failure), and returns them.
  mlir::FailureOr<std::vector<LoopUpdate>> advanceInLoop(BodyUpdates &updates);
  /// After the loop: its last `advanced.size()` results are the variables'
  /// final values, which the loop around (or the function) updates them
  /// with; drops them from `results`.
  void passUpdatesOut(llvm::ArrayRef<LoopUpdate> advanced,
                      llvm::SmallVectorImpl<TensorRef> &results);

  // What scan and while share (ParserLoopParts.cpp).
  /// A size option's value (`n_steps=`, `max_steps=`) after its '='.
  mlir::FailureOr<tc::Dim> parseLoopSize(mlir::Location loc,
                                         llvm::StringRef loop,
                                         llvm::StringRef option);
  /// Checks a name the loop `loop` ("scan", "while loop") declares: one
  /// that can be assigned, and not declared twice.
  mlir::LogicalResult declareLoopName(const Token &name, llvm::StringRef loop,
                                      llvm::StringSet<> &declared);
  /// A carried state's initial value, after `name =`.
  mlir::LogicalResult
  parseCarriedState(const Token &name,
                    llvm::SmallVectorImpl<std::string> &names,
                    llvm::SmallVectorImpl<TensorRef> &inits);
  /// A loop's body after its '{': statements, an optional updates block,
  /// `return` and its values (`returnLoc` where it stands), and the '}'.
  /// `whose` names the loop ("scan's"), `returns` what it returns.
  mlir::LogicalResult parseLoopBody(llvm::StringRef whose,
                                    llvm::StringRef returns,
                                    BodyUpdates &updates,
                                    llvm::SmallVectorImpl<Operand> &values,
                                    mlir::Location &returnLoc);

  // Messages for numpy habits (ParserHints.cpp); each succeeds when the
  // tokens ahead are not the habit it knows.
  /// `E[ids]` after the name `name`, with a tensor as the index.
  mlir::LogicalResult rejectTensorIndex(const Token &name);
  /// `x.T`, `x.astype(...)`, `x.shape` after the operand `base`.
  mlir::LogicalResult rejectAttribute(const Operand &base);
  /// `W[0] = ...` in the updates block.
  mlir::LogicalResult rejectIndexedUpdate(llvm::StringRef variable);
  /// "; did you mean 'func'?" for a misspelled keyword, or "".
  static std::string keywordHint(llvm::StringRef word,
                                 llvm::ArrayRef<llvm::StringRef> keywords);

  llvm::SourceMgr &sourceMgr;
  mlir::MLIRContext *context;
  GraphFileOptions options;
  Lexer lexer;
  Token tok;
  GraphBuilder builder;
  unsigned depth = 0;

  // The function being parsed.
  llvm::StringMap<TensorRef> scope;
  llvm::StringSet<> inputNames;
  llvm::StringSet<> symbols;
  /// Shared variables advanced inside the loops parsed so far (a loop
  /// body's `updates` block), with their final values: the function, or the
  /// loop around, updates them.
  std::vector<LoopUpdate> loopUpdates;
  /// The function being parsed.
  std::string currentName;
  /// The functions of the file parsed so far, and the names of all of them.
  llvm::StringMap<FunctionDef> functions;
  llvm::StringSet<> allFunctionNames;
  /// The functions being inlined, innermost last, and the caller's size
  /// for each dimension name of the innermost one.
  llvm::SmallVector<std::string> callStack;
  /// Calls inlined into the function being parsed (bounded: each call may
  /// call others more than once).
  unsigned inlinedCalls = 0;
  std::optional<mlir::Location> outerCallLoc;
  llvm::StringMap<tc::Dim> bindings;
};

} // namespace tcc::frontend::detail

#endif // TCC_COMPILER_FRONTEND_PARSERIMPL_H
