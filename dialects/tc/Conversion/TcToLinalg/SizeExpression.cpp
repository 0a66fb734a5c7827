//===- SizeExpression.cpp - size expressions as index arithmetic ----------===//
//
// Shunting-yard without recursion, as the runtime's parser
// (runtime/exec/ShapeChecks.cpp): the text is first turned into reverse
// Polish steps, checked, and only then built, so that a malformed text
// creates no op.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/SizeExpression.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <string>

using namespace mlir;

namespace {

/// One step: a number, a symbol, or an operator mark ('+', '-', '*', '/',
/// 'm' for min, 'M' for max).
struct Step {
  char op = 0; // 0: number, 's': symbol
  int64_t number = 0;
  llvm::StringRef symbol;
};

int precedence(char op) { return op == '+' || op == '-' ? 1 : 2; }

/// `text` in reverse Polish order, or std::nullopt when malformed.
std::optional<llvm::SmallVector<Step>> toPostfix(llvm::StringRef text) {
  llvm::SmallVector<Step> out;
  llvm::SmallVector<char> ops;
  llvm::SmallVector<int> commas;
  size_t depth = 0;
  bool expectOperand = true;
  auto popOp = [&]() {
    if (depth < 2)
      return false;
    --depth;
    out.push_back({ops.back(), 0, {}});
    ops.pop_back();
    return true;
  };
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (expectOperand && llvm::isDigit(c)) {
      size_t start = i;
      while (i < text.size() && llvm::isDigit(text[i]))
        ++i;
      int64_t v;
      if (text.slice(start, i).getAsInteger(10, v))
        return std::nullopt;
      out.push_back({0, v, {}});
      ++depth;
      expectOperand = false;
    } else if (expectOperand && (llvm::isAlpha(c) || c == '_')) {
      size_t start = i;
      while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '_'))
        ++i;
      llvm::StringRef name = text.slice(start, i);
      if ((name == "min" || name == "max") && i < text.size() &&
          text[i] == '(') {
        ops.push_back(name == "min" ? 'm' : 'M');
        continue; // the '(' opens its arguments
      }
      out.push_back({'s', 0, name});
      ++depth;
      expectOperand = false;
    } else if (expectOperand && c == '(') {
      ops.push_back(c);
      commas.push_back(0);
      ++i;
    } else if (!expectOperand &&
               (c == '+' || c == '-' || c == '*' || c == '/')) {
      while (!ops.empty() && ops.back() != '(' &&
             precedence(ops.back()) >= precedence(c))
        if (!popOp())
          return std::nullopt;
      ops.push_back(c);
      expectOperand = true;
      ++i;
    } else if (!expectOperand && (c == ')' || c == ',')) {
      while (!ops.empty() && ops.back() != '(')
        if (!popOp())
          return std::nullopt;
      if (ops.empty())
        return std::nullopt;
      bool inFunction = ops.size() >= 2 && (ops[ops.size() - 2] == 'm' ||
                                            ops[ops.size() - 2] == 'M');
      ++i;
      if (c == ',') {
        if (!inFunction || ++commas.back() > 1)
          return std::nullopt;
        expectOperand = true;
        continue;
      }
      if (commas.back() != (inFunction ? 1 : 0))
        return std::nullopt;
      ops.pop_back();
      commas.pop_back();
      if (inFunction && !popOp())
        return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  if (expectOperand)
    return std::nullopt;
  while (!ops.empty()) {
    if (ops.back() == '(' || ops.back() == 'm' || ops.back() == 'M')
      return std::nullopt;
    if (!popOp())
      return std::nullopt;
  }
  if (depth != 1)
    return std::nullopt;
  return out;
}

} // namespace

Value tcc::tc::lowering::buildSizeExpression(
    OpBuilder &b, Location loc, llvm::StringRef text,
    llvm::function_ref<Value(llvm::StringRef)> symbol) {
  std::optional<llvm::SmallVector<Step>> steps = toPostfix(text);
  if (!steps)
    return {};
  // Every symbol first, so that an unknown one creates nothing.
  llvm::SmallVector<Value> symbols;
  for (const Step &s : *steps)
    if (s.op == 's') {
      Value v = symbol(s.symbol);
      if (!v)
        return {};
      symbols.push_back(v);
    }
  llvm::SmallVector<Value> stack;
  size_t nextSymbol = 0;
  for (const Step &s : *steps) {
    if (s.op == 0) {
      stack.push_back(b.create<arith::ConstantIndexOp>(loc, s.number));
      continue;
    }
    if (s.op == 's') {
      stack.push_back(symbols[nextSymbol++]);
      continue;
    }
    Value rhs = stack.pop_back_val(), lhs = stack.pop_back_val();
    switch (s.op) {
    case '+':
      stack.push_back(b.create<arith::AddIOp>(loc, lhs, rhs));
      break;
    case '-':
      stack.push_back(b.create<arith::SubIOp>(loc, lhs, rhs));
      break;
    case '*':
      stack.push_back(b.create<arith::MulIOp>(loc, lhs, rhs));
      break;
    case '/':
      stack.push_back(b.create<arith::DivSIOp>(loc, lhs, rhs));
      break;
    case 'm':
      stack.push_back(b.create<arith::MinSIOp>(loc, lhs, rhs));
      break;
    default:
      stack.push_back(b.create<arith::MaxSIOp>(loc, lhs, rhs));
    }
  }
  return stack.back();
}
