//===- MathTest.cpp - math functions, rounding, clip and logic ------------===//
//
// erf log1p expm1 softplus sin cos floor ceil round sign clip, the logical
// ops and operators, and inf/nan and calls on literals: every float dtype
// with a dynamic dimension, checked against the float64 reference.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

#include <limits>

using namespace tcc::e2e;

namespace {

const std::vector<DTypeKind> kFloatTypes = {DTypeKind::F32, DTypeKind::F64,
                                            DTypeKind::F16, DTypeKind::BF16};

/// The float math functions on `x : T[N, 7]` (any value) and `p : T[N, 7]`
/// (log1p's domain, > -1).
std::string mathGraph(DTypeKind dtype) {
  std::string t = std::string(tgName(dtype)) + "[N, 7]";
  return "tg 1\n"
         "func math(x : " +
         t + ", p : " + t +
         ")\n"
         "    -> (er : " +
         t + ", l1 : " + t + ", e1 : " + t + ", sp : " + t + ", si : " + t +
         ", co : " + t + ", sg : " + t +
         ") {\n"
         "  er = erf(x)\n"
         "  l1 = log1p(p)\n"
         "  e1 = expm1(x)\n"
         "  sp = softplus(x * 8)\n"
         "  si = sin(x)\n"
         "  co = cos(x)\n"
         "  sg = sign(x)\n"
         "}\n"
         "func rounding(x : " +
         t + ", lo : " + tgName(dtype) + "[7], hi : " + tgName(dtype) +
         "[]) -> (fl : " + t + ", ce : " + t + ", ro : " + t + ", cl : " + t +
         ") {\n"
         "  fl = floor(x)\n"
         "  ce = ceil(x)\n"
         "  ro = round(x)\n"
         "  cl = clip(x, lo, hi)\n"
         "}\n";
}

} // namespace

TEST_CASE("float math functions", "[elementwise][math]") {
  Random rng(301);
  for (DTypeKind dtype : kFloatTypes) {
    INFO("dtype " << tgName(dtype));
    Graph g(mathGraph(dtype));
    for (int64_t n : {3, 16}) {
      RefTensor x = rng.uniform(dtype, {n, 7}, -4, 4);
      RefTensor p = rng.uniform(dtype, {n, 7}, -0.95, 20);
      g.call("math", {x, p});
    }
  }
}

TEST_CASE("log1p and expm1 keep small values", "[elementwise][math]") {
  // log(1 + x) and exp(x) - 1 would lose every digit here.
  for (DTypeKind dtype : {DTypeKind::F32, DTypeKind::F64}) {
    INFO("dtype " << tgName(dtype));
    Graph g("tg 1\nfunc small(x : " + std::string(tgName(dtype)) +
            "[N]) -> (l : " + tgName(dtype) + "[N], e : " + tgName(dtype) +
            "[N]) {\n  l = log1p(x)\n  e = expm1(x)\n}\n");
    RefTensor x(dtype, {6}, {1e-10, -3e-9, 1e-5, -2e-7, 0, 1e-20});
    g.call("small", {x}, {dtype == DTypeKind::F64 ? 1e-14 : 1e-6, 0});
  }
}

TEST_CASE("softplus at the extremes", "[elementwise][math]") {
  const double inf = std::numeric_limits<double>::infinity();
  Graph g("tg 1\nfunc sp(x : f32[N]) -> (y : f32[N]) { y = softplus(x) }\n");
  RefTensor x(DTypeKind::F32, {7}, {-100, -20, 0, 20, 100, 1e30, -inf});
  g.call("sp", {x});
}

TEST_CASE("rounding, ties to even, and clip", "[elementwise][math]") {
  Random rng(302);
  // Ties of both parities and signs, and values near them.
  std::vector<double> ties = {-2.5, -1.5, -0.5, 0.5,   1.5,  2.5, 3.5,
                              -3.0, 0.0,  2.0,  -0.25, 0.75, 1.25};
  for (DTypeKind dtype : kFloatTypes) {
    INFO("dtype " << tgName(dtype));
    Graph g(mathGraph(dtype));
    for (int64_t n : {2, 9}) {
      g.call("rounding",
             {rng.choice(dtype, {n, 7}, ties), rng.uniform(dtype, {7}, -2, 0),
              rng.uniform(dtype, {}, 0.5, 2)});
      g.call("rounding",
             {rng.uniform(dtype, {n, 7}, -50, 50),
              rng.uniform(dtype, {7}, -20, 0), rng.uniform(dtype, {}, 0, 20)});
    }
  }
}

TEST_CASE("integer sign and clip", "[elementwise][math]") {
  Random rng(303);
  for (DTypeKind dtype : {DTypeKind::I32, DTypeKind::I64}) {
    INFO("dtype " << tgName(dtype));
    std::string n = tgName(dtype);
    Graph g("tg 1\nfunc f(x : " + n + "[N, 5], lo : " + n +
            "[5]) -> (s : " + n + "[N, 5], c : " + n + "[N, 5], k : " + n +
            "[N, 5]) {\n"
            "  s = sign(x)\n"
            "  c = clip(x, lo, 7)\n"
            "  k = clip(x, -3, 3)\n"
            "}\n");
    for (int64_t rows : {1, 6})
      g.call("f", {rng.uniform(dtype, {rows, 5}, -10, 10),
                   rng.uniform(dtype, {5}, -8, 0)});
  }
}

