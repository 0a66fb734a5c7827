//===- Elementwise.cpp - elementwise tc ops in the reference --------------===//

#include "test/reference/Kernels.h"

#include "dialects/tc/IR/TcOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference::detail {

namespace {

enum class Unary {
  Neg,
  Abs,
  Relu,
  Sign,
  Exp,
  Log,
  Tanh,
  Sigmoid,
  Sqrt,
  Rsqrt,
  Erf,
  Log1p,
  Expm1,
  Softplus,
  Sin,
  Cos,
  Floor,
  Ceil,
  Round
};
enum class Binary { Add, Sub, Mul, Div, Pow, Maximum, Minimum };

double unaryFloat(Unary kind, double x) {
  switch (kind) {
  case Unary::Neg:
    return -x;
  case Unary::Abs:
    return std::fabs(x);
  case Unary::Relu:
    return std::isnan(x) ? x : (x > 0 ? x : 0.0);
  case Unary::Exp:
    return std::exp(x);
  case Unary::Log:
    return std::log(x);
  case Unary::Tanh:
    return std::tanh(x);
  case Unary::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case Unary::Sqrt:
    return std::sqrt(x);
  case Unary::Rsqrt:
    return 1.0 / std::sqrt(x);
  case Unary::Sign:
    return std::isnan(x) || x == 0 ? x : (x > 0 ? 1.0 : -1.0);
  case Unary::Erf:
    return std::erf(x);
  case Unary::Log1p:
    return std::log1p(x);
  case Unary::Expm1:
    return std::expm1(x);
  case Unary::Softplus:
    // log(1 + e^x) without overflow: for large x, x + log1p(e^-x).
    return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  case Unary::Sin:
    return std::sin(x);
  case Unary::Cos:
    return std::cos(x);
  case Unary::Floor:
    return std::floor(x);
  case Unary::Ceil:
    return std::ceil(x);
  case Unary::Round:
    // numpy's round: ties to even, which is std::nearbyint in the default
    // rounding mode.
    return std::nearbyint(x);
  }
  return x;
}

__int128 unaryInteger(Operation &op, Unary kind, __int128 x) {
  switch (kind) {
  case Unary::Neg:
    return -x;
  case Unary::Abs:
    return x < 0 ? -x : x;
  case Unary::Relu:
    return x > 0 ? x : 0;
  case Unary::Sign:
    return (x > 0) - (x < 0);
  default:
    fail(op, "is not defined on integers");
  }
}

double binaryFloat(Binary kind, double a, double b) {
  switch (kind) {
  case Binary::Add:
    return a + b;
  case Binary::Sub:
    return a - b;
  case Binary::Mul:
    return a * b;
  case Binary::Div:
    return a / b;
  case Binary::Pow:
    return std::pow(a, b);
  case Binary::Maximum:
    // numpy's maximum: NaN propagates.
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    return a > b ? a : b;
  case Binary::Minimum:
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    return a < b ? a : b;
  }
  return 0;
}

__int128 binaryInteger(Operation &op, Binary kind, __int128 a, __int128 b) {
  switch (kind) {
  case Binary::Add:
    return a + b;
  case Binary::Sub:
    return a - b;
  case Binary::Mul:
    return a * b;
  case Binary::Div:
    if (b == 0)
      fail(op, "integer division by zero");
    return a / b; // C++ truncates toward zero, as tc.div does.
  case Binary::Pow: {
    if (b < 0)
      fail(op, "negative exponent " + std::to_string(int64_t(b)) +
                   " of an integer power");
    __int128 result = 1;
    const __int128 limit = __int128(1) << 64;
    for (__int128 i = 0; i < b; ++i) {
      result *= a;
      if (result > limit || result < -limit)
        fail(op, "integer power overflows");
      if (result == 0 || result == 1)
        break;
    }
    if (result == 1 && a == -1)
      result = (b % 2) ? -1 : 1;
    return result;
  }
  case Binary::Maximum:
    return a > b ? a : b;
  case Binary::Minimum:
    return a < b ? a : b;
  }
  return 0;
}

std::optional<Unary> unaryKind(Operation &op) {
  if (isa<NegOp>(op))
    return Unary::Neg;
  if (isa<AbsOp>(op))
    return Unary::Abs;
  if (isa<ReluOp>(op))
    return Unary::Relu;
  if (isa<ExpOp>(op))
    return Unary::Exp;
  if (isa<LogOp>(op))
    return Unary::Log;
  if (isa<TanhOp>(op))
    return Unary::Tanh;
  if (isa<SigmoidOp>(op))
    return Unary::Sigmoid;
  if (isa<SqrtOp>(op))
    return Unary::Sqrt;
  if (isa<RsqrtOp>(op))
    return Unary::Rsqrt;
  if (isa<SignOp>(op))
    return Unary::Sign;
  if (isa<ErfOp>(op))
    return Unary::Erf;
  if (isa<Log1pOp>(op))
    return Unary::Log1p;
  if (isa<Expm1Op>(op))
    return Unary::Expm1;
  if (isa<SoftplusOp>(op))
    return Unary::Softplus;
  if (isa<SinOp>(op))
    return Unary::Sin;
  if (isa<CosOp>(op))
    return Unary::Cos;
  if (isa<FloorOp>(op))
    return Unary::Floor;
  if (isa<CeilOp>(op))
    return Unary::Ceil;
  if (isa<RoundOp>(op))
    return Unary::Round;
  return std::nullopt;
}

std::optional<Binary> binaryKind(Operation &op) {
  if (isa<AddOp>(op))
    return Binary::Add;
  if (isa<SubOp>(op))
    return Binary::Sub;
  if (isa<MulOp>(op))
    return Binary::Mul;
  if (isa<DivOp>(op))
    return Binary::Div;
  if (isa<PowOp>(op))
    return Binary::Pow;
  if (isa<MaximumOp>(op))
    return Binary::Maximum;
  if (isa<MinimumOp>(op))
    return Binary::Minimum;
  return std::nullopt;
}

bool compare(ComparePredicate p, double a, double b) {
  switch (p) {
  case ComparePredicate::eq:
    return a == b;
  case ComparePredicate::ne:
    return a != b;
  case ComparePredicate::lt:
    return a < b;
  case ComparePredicate::le:
    return a <= b;
  case ComparePredicate::gt:
    return a > b;
  case ComparePredicate::ge:
    return a >= b;
  }
  return false;
}

/// Evaluates `fn(values of the operands)` elementwise with broadcasting.
template <class Fn>
RefTensor broadcastMap(Operation &op, Operands operands, DTypeKind dtype,
                       Fn fn) {
  SmallVector<Value> values(op.getOperands());
  std::vector<int64_t> shape = broadcastShape(op, values, operands);
  std::vector<std::vector<int64_t>> strides;
  for (const RefTensor *t : operands)
    strides.push_back(broadcastStrides(t->shape, shape));
  RefTensor result;
  result.dtype = dtype;
  result.shape = shape;
  result.data.resize(size_t(numelOf(shape)));
  std::vector<double> args(operands.size());
  forEachIndex(shape, strides,
               [&](int64_t linear, const std::vector<int64_t> &offsets) {
                 for (size_t k = 0; k < operands.size(); ++k)
                   args[k] = operands[k]->data[size_t(offsets[k])];
                 result.data[size_t(linear)] = fn(args);
               });
  return result;
}

/// Float to integer, truncating toward zero, checked against the range.
double castToInteger(Operation &op, DTypeKind to, double x) {
  double t = std::trunc(x);
  if (!(std::fabs(t) < 9.2233720368547758e18))
    fail(op, "casts " + std::to_string(x) + " out of the range of " +
                 dtypeKindName(to));
  return checkedInteger(op, to, int64_t(t));
}

} // namespace

