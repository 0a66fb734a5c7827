//===- Expr.cpp - values of graph-file expressions ------------------------===//

#include "compiler/frontend/Expr.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using llvm::APFloat;
using llvm::APInt;

/// An integer power wider than this many bits is computed in f64 instead;
/// no dtype holds it anyway.
constexpr unsigned kMaxExactBits = 4096;

/// `value` in the fewest bits that hold it as a signed number (at least 2).
static APInt shrink(const APInt &value) {
  return value.sextOrTrunc(std::max(2u, value.getSignificantBits()));
}

Literal Literal::ofInteger(APInt value) {
  Literal l;
  l.kind = Kind::Integer;
  l.integer = shrink(value);
  return l;
}

Literal Literal::ofFloat(double value) {
  Literal l;
  l.kind = Kind::Float;
  l.number = value;
  return l;
}

Literal Literal::ofBool(bool value) {
  Literal l;
  l.kind = Kind::Bool;
  l.boolean = value;
  return l;
}

/// The shortest decimal that reads back as `value`, with a '.0' when it
/// would otherwise look like an integer.
static std::string formatDouble(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char text[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof(text), "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value)
      break;
  }
  std::string result = text;
  if (result.find_first_of(".e") == std::string::npos)
    result += ".0";
  return result;
}

std::string Literal::str() const {
  switch (kind) {
  case Kind::Integer: {
    llvm::SmallString<32> text;
    integer.toStringSigned(text);
    return text.str().str();
  }
  case Kind::Float:
    return formatDouble(number);
  case Kind::Bool:
    return boolean ? "true" : "false";
  }
  return "";
}

/// "literal 0.5", or "literal 1 / 2 (= 0.5)" for a folded value.
static std::string describe(const Literal &literal, StringRef source) {
  std::string text = "literal " + source.str();
  if (literal.folded)
    text += " (= " + literal.str() + ")";
  return text;
}

FailureOr<Literal> frontend::parseNumber(Location loc, StringRef text,
                                         bool isInteger) {
  if (isInteger) {
    APInt value;
    if (text.getAsInteger(10, value))
      return emitError(loc) << "invalid number '" << text << "'";
    // getAsInteger reads the digits as unsigned; make room for the sign.
    return Literal::ofInteger(value.zext(value.getBitWidth() + 1));
  }
  APFloat value(APFloat::IEEEdouble());
  llvm::Expected<APFloat::opStatus> status =
      value.convertFromString(text, APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return emitError(loc) << "invalid number '" << text << "'";
  }
  if (*status & APFloat::opOverflow)
    return emitError(loc) << "number " << text << " is out of range for f64";
  Literal literal = Literal::ofFloat(value.convertToDouble());
  literal.decimal = text.str();
  return literal;
}

/// true/false are not numbers.
static InFlightDiagnostic boolArithmetic(Location loc) {
  return emitError(loc) << "arithmetic on true/false is not defined";
}

FailureOr<Literal> frontend::negate(Location loc, const Literal &literal) {
  Literal result = literal;
  switch (literal.kind) {
  case Literal::Kind::Bool:
    return boolArithmetic(loc);
  case Literal::Kind::Integer:
    result.integer =
        shrink(-literal.integer.sext(literal.integer.getBitWidth() + 1));
    break;
  case Literal::Kind::Float:
    result.number = -literal.number;
    if (!result.decimal.empty())
      result.decimal = StringRef(result.decimal).starts_with("-")
                           ? result.decimal.substr(1)
                           : "-" + result.decimal;
    break;
  }
  return result;
}

/// base ** exponent in exact integers, or nothing when the exponent is
/// negative or the result would be too wide.
static std::optional<APInt> exactPower(const APInt &base,
                                       const APInt &exponent) {
  if (exponent.isNegative())
    return std::nullopt;
  // 0, 1 and -1 stay small whatever the exponent.
  if (exponent.isZero() || base.isOne())
    return APInt(2, 1);
  if (base.isZero())
    return base;
  if (base.isAllOnes())
    return exponent[0] ? base : APInt(2, 1);
  uint64_t bits = base.getSignificantBits();
  if (exponent.getActiveBits() > 32 ||
      bits * exponent.getZExtValue() > kMaxExactBits)
    return std::nullopt;
  uint64_t e = exponent.getZExtValue();
  unsigned width = bits * std::max<uint64_t>(e, 1) + 2;
  APInt result(width, 1), square = base.sext(width);
  for (; e; e >>= 1) {
    if (e & 1)
      result *= square;
    if (e > 1)
      square *= square;
  }
  return result;
}

