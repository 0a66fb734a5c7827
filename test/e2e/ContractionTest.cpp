//===- ContractionTest.cpp - matmul, softmax and log_softmax --------------===//

#include "test/e2e/Harness.h"

using namespace tcc::e2e;

namespace {
const DTypeKind F32 = DTypeKind::F32, F64 = DTypeKind::F64;
} // namespace

TEST_CASE("matmul: 2-D and batched and broadcast batch", "[matmul]") {
  Random rng(401);
  Graph g(R"(tg 1
func mm(a : f32[5, 7], b : f32[7, 3]) -> (c : f32[5, 3]) { c = matmul(a, b) }
func batched(a : f32[4, 5, 7], b : f32[4, 7, 3]) -> (c : f32[4, 5, 3]) {
  c = matmul(a, b)
}
func bcast(a : f32[4, 5, 7], b : f32[7, 3]) -> (c : f32[4, 5, 3]) {
  c = matmul(a, b)
}
func bcastLeft(a : f32[5, 7], b : f32[4, 7, 3]) -> (c : f32[4, 5, 3]) {
  c = matmul(a, b)
}
func bcast4(a : f32[2, 1, 5, 7], b : f32[3, 7, 2]) -> (c : f32[2, 3, 5, 2]) {
  c = matmul(a, b)
}
func ones(a : f32[1, 5, 7], b : f32[4, 7, 3]) -> (c : f32[4, 5, 3]) {
  c = matmul(a, b)
}
func transposed(a : f32[7, 5], b : f32[3, 7]) -> (c : f32[5, 3]) {
  c = matmul(transpose(a), transpose(b))
}
func odd(a : f32[33, 65], b : f32[65, 17]) -> (c : f32[33, 17]) {
  c = matmul(a, b)
}
func vec(a : f32[1, 9], b : f32[9, 1]) -> (c : f32[1, 1]) { c = matmul(a, b) }
)");
  Tolerance tol{1e-5, 1e-5};
  for (int trial = 0; trial < 2; ++trial) {
    g.call("mm", {rng.uniform(F32, {5, 7}), rng.uniform(F32, {7, 3})}, tol);
    g.call("batched",
           {rng.uniform(F32, {4, 5, 7}), rng.uniform(F32, {4, 7, 3})}, tol);
    g.call("bcast", {rng.uniform(F32, {4, 5, 7}), rng.uniform(F32, {7, 3})},
           tol);
    g.call("bcastLeft", {rng.uniform(F32, {5, 7}), rng.uniform(F32, {4, 7, 3})},
           tol);
    g.call("bcast4",
           {rng.uniform(F32, {2, 1, 5, 7}), rng.uniform(F32, {3, 7, 2})}, tol);
    g.call("ones", {rng.uniform(F32, {1, 5, 7}), rng.uniform(F32, {4, 7, 3})},
           tol);
    g.call("transposed", {rng.uniform(F32, {7, 5}), rng.uniform(F32, {3, 7})},
           tol);
    g.call("odd", {rng.uniform(F32, {33, 65}), rng.uniform(F32, {65, 17})},
           {1e-5, 5e-5});
    g.call("vec", {rng.uniform(F32, {1, 9}), rng.uniform(F32, {9, 1})}, tol);
  }
}

TEST_CASE("matmul: f64 and integers", "[matmul]") {
  Random rng(402);
  Graph g(R"(tg 1
func mm64(a : f64[6, 9], b : f64[9, 4]) -> (c : f64[6, 4]) { c = matmul(a, b) }
func b64(a : f64[3, 6, 9], b : f64[9, 4]) -> (c : f64[3, 6, 4]) {
  c = matmul(a, b)
}
func mmi(a : i32[4, 6], b : i32[6, 5]) -> (c : i32[4, 5]) { c = matmul(a, b) }
func bi(a : i64[2, 4, 6], b : i64[2, 6, 5]) -> (c : i64[2, 4, 5]) {
  c = matmul(a, b)
}
)");
  for (int trial = 0; trial < 2; ++trial) {
    g.call("mm64", {rng.uniform(F64, {6, 9}), rng.uniform(F64, {9, 4})});
    g.call("b64", {rng.uniform(F64, {3, 6, 9}), rng.uniform(F64, {9, 4})});
    g.call("mmi", {rng.uniform(DTypeKind::I32, {4, 6}, -100, 100),
                   rng.uniform(DTypeKind::I32, {6, 5}, -100, 100)});
    g.call("bi", {rng.uniform(DTypeKind::I64, {2, 4, 6}, -1000, 1000),
                  rng.uniform(DTypeKind::I64, {2, 6, 5}, -1000, 1000)});
  }
}

