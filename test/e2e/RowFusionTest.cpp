//===- RowFusionTest.cpp - reductions over rows and their consumers -------===//
//
// tcc-row-fusion (compiler/pipelines/RowFusion.cpp) computes softmax,
// log_softmax and LayerNorm-like chains a tile of rows at a time, and
// softmax's exp once. The answers must be the reference's for every shape
// the tiling meets: one row, rows wider than a tile, a last tile that is
// partial, more rows per tile than there are rows, dynamic sizes, and
// across threads. A chain whose middle value is also an output keeps that
// value whole.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "compiler/pipelines/RowFusion.h"

using namespace tcc::e2e;
using DT = tcc::reference::DTypeKind;

namespace {
constexpr DT F32 = DT::F32;
constexpr DT F64 = DT::F64;
} // namespace

TEST_CASE("row-fused softmax, log_softmax and layer norm, dynamic shapes",
          "[rowfusion]") {
  Random rng(1701);
  Graph g(R"(tg 1
func norm(x : f32[N, M]) -> (p : f32[N, M], l : f32[N, M]) {
  p = softmax(x, axis=1)
  l = log_softmax(x, axis=-1)
}
func layer(x : f32[N, M], g : f32[M], b : f32[M]) -> (y : f32[N, M]) {
  y = (x - mean(x, axis=1, keepdims=true)) *
      rsqrt(var(x, axis=1, keepdims=true) + 1e-5) * g + b
}
func wide(x : f64[N, M]) -> (p : f64[N, M]) { p = softmax(x, axis=1) }
func inplace(x : f32[N, M] borrow) -> (p : f32[N, M] borrow) {
  p = softmax(x, axis=1)
}
)");
  const int64_t tile = tcc::kRowTileElements;
  for (auto [n, m] : {std::pair<int64_t, int64_t>{1, 1},
                      {1, 7},
                      {5, 3},
                      {3, tile + 1},
                      {7, tile / 3},
                      {2 * tile + 3, 2},
                      {301, 257}}) {
    INFO("N = " << n << ", M = " << m);
    g.call("norm", {rng.uniform(F32, {n, m}, -5, 5)}, {1e-5, 1e-6});
    g.call("layer",
           {rng.uniform(F32, {n, m}, -3, 3), rng.uniform(F32, {m}),
            rng.uniform(F32, {m})},
           {1e-4, 1e-4});
    g.call("wide", {rng.uniform(F64, {n, m}, -50, 50)}, {1e-12, 1e-14});
    g.call("inplace", {rng.uniform(F32, {n, m}, -5, 5)}, {1e-5, 1e-6});
  }
  // Stability: exp would overflow without the maximum, on every row.
  g.call("norm", {rng.uniform(F32, {9, 33}, -3000, 3000)}, {1e-5, 1e-6});
}

TEST_CASE("row fusion over the last axis of rank 3, with outputs in the "
          "middle of the chain",
          "[rowfusion]") {
  Random rng(1702);
  Graph g(R"(tg 1
func rank3(x : f32[B, T, C]) -> (p : f32[B, T, C]) { p = softmax(x, axis=2) }
func shared(x : f32[N, M]) -> (p : f32[N, M], m : f32[N], s : f32[N]) {
  m = max(x, axis=1)
  e = exp(x - reshape(m, shape=[N, 1]))
  s = sum(e, axis=1)
  p = e / reshape(s, shape=[N, 1])
}
func centered(x : f32[N, M]) -> (c : f32[N, M], y : f32[N, M]) {
  c = x - mean(x, axis=1, keepdims=true)
  y = c / sqrt(mean(c * c, axis=1, keepdims=true) + 1)
}
func half(x : f16[N, M]) -> (p : f16[N, M]) { p = softmax(x, axis=1) }
)");
  for (auto [n, m] :
       {std::pair<int64_t, int64_t>{1, 5}, {6, 1000}, {257, 33}}) {
    INFO("N = " << n << ", M = " << m);
    g.call("rank3", {rng.uniform(F32, {3, n, m}, -5, 5)}, {1e-5, 1e-6});
    g.call("shared", {rng.uniform(F32, {n, m}, -5, 5)}, {1e-5, 1e-6});
    g.call("centered", {rng.uniform(F32, {n, m}, -5, 5)}, {1e-5, 1e-5});
    g.call("half", {rng.uniform(DT::F16, {n, m}, -5, 5)}, {1e-3, 1e-3});
  }
}