/// A literal as an f64 (an integer rounds once).
static double toDouble(const Literal &literal) {
  if (literal.kind == Literal::Kind::Integer)
    return literal.integer.signedRoundToDouble();
  return literal.number;
}

FailureOr<Literal> frontend::fold(Location loc, BinaryKind op,
                                  const Literal &lhs, const Literal &rhs,
                                  StringRef source) {
  if (lhs.kind == Literal::Kind::Bool || rhs.kind == Literal::Kind::Bool)
    return boolArithmetic(loc);
  std::optional<Literal> result;
  if (lhs.kind == Literal::Kind::Integer &&
      rhs.kind == Literal::Kind::Integer) {
    unsigned width =
        std::max(lhs.integer.getBitWidth(), rhs.integer.getBitWidth()) + 1;
    APInt a = lhs.integer.sext(width), b = rhs.integer.sext(width);
    switch (op) {
    case BinaryKind::Add:
      result = Literal::ofInteger(a + b);
      break;
    case BinaryKind::Sub:
      result = Literal::ofInteger(a - b);
      break;
    case BinaryKind::Mul: {
      unsigned wide = lhs.integer.getBitWidth() + rhs.integer.getBitWidth();
      result =
          Literal::ofInteger(lhs.integer.sext(wide) * rhs.integer.sext(wide));
      break;
    }
    case BinaryKind::Pow:
      if (std::optional<APInt> p = exactPower(lhs.integer, rhs.integer))
        result = Literal::ofInteger(*p);
      break;
    default:
      break;
    }
  }
  if (!result) {
    double a = toDouble(lhs), b = toDouble(rhs), value;
    // An integer beyond f64 (10 ** 400) cannot take part in float math.
    auto beyondF64 = [](const Literal &l, double d) {
      return l.kind == Literal::Kind::Integer && std::isinf(d);
    };
    if (beyondF64(lhs, a) || beyondF64(rhs, b))
      return emitError(loc)
             << "literal " << source << " is out of range for f64";
    switch (op) {
    case BinaryKind::Add:
      value = a + b;
      break;
    case BinaryKind::Sub:
      value = a - b;
      break;
    case BinaryKind::Mul:
      value = a * b;
      break;
    case BinaryKind::Div:
      value = a / b;
      break;
    case BinaryKind::Pow:
      value = std::pow(a, b);
      break;
    default:
      return emitError(loc) << "this operator does not fold";
    }
    // inf from finite operands is an overflow, except for a division by
    // zero (or 0 to a negative power), which IEEE defines.
    bool pole =
        (op == BinaryKind::Div && b == 0) || (op == BinaryKind::Pow && a == 0);
    if (std::isinf(value) && std::isfinite(a) && std::isfinite(b) && !pole)
      return emitError(loc)
             << "literal " << source << " is out of range for f64";
    result = Literal::ofFloat(value);
  }
  result->folded = true;
  return *result;
}

