//===- GemmEpilogueTest.cpp - products with their epilogue per row panel -===//
//
// tcc-gemm-epilogue runs a product and the elementwise op after it per row
// panel (8 MiB of output: 256 rows of 8192 f32 or of 4096 f64). These
// graphs have more rows than one panel, a last panel that is cut short, and
// one row; each result is compared with the reference interpreter.
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
func dense(x : f32[N, 8], w : f32[8, 8192], b : f32[8192]) -> (y : f32[N, 8192]) {
  y = relu(matmul(x, w) + b)
}
func dense_borrow(x : f32[N, 8], w : f32[8, 8192], b : f32[8192]) -> (y : f32[N, 8192] borrow) {
  y = relu(matmul(x, w) + b)
}
)");
  for (int64_t rows :
       {int64_t(600), int64_t(256), int64_t(257), int64_t(1), int64_t(0)}) {
    INFO("rows " << rows);
    for (const char *f : {"dense", "dense_borrow"})
      g.call(f,
             {rng.uniform(F32, {rows, 8}), rng.uniform(F32, {8, 8192}),
              rng.uniform(F32, {8192})},
             kTol);
  }
}

TEST_CASE("gemm epilogue: a hidden layer accumulates in its activation",
          "[matmul][epilogue]") {
  Random rng(1602);
  Graph g(R"(tg 1
func mlp(x : f32[N, 8], w1 : f32[8, 8192], b1 : f32[8192], w2 : f32[8192, 8],
         b2 : f32[8]) -> (y : f32[N, 8]) {
  h = relu(matmul(x, w1) + b1)
  y = matmul(h, w2) + b2
}
func small(x : f32[64, 16], w1 : f32[16, 256], b1 : f32[256], w2 : f32[256, 4],
           b2 : f32[4]) -> (y : f32[64, 4]) {
  h = relu(matmul(x, w1) + b1)
  y = matmul(h, w2) + b2
}
func both(x : f32[N, 8], w1 : f32[8, 8192], b1 : f32[8192]) -> (p : f32[N, 8192], q : f32[N, 8192]) {
  h = matmul(x, w1)
  p = tanh(h + b1)
  q = h * 2
}
)");
  // One panel: no loop, but the hidden layer still has one buffer.
  g.call("small",
         {rng.uniform(F32, {64, 16}), rng.uniform(F32, {16, 256}),
          rng.uniform(F32, {256}), rng.uniform(F32, {256, 4}),
          rng.uniform(F32, {4})},
         kTol);
  for (int64_t rows : {int64_t(300), int64_t(1)}) {
    INFO("rows " << rows);
    g.call("mlp",
           {rng.uniform(F32, {rows, 8}), rng.uniform(F32, {8, 8192}),
            rng.uniform(F32, {8192}), rng.uniform(F32, {8192, 8}),
            rng.uniform(F32, {8})},
           {1e-4, 1e-3}); // sums of 8192 terms of size 1 cancel to ~0.01
    g.call("both",
           {rng.uniform(F32, {rows, 8}), rng.uniform(F32, {8, 8192}),
            rng.uniform(F32, {8192})},
           kTol);
  }
}

TEST_CASE("gemm epilogue: transposed operands, a residual, f64",
          "[matmul][epilogue]") {
  Random rng(1603);
  Graph g(R"(tg 1
func tb(x : f32[N, 8], w : f32[8192, 8], r : f32[N, 8192]) -> (y : f32[N, 8192]) {
  y = sigmoid(matmul(x, transpose(w))) + r
}
func ta(x : f32[8, N], w : f32[8, 8192], b : f32[8192]) -> (y : f32[N, 8192]) {
  y = relu(matmul(transpose(x), w) + b)
}
func wide(x : f64[N, 40], w : f64[40, 4096], b : f64[4096]) -> (y : f64[N, 4096]) {
  y = tanh(matmul(x, w) - b)
}
)");
  for (int64_t rows : {int64_t(300), int64_t(3)}) {
    INFO("rows " << rows);
    g.call("tb",
           {rng.uniform(F32, {rows, 8}), rng.uniform(F32, {8192, 8}),
            rng.uniform(F32, {rows, 8192})},
           kTol);
    g.call("ta",
           {rng.uniform(F32, {8, rows}), rng.uniform(F32, {8, 8192}),
            rng.uniform(F32, {8192})},
           kTol);
    g.call("wide", {rng.uniform(F64, {rows, 40}), rng.uniform(F64, {40, 4096}),
                    rng.uniform(F64, {4096})});
  }
}
