//===- GemmEpilogueTest.cpp - products with their epilogue per row panel -===//
//
// tcc-gemm-epilogue runs a product and the elementwise op after it per row
// panel (1 MiB of output: 256 rows of 1024 f32, 128 of f64). These graphs
// have more rows than one panel, a last panel that is cut short, and one
// row; each result is compared with the reference interpreter.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

using namespace tcc::e2e;

namespace {
const DTypeKind F32 = DTypeKind::F32, F64 = DTypeKind::F64;
const Tolerance kTol{1e-4, 1e-5};
} // namespace

TEST_CASE("gemm epilogue: bias and relu per panel, dynamic rows",
          "[matmul][epilogue]") {
  Random rng(1601);
  Graph g(R"(tg 1
func dense(x : f32[N, 64], w : f32[64, 1024], b : f32[1024]) -> (y : f32[N, 1024]) {
  y = relu(matmul(x, w) + b)
}
func dense_borrow(x : f32[N, 64], w : f32[64, 1024], b : f32[1024]) -> (y : f32[N, 1024] borrow) {
  y = relu(matmul(x, w) + b)
}
)");
  for (int64_t rows :
       {int64_t(600), int64_t(256), int64_t(257), int64_t(1), int64_t(0)}) {
    INFO("rows " << rows);
    for (const char *f : {"dense", "dense_borrow"})
      g.call(f,
             {rng.uniform(F32, {rows, 64}), rng.uniform(F32, {64, 1024}),
              rng.uniform(F32, {1024})},
             kTol);
  }
}

TEST_CASE("gemm epilogue: a hidden layer accumulates in its activation",
          "[matmul][epilogue]") {
  Random rng(1602);
  Graph g(R"(tg 1
func mlp(x : f32[N, 32], w1 : f32[32, 1024], b1 : f32[1024], w2 : f32[1024, 8],
         b2 : f32[8]) -> (y : f32[N, 8]) {
  h = relu(matmul(x, w1) + b1)
  y = matmul(h, w2) + b2
}
func both(x : f32[N, 32], w1 : f32[32, 1024], b1 : f32[1024]) -> (p : f32[N, 1024], q : f32[N, 1024]) {
  h = matmul(x, w1)
  p = tanh(h + b1)
  q = h * 2
}
)");
  for (int64_t rows : {int64_t(300), int64_t(1)}) {
    INFO("rows " << rows);
    g.call("mlp",
           {rng.uniform(F32, {rows, 32}), rng.uniform(F32, {32, 1024}),
            rng.uniform(F32, {1024}), rng.uniform(F32, {1024, 8}),
            rng.uniform(F32, {8})},
           kTol);
    g.call("both",
           {rng.uniform(F32, {rows, 32}), rng.uniform(F32, {32, 1024}),
            rng.uniform(F32, {1024})},
           kTol);
  }
}

TEST_CASE("gemm epilogue: transposed operands, a residual, f64",
          "[matmul][epilogue]") {
  Random rng(1603);
  Graph g(R"(tg 1
func tb(x : f32[N, 48], w : f32[1024, 48], r : f32[N, 1024]) -> (y : f32[N, 1024]) {
  y = sigmoid(matmul(x, transpose(w))) + r
}
func ta(x : f32[48, N], w : f32[48, 1024], b : f32[1024]) -> (y : f32[N, 1024]) {
  y = relu(matmul(transpose(x), w) + b)
}
func wide(x : f64[N, 40], w : f64[40, 1024], b : f64[1024]) -> (y : f64[N, 1024]) {
  y = tanh(matmul(x, w) - b)
}
)");
  for (int64_t rows : {int64_t(300), int64_t(128), int64_t(3)}) {
    INFO("rows " << rows);
    g.call("tb",
           {rng.uniform(F32, {rows, 48}), rng.uniform(F32, {1024, 48}),
            rng.uniform(F32, {rows, 1024})},
           kTol);
    g.call("ta",
           {rng.uniform(F32, {48, rows}), rng.uniform(F32, {48, 1024}),
            rng.uniform(F32, {1024})},
           kTol);
    g.call("wide", {rng.uniform(F64, {rows, 40}), rng.uniform(F64, {40, 1024}),
                    rng.uniform(F64, {1024})});
  }
}