TensorRef frontend::materialize(GraphBuilder &builder, const Operand &operand,
                                Type elementType) {
  if (!operand.isLiteral())
    return operand.tensor;
  const Literal &literal = *operand.literal;
  Builder b(builder.getContext());
  if (elementType.isInteger(1)) {
    if (literal.kind != Literal::Kind::Bool) {
      emitError(operand.loc) << "a number cannot stand for a bool here; "
                                "write true or false";
      return {};
    }
    return builder.constant(operand.loc, b.getBoolAttr(literal.boolean));
  }
  if (literal.kind == Literal::Kind::Bool) {
    emitError(operand.loc) << "true/false cannot stand for a "
                           << elementTypeName(elementType) << " value";
    return {};
  }
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    APFloat value(floatType.getFloatSemantics());
    APFloat::opStatus status = APFloat::opOK;
    if (literal.kind == Literal::Kind::Integer) {
      status = value.convertFromAPInt(literal.integer, /*IsSigned=*/true,
                                      APFloat::rmNearestTiesToEven);
    } else if (!literal.decimal.empty()) {
      llvm::Expected<APFloat::opStatus> parsed = value.convertFromString(
          literal.decimal, APFloat::rmNearestTiesToEven);
      if (!parsed)
        llvm::consumeError(parsed.takeError());
      else
        status = *parsed;
    } else {
      bool losesInfo = false;
      value = APFloat(literal.number);
      status = value.convert(floatType.getFloatSemantics(),
                             APFloat::rmNearestTiesToEven, &losesInfo);
    }
    if (status & APFloat::opOverflow) {
      emitError(operand.loc)
          << describe(literal, operand.source) << " is out of range for "
          << elementTypeName(elementType);
      return {};
    }
    return builder.constant(operand.loc, b.getFloatAttr(floatType, value));
  }
  auto intType = dyn_cast<IntegerType>(elementType);
  unsigned width = intType ? intType.getWidth() : 0;
  if (!intType || literal.kind != Literal::Kind::Integer ||
      !literal.integer.isSignedIntN(width)) {
    emitError(operand.loc) << describe(literal, operand.source)
                           << " is not a valid " << elementTypeName(elementType)
                           << " value";
    return {};
  }
  return builder.constant(
      operand.loc,
      b.getIntegerAttr(elementType, literal.integer.sextOrTrunc(width)));
}

Type frontend::firstElementType(ArrayRef<Operand> operands) {
  for (const Operand &o : operands)
    if (!o.isLiteral() && o.tensor)
      return o.tensor.elementType();
  return {};
}

