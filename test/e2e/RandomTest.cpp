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
