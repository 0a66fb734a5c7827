//===- ShapeChecks.cpp - evaluating the shape facts of a manifest --------===//

#include "runtime/exec/ShapeChecks.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

namespace tcc {

namespace {

using Step = SizeProgram::Step;

/// The step of an operator mark on the shunting-yard stack.
Step::Op stepOf(char mark) {
  switch (mark) {
  case '+':
    return Step::Op::Add;
  case '-':
    return Step::Op::Sub;
  case '*':
    return Step::Op::Mul;
  case '/':
    return Step::Op::Div;
  case 'm':
    return Step::Op::Min;
  default:
    return Step::Op::Max;
  }
}

int precedence(char op) { return op == '+' || op == '-' ? 1 : 2; }

/// The function a name before '(' calls, as its mark on the operator stack
/// ('m': min, 'M': max); 0 for another name, which is a symbol.
char functionMark(const std::string &name) {
  return name == "min" ? 'm' : name == "max" ? 'M' : 0;
}

/// Shunting-yard: `text` in reverse Polish order, or an error.
Result<SizeProgram> toPostfix(const std::string &text) {
  auto bad = [&](const std::string &why) {
    return Status::error(ErrorCode::InvalidArgument,
                         "size expression '" + text + "': " + why);
  };
  SizeProgram program;
  std::vector<Step> &out = program.steps;
  std::vector<char> ops;
  // Per open parenthesis: the commas seen in it (a function's takes one).
  std::vector<int> commas;
  size_t depth = 0; // operands on the evaluation stack
  bool expectOperand = true;
  auto popOp = [&]() -> Status {
    if (depth < 2)
      return bad("an operator lacks an operand");
    --depth;
    out.push_back({stepOf(ops.back()), 0, {}});
    ops.pop_back();
    return Status::success();
  };
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (expectOperand && std::isdigit((unsigned char)c)) {
      int64_t v = 0;
      for (; i < text.size() && std::isdigit((unsigned char)text[i]); ++i)
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, text[i] - '0', &v))
          return bad("a number overflows int64");
      out.push_back({Step::Op::Number, v, {}});
      ++depth;
      expectOperand = false;
    } else if (expectOperand && (std::isalpha((unsigned char)c) || c == '_')) {
      size_t start = i;
      while (i < text.size() &&
             (std::isalnum((unsigned char)text[i]) || text[i] == '_'))
        ++i;
      std::string name = text.substr(start, i - start);
      if (char mark = functionMark(name);
          mark && i < text.size() && text[i] == '(') {
        ops.push_back(mark);
        continue; // the '(' opens its arguments
      }
      out.push_back({Step::Op::Symbol, 0, name});
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
        TCC_RETURN_IF_ERROR(popOp());
      ops.push_back(c);
      expectOperand = true;
      ++i;
    } else if (!expectOperand && (c == ')' || c == ',')) {
      while (!ops.empty() && ops.back() != '(')
        TCC_RETURN_IF_ERROR(popOp());
      if (ops.empty())
        return bad(c == ')' ? "unbalanced ')'" : "',' outside min or max");
      bool inFunction = ops.size() >= 2 && (ops[ops.size() - 2] == 'm' ||
                                            ops[ops.size() - 2] == 'M');
      ++i;
      if (c == ',') {
        if (!inFunction || ++commas.back() > 1)
          return bad("min and max take two arguments");
        expectOperand = true;
        continue;
      }
      if (commas.back() != (inFunction ? 1 : 0))
        return bad("min and max take two arguments");
      ops.pop_back();
      commas.pop_back();
      if (inFunction)
        TCC_RETURN_IF_ERROR(popOp());
    } else {
      return bad("unexpected '" + std::string(1, c) + "'");
    }
  }
  if (expectOperand)
    return bad("incomplete");
  while (!ops.empty()) {
    if (ops.back() == '(' || ops.back() == 'm' || ops.back() == 'M')
      return bad("unbalanced '('");
    TCC_RETURN_IF_ERROR(popOp());
  }
  if (depth != 1)
    return bad("malformed");
  return program;
}

bool isNumber(const std::string &text) {
  if (text.empty())
    return false;
  for (char c : text)
    if (!std::isdigit((unsigned char)c))
      return false;
  return true;
}

/// "2*N = 6", or "6" for a plain number.
std::string describe(const std::string &text, int64_t value) {
  if (isNumber(text))
    return text;
  return text + " = " + std::to_string(value);
}

} // namespace

Status validateSizeExpression(const std::string &text) {
  return toPostfix(text).status();
}

