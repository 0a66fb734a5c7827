//===- Generator.cpp - seeded random tc programs --------------------------===//

#include "test/difftest/Generator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

namespace tcc::difftest {
namespace {

enum class DT { F16, BF16, F32, F64, I32, I64, Bool };

const char *dtName(DT dt) {
  static const char *names[] = {"f16", "bf16", "f32", "f64",
                                "i32", "i64",  "bool"};
  return names[int(dt)];
}
bool isFloat(DT dt) { return dt <= DT::F64; }
bool isInt(DT dt) { return dt == DT::I32 || dt == DT::I64; }
bool isNumeric(DT dt) { return dt != DT::Bool; }

/// Half the distance between neighbouring values near 1 (a rounding).
double eps(DT dt) {
  switch (dt) {
  case DT::F16:
    return 0x1p-11;
  case DT::BF16:
    return 0x1p-8;
  case DT::F32:
    return 0x1p-24;
  case DT::F64:
    return 0x1p-53;
  default:
    return 0;
  }
}

/// The largest magnitude a value may reach: far from overflow for floats
/// (so results stay finite and comparable), within range for integers.
double limit(DT dt) {
  switch (dt) {
  case DT::F16:
    return 1e3;
  case DT::BF16:
    return 1e4;
  case DT::F32:
  case DT::F64:
    return 1e6;
  case DT::I32:
    return 1e8;
  case DT::I64:
    return 1e12;
  case DT::Bool:
    return 1;
  }
  return 0;
}

double inputBound(DT dt) {
  return isFloat(dt) ? kFloatInputBound
         : isInt(dt) ? double(kIntInputBound)
                     : 1;
}

struct Dim {
  int64_t size = 1;
  std::string sym; ///< non-empty: a symbolic dimension
  bool operator==(const Dim &o) const { return size == o.size && sym == o.sym; }
  bool isOne() const { return sym.empty() && size == 1; }
  int64_t max() const { return sym.empty() ? size : kMaxSymbolSize; }
  std::string str() const { return sym.empty() ? std::to_string(size) : sym; }
};
using Dims = std::vector<Dim>;

std::string dimsStr(const Dims &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + dims[i].str();
  return s + "]";
}

int64_t maxElements(const Dims &dims) {
  int64_t n = 1;
  for (const Dim &d : dims)
    n *= d.max();
  return n;
}

/// Python's len(range(n)[begin:end:step]); `open` bounds are absent.
int64_t pythonSliceLength(int64_t n, std::optional<int64_t> begin,
                          std::optional<int64_t> end, int64_t step) {
  auto clamp = [&](std::optional<int64_t> v, bool isBegin) {
    if (!v)
      return isBegin ? (step > 0 ? int64_t(0) : n - 1)
                     : (step > 0 ? n : int64_t(-1));
    int64_t x = *v < 0 ? *v + n : *v;
    int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? n : n - 1;
    return std::min(std::max(x, lo), hi);
  };
  int64_t b = clamp(begin, true), e = clamp(end, false), count = 0;
  for (int64_t k = b; step > 0 ? k < e : k > e; k += step)
    ++count;
  return count;
}

/// numpy broadcasting with tc's rule for symbolic dimensions: a symbol
/// meets only 1 or itself.
std::optional<Dims> broadcast(const Dims &a, const Dims &b) {
  size_t rank = std::max(a.size(), b.size());
  Dims out(rank);
  for (size_t i = 0; i < rank; ++i) {
    Dim x = i < rank - a.size() ? Dim{} : a[i - (rank - a.size())];
    Dim y = i < rank - b.size() ? Dim{} : b[i - (rank - b.size())];
    if (x == y || y.isOne())
      out[i] = x;
    else if (x.isOne())
      out[i] = y;
    else
      return std::nullopt;
  }
  return out;
}

/// A value in scope: its name, type, magnitude bound and error bound.
struct Val {
  std::string name;
  DT dt;
  Dims dims;
  double bound;
  double err; ///< 0: bitwise what the reference computes
};

class Generator {
public:
  Generator(uint64_t seed, bool loopIds, bool badIds)
      : rng_(seed), loopIds_(loopIds), badIds_(badIds) {
    program_.seed = seed;
  }
  ProgramText run();

private:
  uint64_t next() { return rng_(); }
  int below(int n) { return int(next() % uint64_t(n)); }
  bool chance(double p) { return double(next() >> 11) * 0x1p-53 < p; }
  template <class T> const T &oneOf(const std::vector<T> &v) {
    return v[size_t(below(int(v.size())))];
  }

  DT randomDType();
  Dims randomDims(int maxRank);
  Val &newInput(DT dt, Dims dims);
  /// Indices of the values satisfying `pred`, or -1; prefers recent ones.
  int pick(const std::function<bool(const Val &)> &pred);
  /// A value of a's dtype that broadcasts with it (maybe a new input).
  const Val *partner(const Val &a, bool exact);
  bool addTemp(const std::string &expr, DT dt, const Dims &dims, double bound,
               double err);
  /// Rounding difference of an op whose operands may differ already.
  double rounding(DT dt, double bound, bool inexact) {
    return inexact ? 2 * eps(dt) * bound : 0;
  }
  std::string axisArg(int axis, int rank) {
    return std::to_string(chance(0.3) ? axis - rank : axis);
  }

  bool genUnary();
  bool genBinary();
  bool genLiteral();
  bool genMath();
  bool genLogic();
  bool genCompare();
  bool genSelect();
  bool genCast();
  bool genReduce();
  bool genArgmax();
  bool genMatmul();
  bool genConv();
  bool genSoftmax();
  bool genTranspose();
  bool genReshape();
  bool genBroadcastTo();
  bool genSlice();
  bool genConcat();
  /// take, gather, take_along_axis, scatter_add, one_hot, dynamic_slice.
  bool genIndexing();
  /// Ids good for an axis of `n` elements (negative ones too when `wrap`):
  /// an argmax over a dimension `n` of some value; their dims in `dims`.
  std::optional<std::string> idsFor(const Dim &n, bool wrap, Dims &dims);
  bool genScan();
  /// Loops and conditionals: a `scan` statement (a recurrence over axis 0,
  /// or a map), a `while` that halves a value, an `ifelse`, and loops whose
  /// bodies gather at ids that change from step to step (genLoopIds).
  bool genLoop();
  /// A map `scan` that takes rows of a table at ids computed from each
  /// step's row, or a `while` whose state is ids it maps through a table.
  bool genLoopIds();
  bool genConstructor();
  void genFunction(int index);
  void genOutputs();
  void genUpdates();