TEST_CASE("logical ops and operators", "[elementwise][math]") {
  Random rng(304);
  Graph g(R"(tg 1
func logic(p : bool[N, 4], q : bool[4], x : f32[N, 4])
    -> (a : bool[N, 4], o : bool[N, 4], n : bool[N, 4], xo : bool[N, 4],
        fa : bool[N, 4], fo : bool[N, 4], fn : bool[N, 4], mix : bool[N, 4],
        lit : bool[N, 4]) {
  a = p & q
  o = p | q
  n = ~p
  xo = logical_xor(p, q)
  fa = logical_and(x > 0, q)
  fo = logical_or(p, x < -1)
  fn = logical_not(x > 2)
  mix = (x > 0) & ~q | p & (x < 3)
  lit = p & true | false ^ q
}
)");
  for (int64_t n : {1, 5})
    g.call("logic",
           {rng.uniform(DTypeKind::I1, {n, 4}), rng.uniform(DTypeKind::I1, {4}),
            rng.uniform(DTypeKind::F32, {n, 4}, -4, 4)});
}

TEST_CASE("inf, nan and calls on literals", "[elementwise][math]") {
  Random rng(305);
  Graph g(R"(tg 1
func lits(x : f32[N], c : bool[N]) -> (m : f32[N], s : f32[N], w : f32[N],
    e : f64[N], n : f32[N], k : i64[N]) {
  m = maximum(x, -inf)
  s = x * sqrt(16) + exp(0) - erf(0)
  w = select(c, 1.0, 0.0)
  e = cast(x, dtype=f64) + log1p(1e-10) + round(2.5) + floor(-0.5)
  n = select(c, x, nan)
  k = select(c, abs(-3), sign(-7))
}
)");
  for (int64_t n : {2, 7})
    g.call("lits", {rng.uniform(DTypeKind::F32, {n}, -3, 3),
                    rng.uniform(DTypeKind::I1, {n})});
}

TEST_CASE("logsumexp, var and std", "[reduction][math]") {
  Random rng(306);
  for (DTypeKind dtype : kFloatTypes) {
    INFO("dtype " << tgName(dtype));
    std::string n = tgName(dtype);
    Graph g("tg 1\nfunc stats(x : " + n + "[N, 6, 4]) -> (l : " + n +
            "[N, 4], lk : " + n + "[N, 1, 1], v : " + n + "[6, 4], s : " + n +
            "[N], v1 : " + n + "[N, 1, 4], s1 : " + n +
            "[N, 6]) {\n"
            "  l = logsumexp(x, axis=1)\n"
            "  lk = logsumexp(x * 30, axis=[1, 2], keepdims=true)\n"
            "  v = var(x, axis=0)\n"
            "  s = std(x, axis=[1, 2])\n"
            "  v1 = var(x + 100, axis=1, keepdims=true, ddof=1)\n"
            "  s1 = std(x, axis=-1, ddof=1)\n"
            "}\n");
    for (int64_t rows : {1, 5})
      g.call("stats", {rng.uniform(dtype, {rows, 6, 4}, -3, 3)});
  }
}

TEST_CASE("logsumexp of infinities and var of too few elements",
          "[reduction][math]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Graph g(R"(tg 1
func edge(x : f32[N, 3]) -> (l : f32[N], v : f32[N]) {
  l = logsumexp(x, axis=1)
  v = var(x, axis=1, ddof=3)
}
)");
  // Rows: all -inf, one +inf, a NaN, large finite values.
  RefTensor x(DTypeKind::F32, {4, 3},
              {-inf, -inf, -inf, 1, inf, 2, 3, nan, 1, 1e30, 1e30, -1e30});
  g.call("edge", {x});
}

TEST_CASE("exact GELU and LayerNorm without workarounds", "[math][models]") {
  // Issue 13's GELU needed erf; LayerNorm needed var; masks needed & and ~.
  Random rng(307);
  Graph g(R"(tg 1
func block(x : f32[N, 8], g : f32[8], b : f32[8], keep : bool[N, 8])
    -> (y : f32[N, 8]) {
  mu = mean(x, axis=-1, keepdims=true)
  n = (x - mu) / sqrt(var(x, axis=-1, keepdims=true) + 1e-5) * g + b
  gelu = 0.5 * n * (1 + erf(n / sqrt(2)))
  y = select(keep & ~(gelu < -inf), gelu, 0.0)
}
)");
  for (int64_t n : {1, 6})
    g.call("block", {rng.uniform(DTypeKind::F32, {n, 8}, -3, 3),
                     rng.uniform(DTypeKind::F32, {8}, 0.5, 1.5),
                     rng.uniform(DTypeKind::F32, {8}, -0.5, 0.5),
                     rng.uniform(DTypeKind::I1, {n, 8})});
}

TEST_CASE("sin and cos of large arguments", "[elementwise][math]") {
  // Positional encodings take sin of 1e4 and more; a polynomial with a
  // one-constant argument reduction would be off by 1e-3 there.
  Random rng(308);
  for (DTypeKind dtype : {DTypeKind::F32, DTypeKind::F64}) {
    INFO("dtype " << tgName(dtype));
    std::string n = tgName(dtype);
    Graph g("tg 1\nfunc sc(x : " + n + "[N]) -> (s : " + n + "[N], c : " + n +
            "[N]) {\n  s = sin(x)\n  c = cos(x)\n}\n");
    for (double range : {100.0, 1e4, 1e6})
      g.call("sc", {rng.uniform(dtype, {64}, -range, range)});
  }
}
