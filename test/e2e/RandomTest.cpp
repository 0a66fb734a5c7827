//===- RandomTest.cpp - Philox random numbers with explicit state ---------===//
//
// The reference's Philox-4x32-10 against Random123's known-answer vectors;
// compiled tc.random against that reference bit for bit (uniform,
// bernoulli) or to the rounding of log/sqrt/cos/sin (normal); the state
// advanced in `updates`; and the distributions' moments.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"
#include "test/reference/Philox.h"

#include <cmath>

using namespace tcc::e2e;
using tcc::reference::philox4x32_10;

namespace {
const DTypeKind F32 = DTypeKind::F32, F64 = DTypeKind::F64,
                I64 = DTypeKind::I64;

RefTensor state(int64_t key, int64_t call) {
  return RefTensor(I64, {2}, {double(key), double(call)});
}
} // namespace

TEST_CASE("Philox-4x32-10: Random123 known-answer vectors", "[random]") {
  // Random123 tests/kat_vectors: counter, key -> output.
  CHECK(
      philox4x32_10({0, 0, 0, 0}, {0, 0}) ==
      std::array<uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(
      philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                    {0xffffffff, 0xffffffff}) ==
      std::array<uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(
      philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                    {0xa4093822, 0x299f31d0}) ==
      std::array<uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("random: compiled code gives the known-answer words", "[random]") {
  // State [0, 0], stream 0: block 0 is counter 0, key 0; f64 uniforms keep
  // all 32 bits of each word (u * 2^-32).
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
func draw() -> (u : f64[4]) {
  u = random_uniform(rng, shape=[4], dtype=f64)
}
)");
  Outcome out = g.call("draw", {});
  RefTensor u = toRef(out.outputs[0]);
  std::array<uint32_t, 4> expected = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c,
                                      0x9b00dbd8};
  for (int i = 0; i < 4; ++i)
    CHECK(u.data[size_t(i)] * 0x1p32 == double(expected[size_t(i)]));
}

TEST_CASE("random: uniform, normal, bernoulli match the reference",
          "[random]") {
  Random rng(1401);
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
func draw(x : f32[N, 7], h : f16[N, 3], d : f64[N, 5])
    -> (u : f32[N, 7], v : f16[N, 3], w : f64[N, 5], b : bool[3, 9],
        n : f64[N, 5], m : f32[6]) {
  u = random_uniform(rng, x)
  v = random_uniform(rng, h)
  w = random_uniform(rng, d)
  b = bernoulli(rng, shape=[3, 9], dtype=bool, p=0.3)
  n = random_normal(rng, d)
  m = random_normal(rng, shape=[6])
  updates { rng = rng_advance(rng) }
}
func dropout(x : f32[N, 16]) -> (y : f32[N, 16]) {
  y = x * bernoulli(rng, x, p=0.75) / 0.75
  updates { rng = rng_advance(rng) }
}
)");
  g.setShared("rng", state(0x12345678abcdef, 77));
  for (int64_t n : {1, 5, 0, 3}) {
    g.call("draw",
           {rng.uniform(F32, {n, 7}), rng.uniform(DTypeKind::F16, {n, 3}),
            rng.uniform(F64, {n, 5})},
           {1e-5, 1e-5});
    g.call("dropout", {rng.uniform(F32, {n, 16})});
  }
  // A negative key and a call counter past 2^32 use every bit.
  g.setShared("rng", state(-5, int64_t(1) << 40));
  g.call("draw",
         {rng.uniform(F32, {2, 7}), rng.uniform(DTypeKind::F16, {2, 3}),
          rng.uniform(F64, {2, 5})},
         {1e-5, 1e-5});
}

