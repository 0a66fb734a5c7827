//===- ConstructorsTest.cpp - arange, eye, tril, full, scans, calls -------===//
//
// The constructors (arange, iota, eye, zeros, ones, full, *_like, tril,
// triu), the scans (cumsum, cumprod) and calls of a file's own functions,
// over dtypes and dynamic sizes, checked against the float64 reference; a
// few values are also checked against numpy's, written out by hand.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

#include <limits>

using namespace tcc::e2e;

namespace {

const std::vector<DTypeKind> kNumberTypes = {DTypeKind::F32, DTypeKind::F64,
                                             DTypeKind::F16, DTypeKind::BF16,
                                             DTypeKind::I32, DTypeKind::I64};

} // namespace

TEST_CASE("constructors of symbolic shapes", "[constructors]") {
  Random rng(1301);
  for (DTypeKind dtype : kNumberTypes) {
    std::string t = tgName(dtype);
    INFO("dtype " << t);
    Graph g("tg 1\n"
            "func make(x : " +
            t + "[T, D]) -> (a : " + t + "[T], e : " + t + "[T, D], l : " + t +
            "[T, D], u : " + t + "[T, D], z : " + t + "[T, D], o : " + t +
            "[D, T], f : " + t + "[2, T], i : " + t +
            "[T, 3]) {\n"
            "  a = arange(T, dtype=" +
            t +
            ")\n"
            "  e = eye(T, D, k=1, dtype=" +
            t +
            ") + x\n"
            "  l = tril(x, -1)\n"
            "  u = triu(x, k=2)\n"
            "  z = zeros_like(x)\n"
            "  o = ones([D, T], dtype=" +
            t +
            ")\n"
            "  f = full([2, T], 3, dtype=" +
            t +
            ")\n"
            "  i = iota([T, 3], axis=1, dtype=" +
            t +
            ")\n"
            "}\n");
    for (int64_t n : {1, 5, 17})
      for (int64_t d : {1, 4})
        g.call("make", {rng.uniform(dtype, {n, d}, -5, 5)});
  }
}

TEST_CASE("tril of a bool mask and a causal softmax", "[constructors]") {
  Random rng(1302);
  Graph g("tg 1\n"
          "func attend(s : f32[B, T, T]) -> (p : f32[B, T, T], m : bool[T, T]) "
          "{\n"
          "  m = tril(ones([T, T], dtype=bool))\n"
          "  p = softmax(select(m, s, full([T, T], -inf)), axis=-1)\n"
          "}\n");
  for (int64_t n : {1, 6, 33})
    g.call("attend", {rng.uniform(DTypeKind::F32, {2, n, n}, -3, 3)});
}

TEST_CASE("constructors give numpy's values", "[constructors]") {
  Graph g("tg 1\n"
          "func vals(x : f32[N]) -> (a : i64[3], b : f32[6], c : f32[N], "
          "e : f32[3, 3], t : f32[3, 3], s : f32[N], p : i64[4]) {\n"
          "  a = arange(2, 11, 3)\n"
          "  b = arange(0.5, 2.0, 0.25)\n"
          "  c = x + arange(N, dtype=f32)\n"
          "  e = eye(3, k=-1)\n"
          "  t = triu(ones([3, 3]))\n"
          "  s = cumsum(x)\n"
          "  p = cumprod(arange(1, 5), axis=0)\n"
          "}\n");
  Outcome o = g.call("vals", {RefTensor(DTypeKind::F32, {3}, {1, 2, 3})});
  CHECK(toRef(o.outputs[0]).data == std::vector<double>{2, 5, 8});
  CHECK(toRef(o.outputs[1]).data ==
        std::vector<double>{0.5, 0.75, 1, 1.25, 1.5, 1.75});
  CHECK(toRef(o.outputs[2]).data == std::vector<double>{1, 3, 5});
  CHECK(toRef(o.outputs[3]).data ==
        std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0});
  CHECK(toRef(o.outputs[4]).data ==
        std::vector<double>{1, 1, 1, 0, 1, 1, 0, 0, 1});
  CHECK(toRef(o.outputs[5]).data == std::vector<double>{1, 3, 6});
  CHECK(toRef(o.outputs[6]).data == std::vector<double>{1, 2, 6, 24});
}

