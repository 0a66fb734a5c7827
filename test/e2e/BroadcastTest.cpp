//===- BroadcastTest.cpp - numpy broadcasting and dynamic shapes ----------===//

#include "test/e2e/Harness.h"

using namespace tcc::e2e;

namespace {
const DTypeKind F32 = DTypeKind::F32;
} // namespace

TEST_CASE("static broadcasting", "[broadcast]") {
  Random rng(201);
  Graph g(R"(tg 1
func col_row(a : f32[4, 1], b : f32[3]) -> (r : f32[4, 3], s : f32[4, 3]) {
  r = a + b
  s = b - a
}
func scalar(s : f32[], m : f32[3, 5]) -> (r : f32[3, 5], q : f32[3, 5]) {
  r = s * m
  q = m / s + 2
}
func rank3(a : f32[2, 1, 3], b : f32[4, 1]) -> (r : f32[2, 4, 3]) {
  r = a * b
}
func center(x : f32[5, 6]) -> (z : f32[5, 6]) {
  c = x - mean(x, axis=1, keepdims=true)
  z = c / sqrt(mean(c * c, axis=0) + 1e-5)
}
func ints(a : i32[3, 1], b : i32[1, 4]) -> (r : i32[3, 4], m : i32[3, 4]) {
  r = a * b - b
  m = maximum(a, b)
}
)");
  for (int trial = 0; trial < 3; ++trial) {
    g.call("col_row",
           {rng.uniform(F32, {4, 1}, -3, 3), rng.uniform(F32, {3}, -3, 3)});
    g.call("scalar", {rng.awayFromZero(F32, {}, -2, 2, 0.5),
                      rng.uniform(F32, {3, 5}, -3, 3)});
    g.call("rank3", {rng.uniform(F32, {2, 1, 3}, -3, 3),
                     rng.uniform(F32, {4, 1}, -3, 3)});
    g.call("center", {rng.uniform(F32, {5, 6}, -3, 3)}, {1e-5, 1e-5});
    g.call("ints", {rng.uniform(DTypeKind::I32, {3, 1}, -50, 50),
                    rng.uniform(DTypeKind::I32, {1, 4}, -50, 50)});
  }
}

TEST_CASE("dynamic N: one program for several batch sizes",
          "[broadcast][dynamic]") {
  Random rng(202);
  Graph g(R"(tg 1
func affine(x : f32[N, 10], y : f32[N, 10], b : f32[10]) -> (r : f32[N, 10]) {
  r = x * y + b
}
func reduce(x : f32[N, 10], y : f32[N, 10], b : f32[10])
    -> (s : f32[N], t : f32[10]) {
  r = x * y + b
  s = sum(r, axis=1)
  t = max(r, axis=0)
}
func outer(u : f32[N, 1], v : f32[1, M]) -> (o : f32[N, M]) {
  o = u * v + 1
}
func outerT(u : f32[N, 1], v : f32[1, M]) -> (w : f32[M, N]) {
  w = transpose(u * v + 1)
}
func rowscale(x : f64[N, 3], s : f64[N, 1]) -> (r : f64[N, 3]) {
  r = x / s
}
)");
  for (int64_t n : {1, 2, 7, 64, 3, 1}) {
    INFO("N = " << n);
    std::vector<RefTensor> in = {rng.uniform(F32, {n, 10}, -2, 2),
                                 rng.uniform(F32, {n, 10}, -2, 2),
                                 rng.uniform(F32, {10}, -2, 2)};
    g.call("affine", in);
    g.call("reduce", in);
    for (int64_t m : {1, 5}) {
      INFO("M = " << m);
      std::vector<RefTensor> uv = {rng.uniform(F32, {n, 1}, -2, 2),
                                   rng.uniform(F32, {1, m}, -2, 2)};
      g.call("outer", uv);
      g.call("outerT", uv);
    }
    g.call("rowscale", {rng.uniform(DTypeKind::F64, {n, 3}, -2, 2),
                        rng.awayFromZero(DTypeKind::F64, {n, 1}, -2, 2, 0.1)});
  }
}

TEST_CASE("dynamic N: empty batch", "[broadcast][dynamic]") {
  Random rng(203);
  Graph g(R"(tg 1
func affine(x : f32[N, 10], b : f32[10]) -> (r : f32[N, 10]) {
  r = 2 * x + b
}
func colsum(x : f32[N, 10], b : f32[10]) -> (s : f32[10], m : f32[N]) {
  s = sum(2 * x + b, axis=0)
  m = sum(x, axis=1)
}
)");
  for (int64_t n : {0, 3, 0}) {
    INFO("N = " << n);
    std::vector<RefTensor> in = {rng.uniform(F32, {n, 10}),
                                 rng.uniform(F32, {10})};
    g.call("affine", in);
    g.call("colsum", in);
  }
}

TEST_CASE("dynamic shapes: mismatched symbols are rejected", "[dynamic]") {
  Random rng(204);
  Graph g(R"(tg 1
func add(x : f32[N, 4], y : f32[N, 4]) -> (r : f32[N, 4]) { r = x + y }
)");
  tcc::Result<std::vector<tcc::Array>> r = g.function("add").call(
      std::vector<tcc::Array>{toArray(rng.uniform(F32, {3, 4})),
                              toArray(rng.uniform(F32, {2, 4}))});
  CHECK_FALSE(r.ok());
  CHECK(r.status().code() == tcc::ErrorCode::ShapeMismatch);
}
