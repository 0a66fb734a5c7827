//===- ParallelTest.cpp - loops across threads, products without copies ---===//
//
// Loops whose work crosses the parallel grain run on the kernels' thread
// pool (compiler/pipelines/ParallelLoops.cpp); below it they run where they
// are. Both must give the reference's answer, at sizes on either side of the
// grain, for every kind of loop nest the lowering makes. Matrix products read
// transposed operands in place and write their epilogue into the output
// (TransposeIntoMatmul.cpp, EpilogueInPlace.cpp): the same values as before.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "compiler/pipelines/ParallelLoops.h"

using namespace tcc::e2e;
using DT = tcc::reference::DTypeKind;

namespace {
constexpr DT F32 = DT::F32;
constexpr DT F64 = DT::F64;
} // namespace

TEST_CASE("elementwise loops on either side of the parallel grain",
          "[parallel]") {
  Random rng(1601);
  Graph g(R"(tg 1
func chain(x : f32[N], a : f32[N]) -> (y : f32[N]) {
  y = tanh(2 * x + a) * 3 + x
}
func tall(x : f32[N, 3]) -> (y : f32[N, 3]) { y = exp(x) - x }
func wide(x : f64[M, K]) -> (y : f64[M, K]) { y = x * x + 1 }
func inplace(x : f32[N] borrow) -> (y : f32[N] borrow) { y = x * 0.5 }
)");
  const int64_t grain = tcc::kParallelGrain;
  for (int64_t n :
       {int64_t(1), int64_t(7), grain - 1, grain, grain + 13, 4 * grain + 5}) {
    INFO("N = " << n);
    g.call("chain", {rng.uniform(F32, {n}), rng.uniform(F32, {n})});
    g.call("tall", {rng.uniform(F32, {n / 3 + 1, 3})});
    g.call("inplace", {rng.uniform(F32, {n})});
  }
  // Few outer iterations with much work each, and the reverse.
  g.call("wide", {rng.uniform(F64, {2, 3 * grain})});
  g.call("wide", {rng.uniform(F64, {3 * grain, 2})});
  g.call("wide", {rng.uniform(F64, {1, 2 * grain})});
}

TEST_CASE("reductions and softmax rows across threads", "[parallel]") {
  Random rng(1602);
  Graph g(R"(tg 1
func rows(x : f32[N, M]) -> (s : f32[N], m : f32[N], c : f32[M]) {
  s = sum(x, axis=1)
  m = max(x, axis=1)
  c = sum(x, axis=0)
}
func norm(x : f32[N, M]) -> (p : f32[N, M], l : f32[N, M]) {
  p = softmax(x, axis=1)
  l = log_softmax(x, axis=-1)
}
func ints(a : i32[N, M], b : i32[M, 5]) -> (c : i32[N, 5], s : i32[N]) {
  c = matmul(a, b)
  s = sum(a, axis=1)
}
)");
  for (auto [n, m] : {std::pair<int64_t, int64_t>{3, 5},
                      {300, 257},
                      {1, 70000},
                      {70000, 2}}) {
    INFO("N = " << n << ", M = " << m);
    g.call("rows", {rng.uniform(F32, {n, m})}, {1e-4, 1e-4});
    g.call("norm", {rng.uniform(F32, {n, m}, -5, 5)}, {1e-5, 1e-6});
    g.call("ints", {rng.uniform(DT::I32, {n, m}, -9, 9),
                    rng.uniform(DT::I32, {m, 5}, -9, 9)});
  }
}

TEST_CASE("matrix products read transposed operands in place",
          "[parallel][matmul]") {
  Random rng(1603);
  Graph g(R"(tg 1
func tb(q : f32[T, 16], k : f32[T, 16]) -> (s : f32[T, T]) {
  s = matmul(q, transpose(k))
}
func ta(x : f64[N, 3], g : f64[N, 4]) -> (w : f64[3, 4]) {
  w = matmul(transpose(x), g)
}
func both(a : f32[7, 5], b : f32[3, 7]) -> (c : f32[5, 3]) {
  c = matmul(transpose(a), transpose(b))
}
func batch(q : f32[B, T, 8], k : f32[B, T, 8]) -> (s : f32[B, T, T]) {
  s = matmul(q, transpose(k, perm=[0, 2, 1]))
}
func batcha(q : f32[B, 8, T], k : f32[B, 8, 6]) -> (s : f32[B, T, 6]) {
  s = matmul(transpose(q, perm=[0, 2, 1]), k)
}
func kept(a : f32[4, 4], b : f32[4, 4]) -> (p : f32[4, 4], t : f32[4, 4]) {
  t = transpose(b)
  p = matmul(a, t)
}
func ints(a : i64[3, 5], b : i64[4, 5]) -> (p : i64[3, 4]) {
  p = matmul(a, transpose(b))
}
)");
  Tolerance tol{1e-5, 1e-5};
  for (int64_t t : {1, 9, 33}) {
    INFO("T = " << t);
    g.call("tb", {rng.uniform(F32, {t, 16}), rng.uniform(F32, {t, 16})}, tol);
    g.call("ta", {rng.uniform(F64, {t, 3}), rng.uniform(F64, {t, 4})});
    g.call("batch", {rng.uniform(F32, {2, t, 8}), rng.uniform(F32, {2, t, 8})},
           tol);
    g.call("batcha", {rng.uniform(F32, {3, 8, t}), rng.uniform(F32, {3, 8, 6})},
           tol);
  }
  g.call("both", {rng.uniform(F32, {7, 5}), rng.uniform(F32, {3, 7})}, tol);
  g.call("kept", {rng.uniform(F32, {4, 4}), rng.uniform(F32, {4, 4})}, tol);
  g.call("ints", {rng.uniform(DT::I64, {3, 5}, -50, 50),
                  rng.uniform(DT::I64, {4, 5}, -50, 50)});
}

TEST_CASE("epilogues after a product run in the output", "[matmul]") {
  Random rng(1604);
  Graph g(R"(tg 1
shared W : f32[16, 8] = normal(seed=1, std=0.5)
shared b : f32[8] = normal(seed=2, std=0.5)
func predict(x : f32[N, 16]) -> (p : f32[N, 8]) {
  p = sigmoid(matmul(x, W) + b)
}
func mlp(x : f32[N, 16], w2 : f32[8, 8]) -> (y : f32[N, 8], h : f32[N, 8]) {
  h = relu(matmul(x, W) + b)
  y = matmul(h, w2) + h
}
func twice(x : f32[N, 16]) -> (p : f32[N, 8], q : f32[N, 8]) {
  p = matmul(x, W)
  q = tanh(p)
}
)");
  Tolerance tol{1e-5, 1e-5};
  for (int64_t n : {1, 5, 64}) {
    INFO("N = " << n);
    g.call("predict", {rng.uniform(F32, {n, 16})}, tol);
    g.call("mlp", {rng.uniform(F32, {n, 16}), rng.uniform(F32, {8, 8})}, tol);
    g.call("twice", {rng.uniform(F32, {n, 16})}, tol);
  }
}