TEST_CASE("cumsum and cumprod over dtypes and axes", "[constructors][scan]") {
  Random rng(1303);
  for (DTypeKind dtype : kNumberTypes) {
    std::string t = tgName(dtype);
    INFO("dtype " << t);
    Graph g("tg 1\n"
            "func scan(x : " +
            t + "[N, M, 3]) -> (s0 : " + t + "[N, M, 3], s1 : " + t +
            "[N, M, 3], p1 : " + t + "[N, M, 3], p2 : " + t +
            "[N, M, 3]) {\n"
            "  s0 = cumsum(x, axis=0)\n"
            "  s1 = cumsum(x, 1)\n"
            "  p1 = cumprod(x, axis=-2)\n"
            "  p2 = cumprod(x, axis=2)\n"
            "}\n");
    bool integer = dtype == DTypeKind::I32 || dtype == DTypeKind::I64;
    bool narrow = dtype == DTypeKind::F16 || dtype == DTypeKind::BF16;
    // Products of values near 1 (or of -1, 1, 2) neither overflow nor
    // vanish; narrow floats compare with a tolerance for their rounding.
    Tolerance tol;
    if (narrow)
      tol = {3e-2, 3e-2};
    for (auto [n, m] : {std::pair<int64_t, int64_t>{1, 1}, {4, 9}, {7, 16}}) {
      RefTensor x = integer ? rng.choice(dtype, {n, m, 3}, {-1, 1, 2})
                            : rng.uniform(dtype, {n, m, 3}, 0.7, 1.3);
      g.call("scan", {x}, tol);
    }
  }
}

TEST_CASE("scans along long axes and of rank 1, 2 and 4",
          "[constructors][scan]") {
  // The host's scans are sequential loops: a long axis checks the order of
  // the additions against the reference, a rank-4 input the loops before
  // and after the axis, an empty one that no loop runs.
  Random rng(1304);
  Graph g("tg 1\n"
          "func long(x : f64[N], y : f32[2, M]) -> (s : f64[N], t : f32[2, M], "
          "u : f32[2, M]) {\n"
          "  s = cumsum(x)\n"
          "  t = cumsum(y, axis=1)\n"
          "  u = cumprod(y, axis=0)\n"
          "}\n"
          "func r4(x : f32[A, B, C, 5]) -> (p : f32[A, B, C, 5], q : i64[A, B, "
          "C, 5]) {\n"
          "  p = cumsum(x, axis=1) + cumprod(x, axis=2)\n"
          "  q = cumsum(cast(x * 4, dtype=i64), axis=0)\n"
          "}\n");
  for (int64_t n : {0, 1, 1000, 4099})
    g.call("long",
           {rng.uniform(DTypeKind::F64, {n}, -1, 1),
            rng.uniform(DTypeKind::F32, {2, n}, -1, 1)},
           Tolerance{1e-4, 1e-3});
  for (auto [a, b, c] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
           {1, 1, 1}, {2, 3, 4}, {3, 0, 2}, {2, 33, 3}})
    g.call("r4", {rng.uniform(DTypeKind::F32, {a, b, c, 5}, 0.8, 1.2)},
           Tolerance{1e-5, 1e-5});
}