TEST_CASE("random: the same state gives the same stream; updates advance it",
          "[random]") {
  const char *source = R"(tg 1
shared rng : i64[2] = zeros
func draw() -> (u : f32[64]) {
  u = random_uniform(rng, shape=[64])
  updates { rng = rng_advance(rng) }
}
)";
  Graph a(source), b(source);
  a.setShared("rng", state(42, 0));
  b.setShared("rng", state(42, 0));
  RefTensor first = toRef(a.call("draw", {}).outputs[0]);
  CHECK(toRef(b.call("draw", {}).outputs[0]).data == first.data);
  // The call counter moved: the next draw differs, and the state says so.
  CHECK(toRef(a.call("draw", {}).outputs[0]).data != first.data);
  CHECK(a.sharedValues().at("rng").data == std::vector<double>{42, 2});
}

TEST_CASE("random: moments of the distributions", "[random]") {
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
func draw() -> (u : f64[40000], n : f32[40000], b : f32[40000]) {
  u = random_uniform(rng, shape=[40000], dtype=f64)
  n = random_normal(rng, shape=[40000])
  b = bernoulli(rng, shape=[40000], p=0.2)
}
)");
  Outcome out = g.call("draw", {}, {1e-5, 1e-5});
  auto moments = [](const RefTensor &t) {
    double sum = 0, sq = 0;
    for (double v : t.data) {
      sum += v;
      sq += v * v;
    }
    double mean = sum / double(t.data.size());
    return std::pair{mean, sq / double(t.data.size()) - mean * mean};
  };
  auto [um, uv] = moments(toRef(out.outputs[0]));
  auto [nm, nv] = moments(toRef(out.outputs[1]));
  auto [bm, bv] = moments(toRef(out.outputs[2]));
  CHECK(std::abs(um - 0.5) < 0.01);
  CHECK(std::abs(uv - 1.0 / 12) < 0.005);
  CHECK(std::abs(nm) < 0.03);
  CHECK(std::abs(nv - 1) < 0.03);
  CHECK(std::abs(bm - 0.2) < 0.01);
  CHECK(std::abs(bv - 0.16) < 0.01);
}

TEST_CASE("random: tensor parameters broadcast and match the reference",
          "[random]") {
  // p, mean, std, low and high as tensors that broadcast to the result:
  // compiled against the reference interpreter of the same graph.
  Random rng(1402);
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
func draw(x : f32[N, 4], keep : f32[4], mu : f32[N, 1], sigma : f32[4],
          lo : f64[N, 3], hi : f64[3], p : f64[2, 5])
    -> (m : f32[N, 4], z : f32[N, 4], u : f64[N, 3], b : bool[2, 5],
        s : f32[N, 4], w : f32[N, 4]) {
  m = bernoulli(rng, x, p=keep)
  z = random_normal(rng, x, mean=mu, std=sigma)
  u = random_uniform(rng, lo, low=lo, high=hi)
  b = bernoulli(rng, shape=[2, 5], dtype=bool, p=p)
  s = random_normal(rng, x, std=sigma)
  w = random_uniform(rng, x, low=-2, high=keep)
  updates { rng = rng_advance(rng) }
}
)");
  g.setShared("rng", state(0x5eed, 3));
  for (int64_t n : {3, 1, 0}) {
    RefTensor keep = rng.uniform(F32, {4});
    RefTensor p = rng.uniform(F64, {2, 5});
    p.data[0] = 0; // never
    p.data[1] = 1; // always
    g.call("draw",
           {rng.uniform(F32, {n, 4}), keep, rng.uniform(F32, {n, 1}),
            rng.uniform(F32, {4}), rng.uniform(F64, {n, 3}),
            rng.uniform(F64, {3}), p},
           {1e-5, 1e-5});
  }
}

