//===- ReductionTest.cpp - sum mean max min prod and argmax ---------------===//

#include "test/e2e/Harness.h"

#include <algorithm>

using namespace tcc::e2e;

namespace {

/// One way to call a reduction: the `axis=` argument as written, and the
/// axes it means (normalized, sorted; empty: all).
struct AxisSpec {
  std::string text; // "" for no axis argument
  std::vector<int64_t> axes;
};

const std::vector<AxisSpec> kAxisSpecs = {
    {"", {}},           {"0", {0}},
    {"1", {1}},         {"2", {2}},
    {"[0, 2]", {0, 2}}, {"[1, 2]", {1, 2}},
    {"[0, 1]", {0, 1}}, {"[0, 1, 2]", {0, 1, 2}}};

/// Negative axes count from the end.
const std::vector<AxisSpec> kNegativeAxisSpecs = {
    {"-1", {2}}, {"[-3, -1]", {0, 2}}, {"[0, -2]", {0, 1}}};

std::string dimsOf(const std::vector<int64_t> &shape,
                   const std::vector<int64_t> &axes, bool keepdims) {
  std::vector<std::string> dims;
  for (int64_t i = 0; i < int64_t(shape.size()); ++i) {
    bool reduced = axes.empty() || std::count(axes.begin(), axes.end(), i);
    if (!reduced)
      dims.push_back(std::to_string(shape[size_t(i)]));
    else if (keepdims)
      dims.push_back("1");
  }
  return tgShape(dims);
}

/// One function per op, axis set and keepdims: `OP_K(x : T[shape]) -> (r)`,
/// called `OP_0`, `OP_1`, ... in the order of `specs` x {false, true}.
/// (Not all in one function: outputs that share a value do not compile, see
/// "mean with and without keepdims as outputs" below.)
std::string reductionGraph(DTypeKind dtype, const std::vector<int64_t> &shape,
                           const std::vector<std::string> &ops,
                           const std::vector<AxisSpec> &specs = kAxisSpecs) {
  std::string t = tgName(dtype);
  std::vector<std::string> dims;
  for (int64_t d : shape)
    dims.push_back(std::to_string(d));
  std::string text = "tg 1\n";
  for (const std::string &op : ops) {
    int k = 0;
    for (const AxisSpec &a : specs)
      for (bool keep : {false, true}) {
        text += "func " + op + "_" + std::to_string(k++) + "(x : " + t +
                tgShape(dims) + ") -> (r : " + t + dimsOf(shape, a.axes, keep) +
                ") {\n  r = " + op + "(x";
        if (!a.text.empty())
          text += ", axis=" + a.text;
        if (keep)
          text += ", keepdims=true";
        text += ")\n}\n";
      }
  }
  return text;
}

/// Calls every function of reductionGraph for `ops` on `x`.
void callAll(Graph &g, const std::vector<std::string> &ops, const RefTensor &x,
             Tolerance tol = {},
             const std::vector<AxisSpec> &specs = kAxisSpecs) {
  for (const std::string &op : ops)
    for (size_t k = 0; k < 2 * specs.size(); ++k) {
      INFO(op << " axis=" << specs[k / 2].text
              << " keepdims=" << (k % 2 ? "true" : "false"));
      g.call(op + "_" + std::to_string(k), {x}, tol);
    }
}

/// Sums of up to 60 terms of magnitude <= 4, in any order the compiler
/// likes (reductions may be reassociated): the error is bounded by
/// n * eps * sum|x|, not by the result.
Tolerance sumTolerance(DTypeKind dtype) {
  return dtype == DTypeKind::F64 ? Tolerance{1e-12, 1e-11}
                                 : Tolerance{1e-5, 1e-4};
}

} // namespace

TEST_CASE("float reductions over every axis set with and without keepdims",
          "[reduction]") {
  Random rng(301);
  for (DTypeKind dtype : {DTypeKind::F32, DTypeKind::F64}) {
    INFO("dtype " << tgName(dtype));
    std::vector<std::string> ops = {"sum", "mean", "max", "min"};
    Graph g(reductionGraph(dtype, {3, 4, 5}, ops));
    Graph p(reductionGraph(dtype, {3, 4, 5}, {"prod"}));
    for (int trial = 0; trial < 2; ++trial) {
      callAll(g, ops, rng.uniform(dtype, {3, 4, 5}, -4, 4),
              sumTolerance(dtype));
      // Factors near 1: a product of 60 of them stays in range.
      callAll(p, {"prod"}, rng.uniform(dtype, {3, 4, 5}, 0.7, 1.3),
              {2e-5, 1e-6});
    }
  }
}

TEST_CASE("integer reductions", "[reduction]") {
  Random rng(302);
  for (DTypeKind dtype : {DTypeKind::I32, DTypeKind::I64}) {
    INFO("dtype " << tgName(dtype));
    std::vector<std::string> ops = {"sum", "max", "min"};
    Graph g(reductionGraph(dtype, {3, 4, 5}, ops));
    Graph p(reductionGraph(dtype, {2, 3, 2}, {"prod"}));
    for (int trial = 0; trial < 2; ++trial) {
      callAll(g, ops, rng.uniform(dtype, {3, 4, 5}, -1000, 1000));
      // All negative: max must not start from 0.
      callAll(g, ops, rng.uniform(dtype, {3, 4, 5}, -1000, -1));
      callAll(p, {"prod"}, rng.uniform(dtype, {2, 3, 2}, -3, 3));
    }
  }
}