/// The f64 functions that fold on any number literal into a float.
static double (*floatFunction(StringRef name))(double) {
  return llvm::StringSwitch<double (*)(double)>(name)
      .Case("exp", [](double x) { return std::exp(x); })
      .Case("log", [](double x) { return std::log(x); })
      .Case("tanh", [](double x) { return std::tanh(x); })
      .Case("sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); })
      .Case("sqrt", [](double x) { return std::sqrt(x); })
      .Case("rsqrt", [](double x) { return 1.0 / std::sqrt(x); })
      .Case("erf", [](double x) { return std::erf(x); })
      .Case("log1p", [](double x) { return std::log1p(x); })
      .Case("expm1", [](double x) { return std::expm1(x); })
      .Case("softplus",
            [](double x) {
              return std::fmax(x, 0.0) + std::log1p(std::exp(-std::fabs(x)));
            })
      .Case("sin", [](double x) { return std::sin(x); })
      .Case("cos", [](double x) { return std::cos(x); })
      .Case("floor", [](double x) { return std::floor(x); })
      .Case("ceil", [](double x) { return std::ceil(x); })
      // The default rounding mode: to nearest, ties to even.
      .Case("round", [](double x) { return std::nearbyint(x); })
      .Default(nullptr);
}

/// `a < b` for two number literals, exact for integers.
static bool less(const Literal &a, const Literal &b) {
  if (a.kind == Literal::Kind::Integer && b.kind == Literal::Kind::Integer) {
    unsigned width = std::max(a.integer.getBitWidth(), b.integer.getBitWidth());
    return a.integer.sext(width).slt(b.integer.sext(width));
  }
  return toDouble(a) < toDouble(b);
}

/// maximum/minimum of number literals; a NaN wins, as in numpy.
static Literal extremum(const Literal &a, const Literal &b, bool max) {
  for (const Literal *l : {&a, &b})
    if (l->kind == Literal::Kind::Float && std::isnan(l->number))
      return *l;
  bool pickB = max ? less(a, b) : less(b, a);
  return pickB ? b : a;
}

std::optional<FailureOr<Literal>> frontend::foldCall(const CallSite &call,
                                                     StringRef source) {
  if (call.args.empty() || !call.kwargs.empty() ||
      !llvm::all_of(call.args, [](const Operand &o) { return o.isLiteral(); }))
    return std::nullopt;
  StringRef name = call.name;
  size_t n = call.args.size();
  Location loc = call.loc;
  auto arg = [&](size_t i) -> const Literal & { return *call.args[i].literal; };
  auto anyBool = [&] {
    return llvm::any_of(call.args, [](const Operand &o) {
      return o.literal->kind == Literal::Kind::Bool;
    });
  };
  auto done = [](Literal l) -> std::optional<FailureOr<Literal>> {
    l.folded = true;
    return FailureOr<Literal>(l);
  };
  // Logic on true/false.
  bool isLogical = name == "logical_and" || name == "logical_or" ||
                   name == "logical_xor" || name == "logical_not";
  if (isLogical && n == (name == "logical_not" ? 1u : 2u)) {
    for (const Operand &o : call.args)
      if (o.literal->kind != Literal::Kind::Bool)
        return FailureOr<Literal>(emitError(o.loc)
                                  << "'" << name << "' needs true/false, got "
                                  << describe(*o.literal, o.source));
    bool a = arg(0).boolean, b = n == 2 && arg(1).boolean;
    bool value = name == "logical_and"   ? a && b
                 : name == "logical_or"  ? a || b
                 : name == "logical_xor" ? a != b
                                         : !a;
    return done(Literal::ofBool(value));
  }
  // Everything else is arithmetic.
  std::optional<BinaryKind> binary =
      llvm::StringSwitch<std::optional<BinaryKind>>(name)
          .Case("add", BinaryKind::Add)
          .Case("sub", BinaryKind::Sub)
          .Case("mul", BinaryKind::Mul)
          .Case("div", BinaryKind::Div)
          .Case("pow", BinaryKind::Pow)
          .Default(std::nullopt);
  double (*fn)(double) = floatFunction(name);
  bool exact =
      name == "neg" || name == "abs" || name == "relu" || name == "sign";
  bool extreme = name == "maximum" || name == "minimum";
  unsigned arity = fn || exact         ? 1
                   : binary || extreme ? 2
                   : name == "clip"    ? 3
                                       : 0;
  if (arity == 0 || n != arity)
    return std::nullopt;
  if (anyBool())
    return FailureOr<Literal>(boolArithmetic(loc));
  if (binary)
    return FailureOr<Literal>(fold(loc, *binary, arg(0), arg(1), source));
  if (extreme)
    return done(extremum(arg(0), arg(1), name == "maximum"));
  if (name == "clip")
    return done(
        extremum(extremum(arg(0), arg(1), /*max=*/true), arg(2), false));
  const Literal &x = arg(0);
  if (exact && x.kind == Literal::Kind::Integer) {
    APInt zero(2, 0);
    Literal zeroLiteral = Literal::ofInteger(zero);
    bool negative = x.integer.isNegative();
    if (name == "neg" || (name == "abs" && negative)) {
      FailureOr<Literal> negated = negate(loc, x);
      if (failed(negated))
        return negated;
      return done(*negated);
    }
    if (name == "relu" && negative)
      return done(zeroLiteral);
    if (name == "sign")
      return done(Literal::ofInteger(APInt(2,
                                           x.integer.isZero() ? 0
                                           : negative         ? -1
                                                              : 1,
                                           true)));
    return done(x);
  }
  double v = toDouble(x), value;
  if (exact) {
    value = name == "neg"             ? -v
            : name == "abs"           ? std::fabs(v)
            : name == "relu"          ? (std::isnan(v) || v > 0 ? v : 0.0)
            : std::isnan(v) || v == 0 ? v
                                      : (v > 0 ? 1.0 : -1.0);
  } else {
    if (x.kind == Literal::Kind::Integer && std::isinf(v))
      return FailureOr<Literal>(emitError(loc) << "literal " << source
                                               << " is out of range for f64");
    value = fn(v);
    // log(0) and log1p(-1) are -inf by definition; any other inf from a
    // finite argument is an overflow.
    bool pole = (name == "log" || name == "log1p") && value < 0;
    if (std::isinf(value) && std::isfinite(v) && !pole)
      return FailureOr<Literal>(emitError(loc) << "literal " << source
                                               << " is out of range for f64");
  }
  return done(Literal::ofFloat(value));
}