TEST_CASE("arange up to a dimension name counts numpy's elements",
          "[constructors]") {
  for (DTypeKind dtype : kNumberTypes) {
    std::string t = tgName(dtype);
    INFO("dtype " << t);
    Graph g("tg 1\n"
            "func f(x : f32[T]) -> (a : " +
            t + "[R1], b : " + t + "[R2], c : " + t + "[R3], d : " + t +
            "[R4], e : " + t +
            "[0], s : f32[R1]) {\n"
            "  a = arange(1, T, dtype=" +
            t +
            ")\n"
            "  b = arange(-2, T, 3, dtype=" +
            t +
            ")\n"
            "  c = arange(9, T, -2, dtype=" +
            t +
            ")\n"
            "  d = arange(3, T, 2, dtype=" +
            t +
            ")\n"
            "  e = arange(0, T, -1, dtype=" +
            t +
            ")\n"
            "  s = x[1:] + arange(1, T, dtype=f32)\n"
            "}\n");
    for (int64_t n : {0, 1, 5, 12}) {
      RefTensor x(DTypeKind::F32, {n}, std::vector<double>(n, 0.5));
      Outcome o = g.call("f", {x});
      auto range = [](int64_t start, int64_t stop, int64_t step) {
        std::vector<double> v;
        for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
          v.push_back(double(i));
        return v;
      };
      CHECK(toRef(o.outputs[0]).data == range(1, n, 1));
      CHECK(toRef(o.outputs[1]).data == range(-2, n, 3));
      CHECK(toRef(o.outputs[2]).data == range(9, n, -2));
      CHECK(toRef(o.outputs[3]).data == range(3, n, 2));
      CHECK(toRef(o.outputs[4]).data.empty());
      std::vector<double> shifted = range(1, n, 1);
      for (double &v : shifted)
        v += 0.5;
      CHECK(toRef(o.outputs[5]).data == shifted);
    }
  }
}

TEST_CASE("a called function is the same as the inlined text",
          "[constructors][calls]") {
  Random rng(1304);
  Graph g(
      "tg 1\n"
      "shared gain : f32[4] = uniform(low=0.5, high=1.5, seed=3)\n"
      "func layer_norm(x : f32[N, D], g : f32[D], b : f32[D]) -> "
      "(y : f32[N, D]) {\n"
      "  mu = mean(x, axis=1, keepdims=true)\n"
      "  y = (x - mu) / sqrt(var(x, axis=1, keepdims=true) + 1e-5) * g + b\n"
      "}\n"
      "func moments(x : f32[N, D]) -> (lo : f32[N], hi : f32[N, 1]) {\n"
      "  lo = min(reshape(x, shape=[N, D]), axis=1)\n"
      "  hi = max(x, axis=1, keepdims=true)\n"
      "}\n"
      "func called(x : f32[B, 4], b : f32[4]) -> (y : f32[B, 4], "
      "lo : f32[B], hi : f32[B, 1]) {\n"
      "  y = layer_norm(layer_norm(x, gain, b) * 2, gain, b)\n"
      "  lo, hi = moments(y)\n"
      "}\n"
      "func inline(x : f32[B, 4], b : f32[4]) -> (y : f32[B, 4], "
      "lo : f32[B], hi : f32[B, 1]) {\n"
      "  mu = mean(x, axis=1, keepdims=true)\n"
      "  h = ((x - mu) / sqrt(var(x, axis=1, keepdims=true) + 1e-5) * gain "
      "+ b) * 2\n"
      "  mu2 = mean(h, axis=1, keepdims=true)\n"
      "  y = (h - mu2) / sqrt(var(h, axis=1, keepdims=true) + 1e-5) * gain "
      "+ b\n"
      "  lo = min(y, axis=1)\n"
      "  hi = max(y, axis=1, keepdims=true)\n"
      "}\n");
  for (int64_t n : {1, 5}) {
    RefTensor x = rng.uniform(DTypeKind::F32, {n, 4}, -3, 3);
    RefTensor b = rng.uniform(DTypeKind::F32, {4}, -1, 1);
    Outcome called = g.call("called", {x, b});
    Outcome inlined = g.call("inline", {x, b});
    for (size_t i = 0; i < 3; ++i)
      CHECK(toRef(called.outputs[i]).data == toRef(inlined.outputs[i]).data);
  }
}