std::optional<RefTensor> evalElementwise(Operation &op, Operands operands) {
  DTypeKind dtype = resultDType(op);
  if (std::optional<Unary> kind = unaryKind(op)) {
    const RefTensor &x = *operands[0];
    RefTensor result;
    result.dtype = dtype;
    result.shape = x.shape;
    result.data.resize(x.data.size());
    for (size_t i = 0; i < x.data.size(); ++i)
      result.data[i] =
          isFloat(dtype)
              ? roundTo(dtype, unaryFloat(*kind, x.data[i]))
              : checkedInteger(op, dtype,
                               unaryInteger(op, *kind, asInteger(x.data[i])));
    return result;
  }
  if (std::optional<Binary> kind = binaryKind(op)) {
    return broadcastMap(op, operands, dtype, [&](llvm::ArrayRef<double> v) {
      if (isFloat(dtype))
        return roundTo(dtype, binaryFloat(*kind, v[0], v[1]));
      return checkedInteger(
          op, dtype,
          binaryInteger(op, *kind, asInteger(v[0]), asInteger(v[1])));
    });
  }
  if (auto cmp = dyn_cast<CmpOp>(op)) {
    ComparePredicate p = cmp.getPredicate();
    return broadcastMap(op, operands, DTypeKind::I1,
                        [&](llvm::ArrayRef<double> v) {
                          return compare(p, v[0], v[1]) ? 1.0 : 0.0;
                        });
  }
  if (isa<NotOp>(op)) {
    RefTensor result = *operands[0];
    for (double &v : result.data)
      v = v != 0 ? 0.0 : 1.0;
    return result;
  }
  if (isa<AndOp, OrOp, XorOp>(op)) {
    bool isAnd = isa<AndOp>(op), isOr = isa<OrOp>(op);
    return broadcastMap(op, operands, DTypeKind::I1,
                        [&](llvm::ArrayRef<double> v) {
                          bool a = v[0] != 0, b = v[1] != 0;
                          bool r = isAnd ? a && b : isOr ? a || b : a != b;
                          return r ? 1.0 : 0.0;
                        });
  }
  if (isa<ClipOp>(op)) {
    // numpy's clip: minimum(maximum(x, low), high), NaN propagating.
    return broadcastMap(op, operands, dtype, [&](llvm::ArrayRef<double> v) {
      double lo = binaryFloat(Binary::Maximum, v[0], v[1]);
      return binaryFloat(Binary::Minimum, lo, v[2]);
    });
  }
  if (isa<SelectOp>(op)) {
    return broadcastMap(op, operands, dtype, [&](llvm::ArrayRef<double> v) {
      return v[0] != 0 ? v[1] : v[2];
    });
  }
  if (isa<CastOp>(op)) {
    const RefTensor &x = *operands[0];
    DTypeKind from = x.dtype;
    RefTensor result;
    result.dtype = dtype;
    result.shape = x.shape;
    result.data.resize(x.data.size());
    for (size_t i = 0; i < x.data.size(); ++i) {
      double v = x.data[i];
      if (dtype == DTypeKind::I1)
        result.data[i] = v != 0 ? 1.0 : 0.0; // NaN != 0 too
      else if (isInteger(dtype) && isFloat(from))
        result.data[i] = castToInteger(op, dtype, v);
      else if (isInteger(dtype))
        result.data[i] = checkedInteger(op, dtype, asInteger(v));
      else
        result.data[i] = roundTo(dtype, v);
    }
    return result;
  }
  return std::nullopt;
}

} // namespace tcc::reference::detail