TEST_CASE("random: a tensor p draws what the same number p draws", "[random]") {
  // u * 2^-32 < p (a tensor) is u < ceil(p * 2^32) (a number): the same
  // bits from the same state and stream.
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
func number(x : f32[N]) -> (b : f32[N]) {
  b = bernoulli(rng, x, p=0.25)
}
func tensor(x : f32[N], p : f32[]) -> (b : f32[N]) {
  b = bernoulli(rng, x, p=p)
}
)");
  g.setShared("rng", state(7, 11));
  RefTensor x(F32, {1000}, std::vector<double>(1000, 0.0));
  RefTensor p(F32, {}, {0.25});
  std::vector<double> a = toRef(g.call("number", {x}).outputs[0]).data;
  std::vector<double> b = toRef(g.call("tensor", {x, p}).outputs[0]).data;
  // Equal masks, and not all zeros or ones.
  CHECK(a == b);
  double ones = 0;
  for (double v : a)
    ones += v;
  CHECK(ones > 150);
  CHECK(ones < 350);
}

TEST_CASE("random: moments with tensor parameters", "[random]") {
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
func draw(p : f32[2, 1], mu : f32[2, 1], sigma : f32[2, 1])
    -> (b : f32[2, 20000], n : f32[2, 20000]) {
  b = bernoulli(rng, shape=[2, 20000], p=p)
  n = random_normal(rng, shape=[2, 20000], mean=mu, std=sigma)
}
)");
  RefTensor p(F32, {2, 1}, {0.1, 0.7});
  RefTensor mu(F32, {2, 1}, {-3, 5});
  RefTensor sigma(F32, {2, 1}, {0.5, 2});
  Outcome out = g.call("draw", {p, mu, sigma}, {1e-5, 1e-5});
  RefTensor b = toRef(out.outputs[0]), n = toRef(out.outputs[1]);
  for (int row = 0; row < 2; ++row) {
    double bs = 0, ns = 0, nq = 0;
    for (int64_t i = 0; i < 20000; ++i) {
      bs += b.data[size_t(row * 20000 + i)];
      double v = n.data[size_t(row * 20000 + i)];
      ns += v;
      nq += v * v;
    }
    double nm = ns / 20000, nv = nq / 20000 - nm * nm;
    CHECK(std::abs(bs / 20000 - p.data[size_t(row)]) < 0.015);
    CHECK(std::abs(nm - mu.data[size_t(row)]) < 0.05);
    CHECK(std::abs(std::sqrt(nv) / sigma.data[size_t(row)] - 1) < 0.03);
  }
}

TEST_CASE("random: grad through mean and std (reparameterization)",
          "[random]") {
  // z = mu + sigma * e: d sum(z * w) / d mu = sum of w over the broadcast
  // rows, d / d sigma = sum of w * e = w * (z - mu) / sigma.
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
func f(w : f32[N, 3], mu : f32[N, 1], sigma : f32[3])
    -> (z : f32[N, 3], dmu : f32[N, 1], dsigma : f32[3]) {
  z = random_normal(rng, w, mean=mu, std=sigma)
  dmu, dsigma = grad(sum(z * w), [mu, sigma])
}
)");
  RefTensor w(F32, {2, 3}, {1, 2, 3, -1, 0.5, 2});
  RefTensor mu(F32, {2, 1}, {1, -2});
  RefTensor sigma(F32, {3}, {0.5, 2, 3});
  Outcome out = g.call("f", {w, mu, sigma}, {1e-5, 1e-5});
  RefTensor z = toRef(out.outputs[0]);
  RefTensor dmu = toRef(out.outputs[1]), dsigma = toRef(out.outputs[2]);
  for (int64_t i = 0; i < 2; ++i) {
    double rowSum = 0;
    for (int64_t j = 0; j < 3; ++j)
      rowSum += w.data[size_t(i * 3 + j)];
    CHECK(std::abs(dmu.data[size_t(i)] - rowSum) < 1e-5);
  }
  for (int64_t j = 0; j < 3; ++j) {
    double want = 0;
    for (int64_t i = 0; i < 2; ++i)
      want += w.data[size_t(i * 3 + j)] *
              (z.data[size_t(i * 3 + j)] - mu.data[size_t(i)]) /
              sigma.data[size_t(j)];
    CHECK(std::abs(dsigma.data[size_t(j)] - want) < 1e-4);
  }
}