  std::mt19937_64 rng_;
  ProgramText program_;
  std::vector<DT> favourites_;
  std::vector<Val> shared_;
  FunctionText *fn_ = nullptr;
  std::vector<Val> pool_;
  std::vector<std::string> syms_;
  int temps_ = 0;
  /// Every function starts with a loop that gathers in its body.
  bool loopIds_ = false;
  /// Ids in loop bodies are sometimes one too many (calls that both sides
  /// must refuse; with mismatched sizes only).
  bool badIds_ = false;
};

DT Generator::randomDType() {
  if (!favourites_.empty() && chance(0.7))
    return oneOf(favourites_);
  static const std::vector<DT> weighted = {
      DT::F32,  DT::F32, DT::F32, DT::F64, DT::F64, DT::F16, DT::F16,
      DT::BF16, DT::I32, DT::I32, DT::I64, DT::I64, DT::Bool};
  return oneOf(weighted);
}

Dims Generator::randomDims(int maxRank) {
  Dims dims(size_t(below(maxRank + 1)));
  for (Dim &d : dims) {
    if (!syms_.empty() && chance(0.3))
      d.sym = oneOf(syms_);
    else
      d.size = chance(0.25) ? 1 : 2 + below(4);
  }
  return dims;
}

Val &Generator::newInput(DT dt, Dims dims) {
  Param p;
  p.name = "x" + std::to_string(fn_->inputs.size());
  p.type = std::string(dtName(dt)) + dimsStr(dims);
  p.borrow = chance(0.4);
  fn_->inputs.push_back(p);
  pool_.push_back({p.name, dt, std::move(dims), inputBound(dt), 0});
  return pool_.back();
}

int Generator::pick(const std::function<bool(const Val &)> &pred) {
  std::vector<int> found;
  for (size_t i = 0; i < pool_.size(); ++i)
    if (pred(pool_[i]))
      found.push_back(int(i));
  if (found.empty())
    return -1;
  if (chance(0.5))
    return found[found.size() - 1 -
                 size_t(below(int(std::min<size_t>(3, found.size()))))];
  return oneOf(found);
}

const Val *Generator::partner(const Val &a, bool exact) {
  if (fn_->inputs.size() < 6 && chance(0.25)) {
    Dims dims;
    size_t keep = size_t(below(int(a.dims.size()) + 1));
    for (size_t i = a.dims.size() - keep; i < a.dims.size(); ++i)
      dims.push_back(chance(0.3) ? Dim{} : a.dims[i]);
    if (keep == a.dims.size() && dims.size() < 3 && chance(0.1))
      dims.insert(dims.begin(), Dim{2 + below(2), ""});
    DT dt = a.dt;
    newInput(dt, dims);
    return &pool_.back();
  }
  int i = pick([&](const Val &v) {
    if (v.dt != a.dt || (exact && v.err != 0))
      return false;
    std::optional<Dims> d = broadcast(a.dims, v.dims);
    return d && d->size() <= 4 && maxElements(*d) <= 400;
  });
  if (i < 0) {
    if (fn_->inputs.size() >= 8)
      return nullptr;
    newInput(a.dt, a.dims);
    return &pool_.back();
  }
  return &pool_[size_t(i)];
}

bool Generator::addTemp(const std::string &expr, DT dt, const Dims &dims,
                        double bound, double err) {
  if (!(bound <= limit(dt)) || !(err <= 0.05 * bound) || dims.size() > 4 ||
      maxElements(dims) > 400)
    return false;
  std::string name = "t" + std::to_string(temps_++);
  fn_->body.push_back({name, expr, 0});
  pool_.push_back({name, dt, dims, bound, err});
  return true;
}

bool Generator::genUnary() {
  int i = pick([](const Val &v) { return isNumeric(v.dt); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  double B = a.bound, e = a.err;
  if (!isFloat(a.dt) || chance(0.3)) {
    switch (below(4)) {
    case 0:
      return addTemp("-" + a.name, a.dt, a.dims, B, e);
    case 1:
      return addTemp("neg(" + a.name + ")", a.dt, a.dims, B, e);
    case 2:
      return addTemp("abs(" + a.name + ")", a.dt, a.dims, B, e);
    default:
      return addTemp("relu(" + a.name + ")", a.dt, a.dims, B, e);
    }
  }
  double u = 8 * eps(a.dt); // a few ulps for a transcendental function
  switch (below(6)) {
  case 0:
    if (B > 4)
      return false;
    return addTemp("exp(" + a.name + ")", a.dt, a.dims, std::exp(B),
                   std::exp(B) * (e + u));
  case 1:
    return addTemp("log(abs(" + a.name + ") + 1)", a.dt, a.dims,
                   std::log(B + 1), e + u * std::max(1.0, std::log(B + 1)));
  case 2:
    return addTemp("tanh(" + a.name + ")", a.dt, a.dims, 1, e + u);
  case 3:
    return addTemp("sigmoid(" + a.name + ")", a.dt, a.dims, 1, e / 4 + u);
  case 4:
    // sqrt is correctly rounded; near 0 its slope is unbounded, so only
    // on exact operands.
    if (e != 0)
      return false;
    return addTemp("sqrt(abs(" + a.name + "))", a.dt, a.dims, std::sqrt(B), 0);
  default:
    return addTemp("rsqrt(abs(" + a.name + ") + 1)", a.dt, a.dims, 1,
                   e / 2 + u);
  }
}

bool Generator::genMath() {
  int i = pick([](const Val &v) { return isNumeric(v.dt); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  double B = a.bound, e = a.err;
  const std::string &x = a.name;
  // sign and clip take integers too; sign and the roundings are
  // discontinuous, so only on exact operands.
  if (!isFloat(a.dt) || chance(0.25)) {
    if (chance(0.5)) {
      if (e != 0)
        return false;
      return addTemp("sign(" + x + ")", a.dt, a.dims, 1, 0);
    }
    static const std::vector<std::string> floats = {"0.5", "1", "2.5"};
    static const std::vector<std::string> ints = {"1", "3", "10"};
    std::string c = isFloat(a.dt) ? oneOf(floats) : oneOf(ints);
    return addTemp("clip(" + x + ", -" + c + ", " + c + ")", a.dt, a.dims,
                   std::min(B, std::strtod(c.c_str(), nullptr)), e);
  }
  double u = 8 * eps(a.dt); // a few ulps for a transcendental function
  switch (below(8)) {
  case 0:
    // |erf'| <= 2 / sqrt(pi).
    return addTemp("erf(" + x + ")", a.dt, a.dims, 1, 1.13 * e + u);
  case 1:
    return addTemp("log1p(abs(" + x + "))", a.dt, a.dims, std::log1p(B),
                   e + u * std::max(1.0, std::log1p(B)));
  case 2:
    if (B > 4)
      return false;
    return addTemp("expm1(" + x + ")", a.dt, a.dims, std::exp(B),
                   std::exp(B) * (e + u));
  case 3:
    return addTemp("softplus(" + x + ")", a.dt, a.dims, B + 1, e + u * (B + 1));
  case 4:
  case 5:
    // Range reduction costs ulps of the argument.
    if (B > 64)
      return false;
    return addTemp(std::string(chance(0.5) ? "sin(" : "cos(") + x + ")", a.dt,
                   a.dims, 1, e + u * std::max(1.0, B));
  default: {
    if (e != 0)
      return false;
    static const std::vector<std::string> fns = {"floor", "ceil", "round"};
    return addTemp(oneOf(fns) + "(" + x + ")", a.dt, a.dims, B + 1, 0);
  }
  }
}

bool Generator::genLogic() {
  int i = pick([](const Val &v) { return v.dt == DT::Bool; });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  if (chance(0.25))
    return addTemp(chance(0.5) ? "~" + a.name : "logical_not(" + a.name + ")",
                   DT::Bool, a.dims, 1, 0);
  const Val *bp = partner(a, true);
  if (!bp)
    return false;
  Val b = *bp;
  std::optional<Dims> joined = broadcast(a.dims, b.dims);
  if (!joined)
    return false;
  static const std::vector<std::string> forms = {"@ & $",
                                                 "@ | $",
                                                 "@ ^ $",
                                                 "logical_and(@, $)",
                                                 "logical_or(@, $)",
                                                 "logical_xor(@, $)"};
  std::string expr = oneOf(forms);
  expr.replace(expr.find('@'), 1, a.name);
  expr.replace(expr.find('$'), 1, b.name);
  return addTemp(expr, DT::Bool, *joined, 1, 0);
}

bool Generator::genBinary() {
  int i = pick([](const Val &v) { return isNumeric(v.dt); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  const Val *bp = partner(a, false);
  if (!bp)
    return false;
  Val b = *bp;
  std::optional<Dims> joined = broadcast(a.dims, b.dims);
  if (!joined)
    return false;
  Dims dims = *joined;
  bool inexact = a.err != 0 || b.err != 0;
  double Ba = a.bound, Bb = b.bound, ea = a.err, eb = b.err;
  bool fnForm = chance(0.3);
  auto call = [&](const char *op, const char *fn) {
    return fnForm ? std::string(fn) + "(" + a.name + ", " + b.name + ")"
                  : a.name + " " + op + " " + b.name;
  };
  switch (below(7)) {
  case 0:
    return addTemp(call("+", "add"), a.dt, dims, Ba + Bb,
                   ea + eb + rounding(a.dt, Ba + Bb, inexact));
  case 1:
    return addTemp(call("-", "sub"), a.dt, dims, Ba + Bb,
                   ea + eb + rounding(a.dt, Ba + Bb, inexact));
  case 2:
    return addTemp(call("*", "mul"), a.dt, dims, Ba * Bb,
                   ea * Bb + Ba * eb + ea * eb +
                       rounding(a.dt, Ba * Bb, inexact));
  case 3:
    return addTemp(std::string(chance(0.5) ? "maximum" : "minimum") + "(" +
                       a.name + ", " + b.name + ")",
                   a.dt, dims, std::max(Ba, Bb), std::max(ea, eb));
  case 4: {
    // The divisor stays away from 0; integer division truncates, so try
    // negative divisors too.
    std::string divisor = "(abs(" + b.name + ") + 1)";
    if (isInt(a.dt) && chance(0.5))
      divisor = "-" + divisor;
    return addTemp(fnForm ? "div(" + a.name + ", " + divisor + ")"
                          : a.name + " / " + divisor,
                   a.dt, dims, Ba, ea + Ba * eb + rounding(a.dt, Ba, inexact));
  }
  case 5: {
    if (isInt(a.dt)) {
      // A tensor exponent in [0, 3].
      if (Bb > 3 || std::pow(Ba, 3) > limit(a.dt))
        return false;
      return addTemp(a.name + " ** abs(" + b.name + ")", a.dt, dims,
                     std::max(1.0, std::pow(Ba, 3)), 0);
    }
    if (Bb > 3)
      return false;
    double base = Ba + 0.5;
    double B = std::max(std::pow(base, Bb), std::pow(2.0, Bb));
    double e = B * (2 * Bb * ea + std::fabs(std::log(base)) * eb +
                    std::log(2.0) * eb + 8 * eps(a.dt));
    return addTemp("(abs(" + a.name + ") + 0.5) ** " + b.name, a.dt, dims, B,
                   e);
  }
  default:
    return addTemp(call("-", "sub"), a.dt, dims, Ba + Bb,
                   ea + eb + rounding(a.dt, Ba + Bb, inexact));
  }
}

bool Generator::genLiteral() {
  int i = pick([](const Val &v) { return isNumeric(v.dt); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  static const std::vector<std::string> floats = {"0.5", "1.5", "2",   "0.25",
                                                  "3",   "0.1", "1e-3"};
  static const std::vector<std::string> ints = {"1", "2", "3", "7"};
  std::string lit = isFloat(a.dt) ? oneOf(floats) : oneOf(ints);
  double v = std::strtod(lit.c_str(), nullptr);
  bool inexact = a.err != 0;
  switch (below(5)) {
  case 0:
    return addTemp(a.name + " + " + lit, a.dt, a.dims, a.bound + v,
                   a.err + rounding(a.dt, a.bound + v, inexact));
  case 1:
    return addTemp(lit + " - " + a.name, a.dt, a.dims, a.bound + v,
                   a.err + rounding(a.dt, a.bound + v, inexact));
  case 2:
    return addTemp(lit + " * " + a.name, a.dt, a.dims, a.bound * v,
                   a.err * v + rounding(a.dt, a.bound * v, inexact));
  case 3:
    return addTemp(a.name + " / " + lit, a.dt, a.dims, a.bound / v + 1,
                   a.err / v + rounding(a.dt, a.bound / v, inexact));
  default:
    if (isInt(a.dt)) {
      if (a.bound * a.bound > limit(a.dt))
        return false;
      return addTemp(a.name + " ** 2", a.dt, a.dims, a.bound * a.bound, 0);
    }
    return addTemp(a.name + " ** 2", a.dt, a.dims, a.bound * a.bound,
                   2 * a.bound * a.err +
                       rounding(a.dt, a.bound * a.bound, inexact));
  }
}

bool Generator::genCompare() {
  // Only on exact operands: a comparison is discontinuous.
  int i = pick([](const Val &v) { return v.err == 0; });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  const Val *bp = partner(a, true);
  if (!bp)
    return false;
  Val b = *bp;
  std::optional<Dims> joined = broadcast(a.dims, b.dims);
  if (!joined)
    return false;
  Dims dims = *joined;
  static const std::vector<std::string> all = {"==", "!=", "<",
                                               "<=", ">",  ">="};
  std::string op = a.dt == DT::Bool ? (chance(0.5) ? "==" : "!=") : oneOf(all);
  return addTemp(a.name + " " + op + " " + b.name, DT::Bool, dims, 1, 0);
}

bool Generator::genSelect() {
  int i = pick([](const Val &v) { return true; });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  // The other branch: a tensor, or a literal (which does not broadcast).
  bool literal = chance(0.2);
  Val b = a;
  if (!literal) {
    const Val *bp = partner(a, false);
    if (!bp)
      return false;
    b = *bp;
  }
  std::optional<Dims> joined = broadcast(a.dims, b.dims);
  if (!joined)
    return false;
  Dims dims = *joined;
  int c = pick([&](const Val &v) {
    if (v.dt != DT::Bool)
      return false;
    std::optional<Dims> d = broadcast(dims, v.dims);
    return d && d->size() <= 4 && maxElements(*d) <= 400;
  });
  Val cond;
  if (c < 0 || chance(0.2)) {
    Dims cd;
    for (const Dim &d : dims)
      cd.push_back(chance(0.4) ? Dim{} : d);
    cond = newInput(DT::Bool, cd);
  } else {
    cond = pool_[size_t(c)];
  }
  dims = *broadcast(dims, cond.dims);
  std::string other = b.name;
  if (literal)
    other = a.dt == DT::Bool ? "false" : "0";
  std::string fn = chance(0.5) ? "select" : "where";
  return addTemp(fn + "(" + cond.name + ", " + a.name + ", " + other + ")",
                 a.dt, dims, std::max(a.bound, b.bound),
                 std::max(a.err, b.err));
}

bool Generator::genCast() {
  int i = pick([](const Val &) { return true; });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  DT to = randomDType();
  if (to == a.dt)
    return false;
  double B = a.bound, e = a.err;
  if (isFloat(a.dt) && !isFloat(to)) {
    // Truncation and != 0 are discontinuous.
    if (e != 0)
      return false;
    if (to == DT::Bool)
      B = 1;
  } else if (isFloat(a.dt) && isFloat(to)) {
    if (e != 0 && eps(to) > eps(a.dt))
      e += 2 * eps(to) * B;
  } else if (to == DT::Bool) {
    B = 1;
  }
  if (B > limit(to))
    return false;
  return addTemp("cast(" + a.name + ", dtype=" + dtName(to) + ")", to, a.dims,
                 B, e);
}

bool Generator::genReduce() {
  int i = pick([](const Val &v) { return isNumeric(v.dt) && !v.dims.empty(); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  int rank = int(a.dims.size());
  std::vector<int> axes;
  bool all = chance(0.15);
  for (int k = 0; k < rank; ++k)
    if (all || chance(0.5))
      axes.push_back(k);
  if (axes.empty())
    axes.push_back(below(rank));
  bool keep = chance(0.4);
  double count = 1;
  bool staticCount = true; // every reduced dimension is static
  Dims dims;
  for (int k = 0; k < rank; ++k) {
    bool reduced = std::count(axes.begin(), axes.end(), k) != 0;
    if (reduced) {
      count *= double(a.dims[size_t(k)].max());
      staticCount = staticCount && a.dims[size_t(k)].sym.empty();
    }
    if (!reduced)
      dims.push_back(a.dims[size_t(k)]);
    else if (keep)
      dims.push_back(Dim{});
  }
  std::string args = a.name;
  if (!all) {
    std::vector<int> order = axes;
    if (chance(0.3))
      std::shuffle(order.begin(), order.end(), rng_);
    if (order.size() == 1 && chance(0.5)) {
      args += ", axis=" + axisArg(order[0], rank);
    } else {
      args += ", axis=[";
      for (size_t k = 0; k < order.size(); ++k)
        args += (k ? ", " : "") + axisArg(order[k], rank);
      args += "]";
    }
  }
  if (keep)
    args += ", keepdims=true";
  else if (chance(0.2))
    args += ", keepdims=false";
  bool fl = isFloat(a.dt);
  double B = a.bound, e = a.err;
  bool inexact = fl && (e != 0 || count > 1);
  switch (below(8)) {
  case 5: {
    // logsumexp is 1-Lipschitz in the largest deviation of its inputs.
    if (!fl)
      return false;
    double Bl = B + std::log(count);
    return addTemp("logsumexp(" + args + ")", a.dt, dims, Bl,
                   e + 2 * eps(a.dt) * (count + 4) * (Bl + 1));
  }
  case 6:
  case 7: {
    // var: each input moves it by at most 4 B e / (n - ddof). ddof = 1
    // only where n >= 2 surely (a dynamic size may be 1 at run time).
    if (!fl)
      return false;
    int ddof = staticCount && count >= 2 && chance(0.5) ? 1 : 0;
    double n = count - ddof;
    double Bv = 4 * B * B * count / n;
    double ev = 4 * B * e * count / n + e * e * count / n +
                2 * eps(a.dt) * (count + 4) * Bv;
    std::string withDdof = args + (ddof ? ", ddof=1" : "");
    if (chance(0.5))
      return addTemp("var(" + withDdof + ")", a.dt, dims, Bv, ev);
    // |sqrt(a) - sqrt(b)| <= sqrt(|a - b|).
    return addTemp("std(" + withDdof + ")", a.dt, dims, std::sqrt(Bv),
                   std::sqrt(ev) + 2 * eps(a.dt) * std::sqrt(Bv));
  }
  case 0:
    return addTemp("sum(" + args + ")", a.dt, dims, count * B,
                   count * e +
                       (inexact ? 2 * eps(a.dt) * count * count * B : 0));
  case 1:
    if (!fl)
      return false;
    return addTemp("mean(" + args + ")", a.dt, dims, B,
                   e + (inexact ? 2 * eps(a.dt) * (count + 2) * B : 0));
  case 2:
    return addTemp("max(" + args + ")", a.dt, dims, B, e);
  case 3:
    return addTemp("min(" + args + ")", a.dt, dims, B, e);
  default: {
    double Bp = std::pow(std::max(B, 1.0), count);
    return addTemp("prod(" + args + ")", a.dt, dims, Bp,
                   count * e * Bp + (inexact ? 2 * eps(a.dt) * count * Bp : 0));
  }
  }
}

/// cumsum and cumprod along one axis: bounded like a sum or a product of
/// the axis's elements.
bool Generator::genScan() {
  int i = pick([](const Val &v) { return isNumeric(v.dt) && !v.dims.empty(); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  int rank = int(a.dims.size());
  int axis = below(rank);
  double count = double(a.dims[size_t(axis)].max());
  double B = a.bound, e = a.err;
  bool inexact = isFloat(a.dt) && (e != 0 || count > 1);
  std::string args = a.name;
  if (!(rank == 1 && chance(0.3)))
    args += chance(0.5) ? ", axis=" + axisArg(axis, rank)
                        : ", " + axisArg(axis, rank);
  if (chance(0.5))
    return addTemp("cumsum(" + args + ")", a.dt, a.dims, count * B,
                   count * e +
                       (inexact ? 2 * eps(a.dt) * count * count * B : 0));
  double Bp = std::pow(std::max(B, 1.0), count);
  return addTemp("cumprod(" + args + ")", a.dt, a.dims, Bp,
                 count * e * Bp + (inexact ? 2 * eps(a.dt) * count * Bp : 0));
}

bool Generator::genLoopIds() {
  if (chance(0.5)) {
    // scan(r in A) { return take(T, argmax(r, axis=-1), axis=k) }: the ids
    // are an argmax over A's last dimension, the table's axis k has its
    // size; each step's row of A gives other ids.
    int i = pick([](const Val &v) {
      return isNumeric(v.dt) && v.err == 0 && v.dims.size() >= 2;
    });
    if (i < 0)
      return false;
    Val a = pool_[size_t(i)];
    Dim n = a.dims.back();
    int t = pick([&](const Val &v) {
      return std::find(v.dims.begin(), v.dims.end(), n) != v.dims.end();
    });
    if (t < 0 && fn_->inputs.size() >= 8)
      return false;
    Val table =
        t >= 0 ? pool_[size_t(t)] : newInput(randomDType(), {n, Dim{2, ""}});
    int rank = int(table.dims.size());
    int axis = int(std::find(table.dims.begin(), table.dims.end(), n) -
                   table.dims.begin());
    std::string ids = "argmax(r, axis=-1)";
    if (badIds_ && chance(0.3))
      ids = "(" + ids + " + 1)"; // n where the maximum is last
    else if (n.sym.empty() && chance(0.3))
      ids = "(" + ids + " - " + std::to_string(n.size) + ")";
    if (chance(0.3))
      ids = "cast(" + ids + ", dtype=i32)";
    Dims dims = {a.dims[0]};
    dims.insert(dims.end(), table.dims.begin(), table.dims.begin() + axis);
    dims.insert(dims.end(), a.dims.begin() + 1, a.dims.end() - 1);
    dims.insert(dims.end(), table.dims.begin() + axis + 1, table.dims.end());
    if (maxElements(dims) > 400)
      return false;
    std::string backwards = chance(0.3) ? ", go_backwards=true" : "";
    return addTemp("scan(r in " + a.name + backwards + ") { return take(" +
                       table.name + ", " + ids +
                       ", axis=" + axisArg(axis, rank) + ") }",
                   table.dt, dims, table.bound, table.err);
  }
  // while(k = argmax(A, axis=-1), ...) { return take(argmax(P, axis=1), k) }:
  // the state is ids into [0, n), mapped at every step through a table of
  // ids in [0, n) (integers: both sides take the same steps).
  int i = pick([](const Val &v) {
    return isNumeric(v.dt) && v.err == 0 && !v.dims.empty() &&
           v.dims.back().sym.empty();
  });
  if (i < 0 || fn_->inputs.size() >= 8)
    return false;
  Val a = pool_[size_t(i)];
  Dim n = a.dims.back();
  const Val &p = newInput(DT::F32, {n, n});
  Dims dims(a.dims.begin(), a.dims.end() - 1);
  int64_t count = maxElements(dims);
  int64_t threshold = below(int(count * n.size) + 1);
  int steps = 1 + below(6);
  std::string total = dims.empty() ? "k" : "sum(k)";
  // One too many where a row's maximum is last: the next step reads past
  // the table.
  std::string next = "argmax(" + p.name + ", axis=1)";
  if (badIds_ && chance(0.3))
    next = "(" + next + " + 1)";
  return addTemp("while(k = argmax(" + a.name +
                     ", axis=-1), max_steps=" + std::to_string(steps) +
                     ", cond=" + total + " >= " + std::to_string(threshold) +
                     ") { return take(" + next + ", k) }",
                 DT::I64, dims, double(n.size), 0);
}

bool Generator::genLoop() {
  switch (below(6)) {
  case 4:
  case 5:
    return genLoopIds();
  case 0: {
    // ifelse on a bool scalar: the value taken, the other not computed.
    int i = pick([](const Val &v) { return true; });
    if (i < 0)
      return false;
    Val a = pool_[size_t(i)];
    int j =
        pick([&](const Val &v) { return v.dt == a.dt && v.dims == a.dims; });
    Val b = pool_[size_t(j)];
    int c =
        pick([](const Val &v) { return v.dt == DT::Bool && v.dims.empty(); });
    Val cond =
        c >= 0 && chance(0.7) ? pool_[size_t(c)] : newInput(DT::Bool, Dims());
    return addTemp("ifelse(" + cond.name + ", " + a.name + ", " + b.name + ")",
                   a.dt, a.dims, std::max(a.bound, b.bound),
                   std::max(a.err, b.err));
  }
  case 1: {
    // A while that halves a float until its largest magnitude is at most
    // a bound: halving and max are exact, so the compiled loop takes the
    // reference's number of steps on an exact value. Static sizes only
    // (max of no element is a call error).
    int i = pick([](const Val &v) {
      if (!isFloat(v.dt) || v.err != 0 || v.dims.empty())
        return false;
      for (const Dim &d : v.dims)
        if (!d.sym.empty())
          return false;
      return true;
    });
    if (i < 0)
      return false;
    Val a = pool_[size_t(i)];
    int steps = 1 + below(8);
    return addTemp("while(v = " + a.name +
                       ", max_steps=" + std::to_string(steps) +
                       ", cond=max(abs(v)) > 0.75) { return v * 0.5 }",
                   a.dt, a.dims, a.bound, 0);
  }
  default: {
    // A scan along axis 0: a recurrence `h * 0.5 + r` from the first row
    // (or the sum for integers) to its final state, or a map that stacks
    // `tanh(r) + r` (floats) or `r * 2` (integers).
    int i =
        pick([](const Val &v) { return isNumeric(v.dt) && !v.dims.empty(); });
    if (i < 0)
      return false;
    Val a = pool_[size_t(i)];
    Dims row(a.dims.begin() + 1, a.dims.end());
    double n = double(a.dims[0].max());
    double B = a.bound, e = a.err;
    std::string backwards = chance(0.3) ? ", go_backwards=true" : "";
    if (chance(0.5)) {
      std::string body = isFloat(a.dt) ? "tanh(r) + r" : "r * 2";
      double bound = isFloat(a.dt) ? B + 1 : 2 * B;
      double err = isFloat(a.dt) ? 2 * e + 8 * eps(a.dt) * bound : 0;
      return addTemp("scan(r in " + a.name + backwards + ") { return " + body +
                         " }",
                     a.dt, a.dims, bound, err);
    }
    // The initial state: a reduction of the sequence over axis 0.
    std::string init = "sum(" + a.name + ", axis=0)";
    if (isFloat(a.dt)) {
      double bound = n * B + 2 * B;
      double err =
          n * e + 2 * eps(a.dt) * n * n * B + 2 * e + 4 * eps(a.dt) * n * bound;
      return addTemp("scan(h = " + init + ", r in " + a.name + backwards +
                         ") { return h * 0.5 + r }",
                     a.dt, row, bound, err);
    }
    return addTemp("scan(h = " + init + ", r in " + a.name + backwards +
                       ") { return h + r }",
                   a.dt, row, 2 * n * B, 0);
  }
  }
}

/// tril/triu of a value, or a tensor made from a value's sizes: zeros_like,
/// ones_like, full, arange, eye (exact small numbers).
bool Generator::genConstructor() {
  int i = pick([](const Val &v) { return !v.dims.empty(); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  int rank = int(a.dims.size());
  switch (below(5)) {
  case 0: {
    if (rank < 2)
      return false;
    int k = below(5) - 2;
    std::string kArg = k == 0 && chance(0.5) ? ""
                       : chance(0.5)         ? ", " + std::to_string(k)
                                             : ", k=" + std::to_string(k);
    return addTemp(std::string(chance(0.5) ? "tril(" : "triu(") + a.name +
                       kArg + ")",
                   a.dt, a.dims, a.bound, a.err);
  }
  case 1:
    return addTemp(std::string(chance(0.5) ? "zeros_like(" : "ones_like(") +
                       a.name + ")",
                   a.dt, a.dims, 1, 0);
  case 2: {
    DT dt = randomDType();
    int value = below(5) - 2;
    if (dt == DT::Bool)
      return addTemp("full(" + dimsStr(a.dims) + ", " +
                         (value > 0 ? "true" : "false") + ")",
                     dt, a.dims, 1, 0);
    return addTemp("full(" + dimsStr(a.dims) + ", " + std::to_string(value) +
                       ", dtype=" + dtName(dt) + ")",
                   dt, a.dims, 2, 0);
  }
  case 3: {
    DT dt = randomDType();
    if (dt == DT::Bool)
      return false;
    Dim d = a.dims[size_t(below(rank))];
    return addTemp("arange(" + d.str() + ", dtype=" + dtName(dt) + ")", dt, {d},
                   double(d.max()), 0);
  }
  default: {
    DT dt = randomDType();
    Dim n = a.dims[size_t(below(rank))], m = a.dims[size_t(below(rank))];
    int k = below(3) - 1;
    return addTemp("eye(" + n.str() + ", " + m.str() + ", k=" +
                       std::to_string(k) + ", dtype=" + dtName(dt) + ")",
                   dt, {n, m}, 1, 0);
  }
  }
}

bool Generator::genArgmax() {
  int i = pick([](const Val &v) {
    return isNumeric(v.dt) && v.err == 0 && !v.dims.empty();
  });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  int rank = int(a.dims.size());
  int axis = below(rank);
  bool keep = chance(0.3);
  Dims dims = a.dims;
  if (keep)
    dims[size_t(axis)] = Dim{};
  else
    dims.erase(dims.begin() + axis);
  std::string args = a.name;
  if (!(axis == rank - 1 && chance(0.3)))
    args += ", axis=" + axisArg(axis, rank);
  if (keep)
    args += ", keepdims=true";
  return addTemp("argmax(" + args + ")", DT::I64, dims,
                 double(a.dims[size_t(axis)].max()), 0);
}

bool Generator::genMatmul() {
  int i =
      pick([](const Val &v) { return isNumeric(v.dt) && v.dims.size() >= 2; });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  size_t ra = a.dims.size();
  Dim K = a.dims[ra - 1];
  Dims batchA(a.dims.begin(), a.dims.end() - 2);
  auto fits = [&](const Val &v) {
    if (v.dt != a.dt || v.dims.size() < 2 || !(v.dims[v.dims.size() - 2] == K))
      return false;
    return broadcast(batchA, Dims(v.dims.begin(), v.dims.end() - 2))
        .has_value();
  };
  int j = chance(0.6) ? pick(fits) : -1;
  Val b;
  if (j >= 0) {
    b = pool_[size_t(j)];
  } else {
    Dims dims;
    int mode = below(3);
    for (const Dim &d : batchA)
      if (mode == 1)
        dims.push_back(d);
      else if (mode == 2)
        dims.push_back(Dim{});
    dims.push_back(K);
    Dim n;
    if (!syms_.empty() && chance(0.2))
      n.sym = oneOf(syms_);
    else
      n.size = 1 + below(5);
    dims.push_back(n);
    b = newInput(a.dt, dims);
  }
  Dims batchB(b.dims.begin(), b.dims.end() - 2);
  Dims dims = *broadcast(batchA, batchB);
  dims.push_back(a.dims[ra - 2]);
  dims.push_back(b.dims.back());
  double k = double(K.max());
  double B = k * a.bound * b.bound;
  bool inexact = isFloat(a.dt) && (a.err != 0 || b.err != 0 || k > 1);
  double e = k * (a.err * b.bound + a.bound * b.err) +
             (inexact ? 2 * eps(a.dt) * k * B : 0);
  return addTemp("matmul(" + a.name + ", " + b.name + ")", a.dt, dims, B, e);
}

/// conv1d or conv2d (NCHW) of a value with a small static channel count by a
/// new filter input: "same" padding with stride 1 (a symbolic spatial size
/// allows nothing else), or a stride and a padding for static sizes.
bool Generator::genConv() {
  int i = pick([](const Val &v) {
    return isNumeric(v.dt) && (v.dims.size() == 3 || v.dims.size() == 4) &&
           v.dims[1].sym.empty() && v.dims[1].size <= 4;
  });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  size_t spatial = a.dims.size() - 2;
  int64_t C = a.dims[1].size;
  int64_t groups = C % 2 == 0 && chance(0.3) ? 2 : 1;
  int64_t O = groups * (1 + below(2));
  bool same = chance(0.4);
  for (size_t d = 0; d < spatial; ++d)
    same |= !a.dims[2 + d].sym.empty();
  int64_t stride = same ? 1 : 1 + below(2);
  Dims fdims{Dim{O, ""}, Dim{C / groups, ""}}, out{a.dims[0], Dim{O, ""}};
  int64_t taps = C / groups, pad = same ? 0 : below(2);
  for (size_t d = 0; d < spatial; ++d) {
    int64_t k = 1 + below(3);
    fdims.push_back(Dim{k, ""});
    taps *= k;
    if (same) {
      out.push_back(a.dims[2 + d]);
      continue;
    }
    int64_t padded = a.dims[2 + d].size + 2 * pad;
    if (padded < k)
      return false;
    out.push_back(Dim{(padded - k) / stride + 1, ""});
  }
  Val b = newInput(a.dt, fdims);
  std::string args = a.name + ", " + b.name;
  if (same)
    args += ", padding=\"same\"";
  else
    args += ", stride=" + std::to_string(stride) +
            ", padding=" + std::to_string(pad);
  if (groups > 1)
    args += ", groups=" + std::to_string(groups);
  double k = double(taps);
  double B = k * a.bound * b.bound;
  bool inexact = isFloat(a.dt) && (a.err != 0 || b.err != 0 || k > 1);
  double e = k * (a.err * b.bound + a.bound * b.err) +
             (inexact ? 2 * eps(a.dt) * k * B : 0);
  return addTemp(std::string(spatial == 1 ? "conv1d(" : "conv2d(") + args + ")",
                 a.dt, out, B, e);
}

bool Generator::genSoftmax() {
  int i = pick([](const Val &v) { return isFloat(v.dt) && !v.dims.empty(); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  int rank = int(a.dims.size());
  int axis = below(rank);
  double n = double(a.dims[size_t(axis)].max());
  std::string args = a.name;
  if (!(axis == rank - 1 && chance(0.3)))
    args += ", axis=" + axisArg(axis, rank);
  double u = 8 * eps(a.dt);
  if (chance(0.5))
    return addTemp("softmax(" + args + ")", a.dt, a.dims, 1,
                   2 * a.err + u * (n + 2));
  double B = 2 * a.bound + std::log(n) + 1;
  return addTemp("log_softmax(" + args + ")", a.dt, a.dims, B,
                 2 * a.err + u * (B + n));
}

bool Generator::genTranspose() {
  int i = pick([](const Val &v) { return v.dims.size() >= 2; });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  std::vector<int> perm(a.dims.size());
  for (size_t k = 0; k < perm.size(); ++k)
    perm[k] = int(k);
  Dims dims;
  std::string expr;
  if (chance(0.3)) {
    std::reverse(perm.begin(), perm.end());
    expr = "transpose(" + a.name + ")";
  } else {
    std::shuffle(perm.begin(), perm.end(), rng_);
    expr = "transpose(" + a.name + ", perm=[";
    for (size_t k = 0; k < perm.size(); ++k)
      expr += (k ? ", " : "") + std::to_string(perm[k]);
    expr += "])";
  }
  for (int p : perm)
    dims.push_back(a.dims[size_t(p)]);
  return addTemp(expr, a.dt, dims, a.bound, a.err);
}

bool Generator::genReshape() {
  int i = pick([](const Val &) { return true; });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  int64_t P = 1;
  std::vector<Dim> syms;
  for (const Dim &d : a.dims)
    if (d.sym.empty())
      P *= d.size;
    else
      syms.push_back(d);
  // A target has at most one dynamic dimension, and it must name every
  // symbol of the input (else the count is unknown).
  if (syms.size() > 1)
    return false;
  // Split P into up to three random factors.
  std::vector<int64_t> factors;
  int64_t rest = P;
  int parts = below(3);
  for (int k = 0; k < parts && rest > 1; ++k) {
    std::vector<int64_t> divisors;
    for (int64_t d = 2; d <= rest; ++d)
      if (rest % d == 0)
        divisors.push_back(d);
    int64_t d = oneOf(divisors);
    factors.push_back(d);
    rest /= d;
  }
  if (rest > 1 || chance(0.2))
    factors.push_back(rest);
  std::shuffle(factors.begin(), factors.end(), rng_);
  Dims dims;
  for (int64_t f : factors)
    dims.push_back(Dim{f, ""});
  for (const Dim &s : syms)
    dims.insert(dims.begin() + below(int(dims.size()) + 1), s);
  if (dims.size() > 4)
    return false;
  int inferred = -1;
  if (!factors.empty() && chance(0.3)) {
    std::vector<int> statics;
    for (size_t k = 0; k < dims.size(); ++k)
      if (dims[k].sym.empty())
        statics.push_back(int(k));
    inferred = oneOf(statics);
  }
  std::string expr = "reshape(" + a.name + ", shape=[";
  for (size_t k = 0; k < dims.size(); ++k)
    expr += (k ? ", " : "") +
            (int(k) == inferred ? std::string("-1") : dims[k].str());
  expr += "])";
  return addTemp(expr, a.dt, dims, a.bound, a.err);
}

bool Generator::genBroadcastTo() {
  int i = pick([](const Val &v) { return v.dims.size() <= 3; });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  Dims dims;
  int lead = below(3);
  for (int k = 0; k < lead && a.dims.size() + dims.size() < 4; ++k)
    dims.push_back(Dim{1 + below(4), ""});
  for (const Dim &d : a.dims)
    dims.push_back(d.isOne() && chance(0.6) ? Dim{2 + below(3), ""} : d);
  return addTemp("broadcast_to(" + a.name + ", shape=" + dimsStr(dims) + ")",
                 a.dt, dims, a.bound, a.err);
}

/// A slice or an index of a value: numpy's bounds (negative, past the ends,
/// open), negative steps, integer indices that drop an axis and `...`,
/// written as `slice(...)` or as `x[...]`. On a symbolic dimension, bounds
/// that give a static length assume at most 1 element (the calls size
/// symbols 1..5; the mismatched-size campaign tries 0), and the others
/// give a computed length, which a sum over that axis (keepdims) then
/// folds to 1, so that no other op meets a size the generator cannot name.
bool Generator::genSlice() {
  int i = pick([](const Val &v) { return !v.dims.empty(); });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  bool indexing = chance(0.5);
  std::vector<std::string> entries; // x[...] entries
  std::string begin, end, step;     // slice(...) lists
  bool callForm = !indexing;
  Dims dims;
  std::vector<int> computed; // axes of the result with a computed length
  auto num = [](int64_t v) { return std::to_string(v); };
  for (size_t k = 0; k < a.dims.size(); ++k) {
    const Dim &d = a.dims[k];
    std::string sep = k ? ", " : "";
    if (indexing && chance(0.15)) {
      // An integer index: any in range of a static size, 0 or -1 of a
      // symbol.
      int64_t idx = d.sym.empty() ? below(int(2 * d.size)) - d.size
                                  : (chance(0.5) ? 0 : -1);
      entries.push_back(num(idx));
      continue;
    }
    std::optional<int64_t> b, e;
    int64_t st = 1;
    Dim out = d;
    if (d.sym.empty()) {
      int64_t n = d.size;
      const int64_t steps[] = {1, 1, 1, 2, 3, -1, -2};
      st = steps[below(7)];
      if (chance(0.7))
        b = below(int(2 * n + 5)) - n - 2;
      if (chance(0.7))
        e = below(int(2 * n + 5)) - n - 2;
      out = Dim{pythonSliceLength(n, b, e, st), ""};
      // Other ops assume non-empty static sizes (argmax, reshape to []).
      if (out.size == 0)
        return false;
    } else {
      switch (below(4)) {
      case 0: // the whole dimension, maybe reversed
        st = chance(0.5) ? 1 : -1;
        break;
      case 1: // one element, assumed there
        if (chance(0.5))
          e = 1;
        else
          b = -1;
        out = Dim{1, ""};
        break;
      default: { // numpy's clamped length, computed at run time
        const int64_t steps[] = {1, 2, -1, -2};
        st = steps[below(4)];
        if (chance(0.6))
          b = below(5) - 2;
        if (chance(0.6))
          e = below(5) - 2;
        // A form that assumes its bounds is case 1's business.
        bool sameSide = st > 0 && ((b.value_or(0) >= 0 && e && *e >= 0) ||
                                   (b && *b < 0 && e.value_or(-1) < 0));
        if (sameSide || (st == 1 && !b && !e))
          return false;
        computed.push_back(int(dims.size()));
      }
      }
    }
    dims.push_back(out);
    entries.push_back((b ? num(*b) : "") + ":" + (e ? num(*e) : "") +
                      (st != 1 || chance(0.2) ? ":" + num(st) : ""));
    // slice(...) writes an open bound as what clamps there: 0, the size
    // (or its name), or past the start.
    std::string size = d.str();
    std::string bt = b ? num(*b) : st > 0 ? "0" : size;
    std::string et = e               ? num(*e)
                     : st > 0        ? size
                     : d.sym.empty() ? num(-d.size - 1)
                                     : "";
    if (et.empty())
      callForm = false;
    begin += sep + bt;
    end += sep + et;
    step += sep + num(st);
  }
  // Integer indices need x[...].
  if (dims.size() != a.dims.size())
    callForm = false;
  if (!computed.empty() && !isNumeric(a.dt))
    return false;
  // sum(..., axis=[computed], keepdims=true) of what the slice writes.
  auto finish = [&](const std::string &sliced) {
    if (computed.empty())
      return addTemp(sliced, a.dt, dims, a.bound, a.err);
    std::string axes;
    double count = 1;
    for (int k : computed) {
      axes += (axes.empty() ? "" : ", ") + std::to_string(k);
      dims[size_t(k)] = Dim{};
      count *= double(kMaxSymbolSize);
    }
    bool inexact = isFloat(a.dt);
    return addTemp("sum(" + sliced + ", axis=[" + axes + "], keepdims=true)",
                   a.dt, dims, count * a.bound,
                   count * a.err +
                       (inexact ? 2 * eps(a.dt) * count * count * a.bound : 0));
  };
  if (callForm)
    return finish("slice(" + a.name + ", begin=[" + begin + "], end=[" + end +
                  "], step=[" + step + "])");
  // Leading whole axes may become `...`.
  size_t whole = 0;
  while (whole < entries.size() && entries[whole] == ":")
    ++whole;
  std::string text;
  if (whole > 0 && chance(0.5)) {
    text = "...";
    entries.erase(entries.begin(), entries.begin() + whole);
  }
  for (const std::string &e : entries)
    text += (text.empty() ? "" : ", ") + e;
  return finish(a.name + "[" + text + "]");
}

bool Generator::genConcat() {
  int i = pick([](const Val &v) {
    for (const Dim &d : v.dims)
      if (d.sym.empty())
        return true;
    return false;
  });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  std::vector<int> statics;
  for (size_t k = 0; k < a.dims.size(); ++k)
    if (a.dims[k].sym.empty())
      statics.push_back(int(k));
  int axis = oneOf(statics);
  auto sameBut = [&](const Val &v) {
    if (v.dt != a.dt || v.dims.size() != a.dims.size() ||
        !v.dims[size_t(axis)].sym.empty())
      return false;
    for (size_t k = 0; k < a.dims.size(); ++k)
      if (int(k) != axis && !(v.dims[k] == a.dims[k]))
        return false;
    return true;
  };
  std::vector<Val> parts = {a};
  int more = 1 + below(2);
  for (int k = 0; k < more; ++k) {
    int j = chance(0.6) ? pick(sameBut) : -1;
    if (j >= 0) {
      parts.push_back(pool_[size_t(j)]);
    } else {
      if (fn_->inputs.size() >= 8)
        return false;
      Dims dims = a.dims;
      dims[size_t(axis)] = Dim{1 + below(4), ""};
      parts.push_back(newInput(a.dt, dims));
    }
  }
  std::shuffle(parts.begin(), parts.end(), rng_);
  Dims dims = a.dims;
  int64_t total = 0;
  double B = 0, e = 0;
  std::string expr = chance(0.5) ? "concat(" : "concatenate(";
  for (const Val &p : parts) {
    total += p.dims[size_t(axis)].size;
    B = std::max(B, p.bound);
    e = std::max(e, p.err);
    expr += p.name + ", ";
  }
  dims[size_t(axis)].size = total;
  expr += "axis=" + axisArg(axis, int(a.dims.size())) + ")";
  return addTemp(expr, a.dt, dims, B, e);
}

void Generator::genOutputs() {
  int count = 1 + below(3);
  for (int k = 0; k < count; ++k) {
    bool temp = chance(0.85);
    int i = pick([&](const Val &v) { return (v.name[0] == 't') == temp; });
    if (i < 0)
      i = pick([](const Val &) { return true; });
    if (i < 0)
      return;
    const Val &v = pool_[size_t(i)];
    Param p;
    p.name = "o" + std::to_string(fn_->outputs.size());
    p.type = std::string(dtName(v.dt)) + dimsStr(v.dims);
    p.borrow = chance(0.4);
    p.internal = chance(0.15);
    p.err = v.err;
    fn_->outputs.push_back(p);
    fn_->body.push_back({p.name, v.name, 0});
  }
}

void Generator::genUpdates() {
  for (const Val &s : shared_) {
    if (!chance(0.6))
      continue;
    std::string expr;
    double bound = 0, err = 0;
    int option = below(3);
    if (option == 0) {
      std::vector<const Val *> same;
      for (const Val &o : shared_)
        if (o.dt == s.dt && o.dims == s.dims)
          same.push_back(&o);
      const Val *o = oneOf(same);
      expr = o->name;
      bound = o->bound;
    } else {
      bool whole = option == 1;
      int i = pick([&](const Val &v) {
        if (v.dt != s.dt)
          return false;
        if (whole)
          return v.dims == s.dims;
        std::optional<Dims> d = broadcast(s.dims, v.dims);
        return d && *d == s.dims;
      });
      if (i < 0)
        continue;
      const Val &v = pool_[size_t(i)];
      if (whole) {
        expr = v.name;
        bound = v.bound;
        err = v.err;
      } else if (s.dt == DT::Bool) {
        expr = s.name + " != " + v.name;
        bound = 1;
      } else {
        expr = s.name + " + " + v.name;
        bound = s.bound + v.bound;
        err = v.err + rounding(s.dt, bound, v.err != 0);
      }
    }
    // Clamp, so that the next call's reads stay within the input bounds.
    if (bound > s.bound) {
      std::string lim = isFloat(s.dt) ? "2" : std::to_string(kIntInputBound);
      expr = "minimum(maximum(" + expr + ", -" + lim + "), " + lim + ")";
    }
    fn_->updates.push_back({s.name, expr, err});
  }
}

std::optional<std::string> Generator::idsFor(const Dim &n, bool wrap,
                                             Dims &dims) {
  int i = pick([&](const Val &v) {
    return isNumeric(v.dt) && v.err == 0 &&
           std::find(v.dims.begin(), v.dims.end(), n) != v.dims.end();
  });
  std::string expr;
  if (i >= 0) {
    const Val &b = pool_[size_t(i)];
    int axis = int(std::find(b.dims.begin(), b.dims.end(), n) - b.dims.begin());
    dims = b.dims;
    dims.erase(dims.begin() + axis);
    expr = "argmax(" + b.name + ", axis=" + axisArg(axis, int(b.dims.size())) +
           ")";
  } else {
    if (fn_->inputs.size() >= 8)
      return std::nullopt;
    Dim rows{2 + below(2), ""};
    newInput(DT::F32, {rows, n});
    dims = {rows};
    expr = "argmax(" + pool_.back().name + ", axis=1)";
  }
  // Negative ids count from the end.
  if (wrap && n.sym.empty() && chance(0.3))
    expr = "(" + expr + " - " + std::to_string(n.size) + ")";
  if (chance(0.3))
    expr = "cast(" + expr + ", dtype=i32)";
  return expr;
}

bool Generator::genIndexing() {
  int kind = below(6);
  if (kind == 5) { // dynamic_slice: static sizes, starts in range
    int i = pick([](const Val &v) { return !v.dims.empty(); });
    if (i < 0)
      return false;
    Val a = pool_[size_t(i)];
    std::string starts, sizes;
    Dims dims;
    for (const Dim &d : a.dims) {
      int64_t size = d.sym.empty() ? 1 + below(int(d.size)) : 1;
      // A symbolic dimension's last row: a start computed at run time.
      std::string start =
          d.sym.empty()
              ? std::to_string(below(int(d.size - size) + 1))
              : "size(" + a.name + ", " + std::to_string(dims.size()) + ") - 1";
      starts += ", " + start;
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(size);
      dims.push_back(Dim{size, ""});
    }
    return addTemp("dynamic_slice(" + a.name + starts + ", size=[" + sizes +
                       "])",
                   a.dt, dims, a.bound, a.err);
  }
  if (kind == 4) { // one_hot over a static depth
    int i = pick([](const Val &v) {
      return isNumeric(v.dt) && v.err == 0 && !v.dims.empty() &&
             v.dims.back().sym.empty();
    });
    if (i < 0)
      return false;
    Dim depth = pool_[size_t(i)].dims.back();
    Dims dims;
    std::optional<std::string> ids = idsFor(depth, false, dims);
    if (!ids)
      return false;
    dims.push_back(depth);
    DT dt = randomDType();
    return addTemp("one_hot(" + *ids + ", " + std::to_string(depth.size) +
                       ", dtype=" + dtName(dt) + ")",
                   dt, dims, 1, 0);
  }
  int i = pick([&](const Val &v) {
    return !v.dims.empty() && (kind != 3 || v.dt != DT::Bool);
  });
  if (i < 0)
    return false;
  Val a = pool_[size_t(i)];
  int rank = int(a.dims.size());
  int axis = below(rank);
  std::string axisText = axisArg(axis, rank);
  if (kind == 2) { // take_along_axis of an argmax with keepdims: the maximum
    if (!isNumeric(a.dt) || a.err != 0)
      return false;
    Dims dims = a.dims;
    dims[size_t(axis)] = Dim{};
    return addTemp("take_along_axis(" + a.name + ", argmax(" + a.name +
                       ", axis=" + axisText +
                       ", keepdims=true), axis=" + axisText + ")",
                   a.dt, dims, a.bound, 0);
  }
  Dims idDims;
  std::optional<std::string> ids = idsFor(a.dims[size_t(axis)], true, idDims);
  if (!ids)
    return false;
  Dims taken(a.dims.begin(), a.dims.begin() + axis);
  taken.insert(taken.end(), idDims.begin(), idDims.end());
  taken.insert(taken.end(), a.dims.begin() + axis + 1, a.dims.end());
  if (kind == 3) { // scatter_add of updates shaped as the take
    if (fn_->inputs.size() >= 8 || maxElements(taken) > 400)
      return false;
    const Val &u = newInput(a.dt, taken);
    double count = double(maxElements(idDims));
    double bound = a.bound + count * u.bound;
    double err = a.err + count * rounding(a.dt, bound, isFloat(a.dt));
    return addTemp("scatter_add(" + a.name + ", " + *ids + ", " + u.name +
                       ", axis=" + axisText + ")",
                   a.dt, a.dims, bound, err);
  }
  return addTemp(std::string(chance(0.5) ? "take(" : "gather(") + a.name +
                     ", " + *ids + ", axis=" + axisText + ")",
                 a.dt, taken, a.bound, a.err);
}

void Generator::genFunction(int index) {
  program_.functions.emplace_back();
  fn_ = &program_.functions.back();
  fn_->name = "f" + std::to_string(index);
  pool_ = shared_;
  temps_ = 0;
  syms_.clear();
  if (chance(0.6))
    syms_.push_back("N");
  if (chance(0.3))
    syms_.push_back("M");
  int inputs = 1 + below(2);
  for (int k = 0; k < inputs; ++k)
    newInput(randomDType(), randomDims(3));
  for (int tries = 0; loopIds_ && tries < 8; ++tries) {
    size_t inputsBefore = fn_->inputs.size(), poolBefore = pool_.size();
    if (genLoopIds())
      break;
    fn_->inputs.resize(inputsBefore);
    pool_.resize(poolBefore);
  }
  int statements = 3 + below(8);
  using Op = bool (Generator::*)();
  static const std::vector<Op> ops = {
      &Generator::genUnary,       &Generator::genUnary,
      &Generator::genBinary,      &Generator::genBinary,
      &Generator::genBinary,      &Generator::genLiteral,
      &Generator::genCompare,     &Generator::genSelect,
      &Generator::genCast,        &Generator::genCast,
      &Generator::genReduce,      &Generator::genReduce,
      &Generator::genArgmax,      &Generator::genMatmul,
      &Generator::genMatmul,      &Generator::genSoftmax,
      &Generator::genTranspose,   &Generator::genReshape,
      &Generator::genBroadcastTo, &Generator::genSlice,
      &Generator::genConcat,      &Generator::genMath,
      &Generator::genMath,        &Generator::genLogic,
      &Generator::genIndexing,    &Generator::genScan,
      &Generator::genConstructor, &Generator::genConv,
      &Generator::genLoop};
  for (int tries = 0; tries < 6 * statements && temps_ < statements; ++tries) {
    size_t inputsBefore = fn_->inputs.size(), poolBefore = pool_.size();
    if (!(this->*oneOf(ops))()) {
      // Forget inputs made for an op that was then rejected.
      fn_->inputs.resize(inputsBefore);
      pool_.resize(poolBefore);
    }
  }
  genOutputs();
  genUpdates();
}

ProgramText Generator::run() {
  program_.calls = 2 + below(3);
  favourites_ = {randomDType()};
  favourites_.push_back(randomDType());
  int shared = below(4);
  for (int k = 0; k < shared; ++k) {
    Dims dims;
    int rank = below(3);
    for (int r = 0; r < rank; ++r)
      dims.push_back(Dim{1 + below(4), ""});
    DT dt = randomDType();
    std::string name = "s" + std::to_string(k);
    shared_.push_back({name, dt, dims, inputBound(dt), 0});
    program_.shared.push_back(
        {name, std::string(dtName(dt)) + dimsStr(dims), "zeros"});
  }
  int functions = chance(0.3) ? 2 : 1;
  for (int k = 0; k < functions; ++k)
    genFunction(k);
  return program_;
}

} // namespace

ProgramText generateProgram(uint64_t seed, bool loopIds, bool badIds) {
  return Generator(seed, loopIds, badIds).run();
}

} // namespace tcc::difftest