TEST_CASE("matmul: dynamic batch and contraction sizes", "[matmul][dynamic]") {
  Random rng(403);
  Graph g(R"(tg 1
func rows(x : f32[N, 7], w : f32[7, 3]) -> (y : f32[N, 3]) { y = matmul(x, w) }
func gram(x : f32[N, 7], g : f32[N, 3]) -> (y : f32[7, 3]) {
  y = matmul(transpose(x), g)
}
func batch(x : f32[N, 2, 7], w : f32[7, 3]) -> (y : f32[N, 2, 3]) {
  y = matmul(x, w)
}
)");
  for (int64_t n : {1, 4, 33}) {
    INFO("N = " << n);
    g.call("rows", {rng.uniform(F32, {n, 7}), rng.uniform(F32, {7, 3})},
           {1e-5, 1e-5});
    g.call("gram", {rng.uniform(F32, {n, 7}), rng.uniform(F32, {n, 3})},
           {1e-5, 1e-5});
    g.call("batch", {rng.uniform(F32, {n, 2, 7}), rng.uniform(F32, {7, 3})},
           {1e-5, 1e-5});
  }
}

TEST_CASE("softmax and log_softmax on every axis and on large values",
          "[softmax]") {
  Random rng(404);
  for (DTypeKind dtype : {F32, F64}) {
    INFO("dtype " << tgName(dtype));
    std::string t = tgName(dtype);
    Graph g("tg 1\n"
            "func sm(x : " +
            t + "[4, 10], y : " + t +
            "[3, 4, 5])\n"
            "    -> (p1 : " +
            t + "[4, 10], p0 : " + t +
            "[4, 10],\n"
            "        l1 : " +
            t + "[4, 10], l0 : " + t +
            "[4, 10],\n"
            "        q1 : " +
            t + "[3, 4, 5], ql : " + t +
            "[3, 4, 5],\n"
            "        q0 : " +
            t +
            "[3, 4, 5]) {\n"
            "  p1 = softmax(x, axis=1)\n"
            "  p0 = softmax(x, axis=0)\n"
            "  l1 = log_softmax(x, axis=-1)\n"
            "  l0 = log_softmax(x, axis=0)\n"
            "  q1 = softmax(y, axis=1)\n"
            "  ql = log_softmax(y)\n"
            "  q0 = softmax(y, axis=0)\n"
            "}\n");
    for (int trial = 0; trial < 2; ++trial)
      g.call("sm",
             {rng.uniform(dtype, {4, 10}, -5, 5),
              rng.uniform(dtype, {3, 4, 5}, -5, 5)},
             {1e-5, 1e-6});
    // Stability: exp would overflow without subtracting the maximum.
    g.call("sm",
           {rng.uniform(dtype, {4, 10}, -3000, 3000),
            rng.uniform(dtype, {3, 4, 5}, 800, 820)},
           {1e-5, 1e-6});
    // All equal along an axis: uniform probabilities, log(1/n).
    g.call("sm",
           {RefTensor::filled(dtype, {4, 10}, 1e4),
            RefTensor::filled(dtype, {3, 4, 5}, -1e4)},
           {1e-5, 1e-6});
  }
}

TEST_CASE("softmax over a dynamic batch", "[softmax][dynamic]") {
  Random rng(405);
  Graph g(R"(tg 1
func sm(x : f32[N, 10]) -> (p : f32[N, 10], l : f32[N, 10], c : f32[N, 10]) {
  p = softmax(x, axis=1)
  l = log_softmax(x, axis=1)
  c = softmax(x, axis=0)
}
)");
  for (int64_t n : {1, 5, 64})
    g.call("sm", {rng.uniform(F32, {n, 10}, -20, 20)}, {1e-5, 1e-6});
}