TEST_CASE("reductions over negative axes", "[reduction]") {
  Random rng(309);
  std::vector<std::string> ops = {"sum", "max", "mean"};
  Graph g(reductionGraph(DTypeKind::F32, {3, 4, 5}, ops, kNegativeAxisSpecs));
  callAll(g, ops, rng.uniform(DTypeKind::F32, {3, 4, 5}, -4, 4),
          sumTolerance(DTypeKind::F32), kNegativeAxisSpecs);
}

TEST_CASE("reductions over a dynamic dimension", "[reduction][dynamic]") {
  Random rng(303);
  Graph g(R"(tg 1
func f(x : f32[N, 6]) -> (s0 : f32[6], s1 : f32[N], m0 : f32[1, 6],
                          mx : f32[6], mn : f32[N, 1], all : f32[]) {
  s0 = sum(x, axis=0)
  s1 = sum(x, axis=1)
  m0 = mean(x, axis=0, keepdims=true)
  mx = max(x, axis=0)
  mn = min(x, axis=1, keepdims=true)
  all = sum(x)
}
)");
  for (int64_t n : {1, 2, 9, 40})
    g.call("f", {rng.uniform(DTypeKind::F32, {n, 6}, -3, 3)}, {1e-5, 1e-4});
}

TEST_CASE("long float sums", "[reduction]") {
  Random rng(304);
  Graph g(R"(tg 1
func f(x : f32[4, 1000]) -> (s : f32[4], m : f32[4]) {
  s = sum(x, axis=1)
  m = mean(x, axis=1)
}
)");
  // f32 accumulation over 1000 terms: an error of a few 1e-5 is fine.
  g.call("f", {rng.uniform(DTypeKind::F32, {4, 1000}, -1, 1)}, {1e-5, 1e-4});
}

TEST_CASE("argmax with ties on every axis with keepdims",
          "[reduction][argmax]") {
  Random rng(305);
  for (DTypeKind dtype :
       {DTypeKind::F32, DTypeKind::F64, DTypeKind::I32, DTypeKind::I64}) {
    INFO("dtype " << tgName(dtype));
    std::string t = std::string(tgName(dtype)) + "[4, 5, 6]";
    Graph g("tg 1\n"
            "func am(x : " +
            t +
            ") -> (a0 : i64[5, 6], a1 : i64[4, 6],\n"
            "    a2 : i64[4, 5], am1 : i64[4, 5], k0 : i64[1, 5, 6],\n"
            "    k1 : i64[4, 1, 6], k2 : i64[4, 5, 1]) {\n"
            "  a0 = argmax(x, axis=0)\n"
            "  a1 = argmax(x, axis=1)\n"
            "  a2 = argmax(x, axis=2)\n"
            "  am1 = argmax(x)\n"
            "  k0 = argmax(x, axis=0, keepdims=true)\n"
            "  k1 = argmax(x, axis=1, keepdims=true)\n"
            "  k2 = argmax(x, axis=-1, keepdims=true)\n"
            "}\n");
    for (int trial = 0; trial < 3; ++trial) {
      // Few distinct values: many ties, where the first index must win.
      g.call("am", {rng.choice(dtype, {4, 5, 6}, {0, 1, 2, 3})});
      // All negative.
      g.call("am", {rng.choice(dtype, {4, 5, 6}, {-7, -5, -3})});
    }
    g.call("am", {RefTensor::filled(dtype, {4, 5, 6}, 1)});
  }
}

TEST_CASE("argmax over a dynamic batch", "[reduction][argmax][dynamic]") {
  Random rng(306);
  Graph g(R"(tg 1
func am(x : f32[N, 10]) -> (rows : i64[N], cols : i64[10]) {
  rows = argmax(x, axis=1)
  cols = argmax(x, axis=0)
}
)");
  for (int64_t n : {1, 3, 16})
    g.call("am", {rng.uniform(DTypeKind::F32, {n, 10}, -5, 5)});
}

// Two reductions whose init tensors CSE merges (same shape and start value),
// both outputs. (Did not compile before c9aa6f2: "'linalg.fill' op not
// bufferizable under the given constraints: cannot avoid RaW conflict".)
TEST_CASE("two reductions of the same shape as outputs", "[reduction]") {
  Random rng(307);
  Graph g(R"(tg 1
func f(x : f32[2, 2]) -> (a : f32[2], b : f32[2]) {
  a = sum(x, axis=0)
  b = sum(x, axis=1)
}
)");
  g.call("f", {rng.uniform(DTypeKind::F32, {2, 2})});
}

TEST_CASE("sum and mean of one tensor as outputs", "[reduction]") {
  Random rng(308);
  Graph g(R"(tg 1
func f(x : f32[3, 4]) -> (s : f32[3], m : f32[3]) {
  s = sum(x, axis=1)
  m = mean(x, axis=1)
}
)");
  g.call("f", {rng.uniform(DTypeKind::F32, {3, 4})});
}

// Regression test (fixed): outputs that share an intermediate value do not
// compile (the RaW bug of MemoryModelTest.cpp); here both means share their
// sum:
//   'linalg.generic' op not bufferizable under the given constraints:
//   cannot avoid RaW conflict
TEST_CASE("mean with and without keepdims as outputs", "[reduction]") {
  Random rng(310);
  Graph g(R"(tg 1
func f(x : f32[3, 4]) -> (r : f32[], rk : f32[1, 1]) {
  r = mean(x)
  rk = mean(x, keepdims=true)
}
)");
  g.call("f", {rng.uniform(DTypeKind::F32, {3, 4})});
}