Result<SizeProgram> parseSizeExpression(const std::string &text) {
  return toPostfix(text);
}

Result<int64_t> evaluateSizeProgram(const SizeProgram &program,
                                    const std::string &text,
                                    const Bindings &bindings) {
  // A parsed program is well formed: each operator finds two operands.
  std::vector<int64_t> stack;
  stack.reserve(program.steps.size());
  for (const Step &t : program.steps) {
    if (t.op == Step::Op::Number) {
      stack.push_back(t.number);
      continue;
    }
    if (t.op == Step::Op::Symbol) {
      const Bindings::Binding *b = bindings.find(t.symbol);
      if (!b)
        return Status::error(ErrorCode::Internal, "size expression '" + text +
                                                      "' uses " + t.symbol +
                                                      ", which no input binds");
      stack.push_back(b->size);
      continue;
    }
    if (stack.size() < 2)
      return Status::error(ErrorCode::Internal,
                           "size expression '" + text + "' is malformed");
    int64_t rhs = stack.back();
    stack.pop_back();
    int64_t &lhs = stack.back();
    bool overflow = false;
    switch (t.op) {
    case Step::Op::Add:
      overflow = __builtin_add_overflow(lhs, rhs, &lhs);
      break;
    case Step::Op::Sub:
      overflow = __builtin_sub_overflow(lhs, rhs, &lhs);
      break;
    case Step::Op::Mul:
      overflow = __builtin_mul_overflow(lhs, rhs, &lhs);
      break;
    case Step::Op::Min:
      lhs = std::min(lhs, rhs);
      break;
    case Step::Op::Max:
      lhs = std::max(lhs, rhs);
      break;
    default: // Div
      if (rhs == 0)
        return Status::error(ErrorCode::Internal,
                             "size expression '" + text + "' divides by 0");
      overflow = lhs == INT64_MIN && rhs == -1;
      if (!overflow)
        lhs /= rhs;
    }
    if (overflow)
      return Status::error(ErrorCode::Internal,
                           "size expression '" + text + "' overflows int64");
  }
  if (stack.size() != 1)
    return Status::error(ErrorCode::Internal,
                         "size expression '" + text + "' is malformed");
  return stack.back();
}

Result<int64_t> evaluateSizeExpression(const std::string &text,
                                       const Bindings &bindings) {
  TCC_ASSIGN_OR_RETURN(SizeProgram program, toPostfix(text));
  return evaluateSizeProgram(program, text, bindings);
}

const char *shapeCheckKindName(ShapeCheck::Kind kind) {
  switch (kind) {
  case ShapeCheck::Kind::Equal:
    return "eq";
  case ShapeCheck::Kind::AtMost:
    return "le";
  case ShapeCheck::Kind::Multiple:
    return "multiple";
  }
  return "eq";
}

bool parseShapeCheckKind(const std::string &name, ShapeCheck::Kind &kind) {
  for (ShapeCheck::Kind k : {ShapeCheck::Kind::Equal, ShapeCheck::Kind::AtMost,
                             ShapeCheck::Kind::Multiple})
    if (name == shapeCheckKindName(k)) {
      kind = k;
      return true;
    }
  return false;
}

Status checkShapes(const FunctionSpec &f, const Bindings &bindings) {
  for (const ShapeCheck &c : f.checks) {
    auto located = [&](const Status &s) {
      return Status::error(s.code(), "'" + f.name + "' at " + c.where + ": " +
                                         c.what + ": " + s.message());
    };
    Result<int64_t> lhs = evaluateSizeExpression(c.lhs, bindings);
    if (!lhs.ok())
      return located(lhs.status());
    Result<int64_t> rhs = evaluateSizeExpression(c.rhs, bindings);
    if (!rhs.ok())
      return located(rhs.status());
    int64_t a = lhs.value(), b = rhs.value();
    bool holds = false;
    switch (c.kind) {
    case ShapeCheck::Kind::Equal:
      holds = a == b;
      break;
    case ShapeCheck::Kind::AtMost:
      holds = a <= b;
      break;
    case ShapeCheck::Kind::Multiple:
      holds = b != 0 && a % b == 0;
      break;
    }
    if (!holds)
      return Status::error(ErrorCode::ShapeMismatch,
                           "'" + f.name + "' at " + c.where + ": " + c.what +
                               ": " + describe(c.lhs, a) + " vs " +
                               describe(c.rhs, b));
  }
  return Status::success();
}

} // namespace tcc
