//===- LoopTest.cpp - scan over steps -------------------------------------===//
//
// `scan` compiled (an scf.for whose states update in place) against the
// reference interpreter's step-by-step semantics: an Elman RNN over dtypes
// and dynamic numbers of steps (0 included), backwards, a pure map over
// two sequences, a counted loop without sequences, several states, shared
// variables read in the body, and a scan inside a scan; `while` (an
// scf.while) over dtypes and numbers of steps, in a scan too.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

using namespace tcc::e2e;
using tcc::Array;

namespace {

const std::vector<DTypeKind> kFloatTypes = {DTypeKind::F32, DTypeKind::F64,
                                            DTypeKind::F16, DTypeKind::BF16};

} // namespace

TEST_CASE("scan: an Elman RNN over dtypes, forwards and backwards", "[loops]") {
  Random rng(2401);
  for (DTypeKind dtype : kFloatTypes) {
    std::string t = tgName(dtype);
    INFO("dtype " << t);
    Graph g("tg 1\n"
            "func rnn(xs : " +
            t + "[T, B, 3], h0 : " + t + "[B, 4], Wx : " + t +
            "[3, 4], Wh : " + t + "[4, 4]) -> (hT : " + t +
            "[B, 4], hs : " + t + "[T, B, 4], rT : " + t + "[B, 4], rs : " + t +
            "[T, B, 4]) {\n"
            "  hT, hs = scan(h = h0, x in xs) {\n"
            "    h1 = tanh(matmul(x, Wx) + matmul(h, Wh))\n"
            "    return h1, h1\n"
            "  }\n"
            "  rT, rs = scan(h = h0, x in xs, go_backwards=true) {\n"
            "    return tanh(matmul(x, Wx) + matmul(h, Wh)), h * 2\n"
            "  }\n"
            "}\n");
    bool narrow = dtype == DTypeKind::F16 || dtype == DTypeKind::BF16;
    Tolerance tol;
    if (narrow)
      tol = {5e-2, 5e-2};
    for (int64_t steps : {0, 1, 6}) {
      INFO("T = " << steps);
      g.call("rnn",
             {rng.uniform(dtype, {steps, 2, 3}), rng.uniform(dtype, {2, 4}),
              rng.uniform(dtype, {3, 4}), rng.uniform(dtype, {4, 4})},
             tol);
    }
  }
}

TEST_CASE("scan: a map over two integer sequences", "[loops]") {
  Random rng(2402);
  for (DTypeKind dtype : {DTypeKind::I32, DTypeKind::I64}) {
    std::string t = tgName(dtype);
    INFO("dtype " << t);
    Graph g("tg 1\n"
            "func map(a : " +
            t + "[N, 5], b : " + t + "[N]) -> (y : " + t + "[N, 5], z : " + t +
            "[N]) {\n"
            "  y, z = scan(u in a, v in b) {\n"
            "    return u * v + 1, sum(u) - v\n"
            "  }\n"
            "}\n");
    for (int64_t n : {1, 9})
      g.call("map", {rng.uniform(dtype, {n, 5}, -9, 9),
                     rng.uniform(dtype, {n}, -9, 9)});
  }
}

TEST_CASE("scan: a counted loop, several states, shared reads", "[loops]") {
  Random rng(2403);
  Graph g(R"(tg 1
shared decay : f64[] = fill(0.5)
func counted(x0 : f64[N], k : i64[]) -> (x : f64[N], n : i64[], xs : f64[N, N]) {
  x, n, xs = scan(s = x0, c = k, n_steps=N) {
    return s * decay + 1, c + 1, s
  }
  updates { decay = decay * 0.5 }
}
func nested(a : f32[T, 3]) -> (total : f32[3], rows : f32[T, 3]) {
  total, rows = scan(acc = zeros([3], dtype=f32), row in a) {
    inner, ignored = scan(v = row, n_steps=3) {
      return v * 0.5 + acc, v
    }
    return acc + inner, inner
  }
}
)");
  for (int64_t n : {1, 4}) {
    g.call("counted", {rng.uniform(DTypeKind::F64, {n}),
                       RefTensor(DTypeKind::I64, {}, {7})});
  }
  for (int64_t steps : {0, 5})
    g.call("nested", {rng.uniform(DTypeKind::F32, {steps, 3})});
}

TEST_CASE("ifelse: the value the condition picks, over dtypes", "[loops]") {
  Random rng(2404);
  for (DTypeKind dtype : {DTypeKind::F32, DTypeKind::F64, DTypeKind::BF16,
                          DTypeKind::I32, DTypeKind::I64}) {
    std::string t = tgName(dtype);
    INFO("dtype " << t);
    Graph g("tg 1\n"
            "func pick(x : " +
            t + "[N, 3], y : " + t + "[N, 3]) -> (z : " + t +
            "[N, 3], w : " + t +
            "[N, 3]) {\n"
            "  z = ifelse(sum(x) > sum(y), x * y + 1, y - x)\n"
            "  w = ifelse(max(x) > 100, z, ifelse(min(y) < 0, -z, z * 2))\n"
            "}\n");
    for (int64_t n : {1, 6})
      for (int i = 0; i < 3; ++i)
        g.call("pick", {rng.uniform(dtype, {n, 3}, -4, 4),
                        rng.uniform(dtype, {n, 3}, -4, 4)});
  }
}

TEST_CASE("while: Newton's method over dtypes, zero to max_steps steps",
          "[loops]") {
  Random rng(2405);
  for (DTypeKind dtype : {DTypeKind::F32, DTypeKind::F64}) {
    std::string t = tgName(dtype);
    INFO("dtype " << t);
    // The square roots of `a`: stops when every residual is small, at
    // once for a = 1 (r starts there), or after `max_steps` for a tolerance
    // of 0.
    Graph g("tg 1\n"
            "func newton(a : " +
            t + "[N], tol : " + t + "[]) -> (r : " + t +
            "[N], n : i64[]) {\n"
            "  r, n = while(r = a, max_steps=30, "
            "cond=max(abs(r * r - a)) > tol) {\n"
            "    return 0.5 * (r + a / r)\n"
            "  }\n"
            "}\n");
    g.call("newton",
           {rng.uniform(dtype, {5}, 0.5, 50), RefTensor(dtype, {}, {1e-3})});
    g.call("newton",
           {RefTensor(dtype, {2}, {1, 1}), RefTensor(dtype, {}, {1e-3})});
    g.call("newton",
           {rng.uniform(dtype, {3}, 2, 3), RefTensor(dtype, {}, {0})});
  }
}

TEST_CASE("while: integer states, shared reads, a while in a scan", "[loops]") {
  Random rng(2406);
  for (DTypeKind dtype : {DTypeKind::I32, DTypeKind::I64}) {
    std::string t = tgName(dtype);
    INFO("dtype " << t);
    // Collatz: the steps to reach 1 (at most 200).
    Graph g("tg 1\n"
            "func collatz(x : " +
            t + "[]) -> (y : " + t +
            "[], n : i64[]) {\n"
            "  y, n = while(v = x, max_steps=200, cond=v > 1) {\n"
            "    return select(v - (v / 2) * 2 == 0, v / 2, 3 * v + 1)\n"
            "  }\n"
            "}\n");
    for (double x : {1.0, 6.0, 27.0})
      g.call("collatz", {RefTensor(dtype, {}, {x})});
  }
  Graph g(R"(tg 1
shared rate : f64[] = fill(0.5)
func decay(x0 : f64[N], limit : f64[]) -> (x : f64[N], n : i64[]) {
  x, n = while(s = x0, max_steps=N, cond=sum(s) > limit) {
    return s * rate
  }
}
func perRow(a : f32[T, 3]) -> (counts : i64[T], last : f32[3]) {
  last, counts = scan(acc = zeros([3], dtype=f32), row in a) {
    halved, k = while(v = row + acc, max_steps=8, cond=max(abs(v)) > 0.25) {
      return v * 0.5
    }
    return halved, k
  }
}
)");
  for (int64_t n : {1, 6})
    g.call("decay", {rng.uniform(DTypeKind::F64, {n}, 0, 4),
                     RefTensor(DTypeKind::F64, {}, {0.5})});
  for (int64_t steps : {0, 5})
    g.call("perRow", {rng.uniform(DTypeKind::F32, {steps, 3}, -4, 4)});
}

TEST_CASE("scan: shared variables advanced in the body, once per call",
          "[loops]") {
  // The RNG state is advanced at every step (each step draws new numbers)
  // and a counter counts the steps, in an inner scan too. Reads after the
  // loop see the values at the call's start; the variables take their
  // final values when the call succeeds, and keep theirs when it fails
  // (a bad id after the loop).
  Random rng(2407);
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
shared steps : i64[] = zeros
shared inner : i64[] = zeros
shared W : f32[4, 4] = normal(seed=1, std=0.5)
shared E : f32[5, 4] = normal(seed=2)
func noisy(xs : f32[T, B, 4], h0 : f32[B, 4], ids : i32[B]) -> (hT : f32[B, 4], at_start : i64[], picked : f32[B, 4]) {
  hT, hs = scan(h = h0, x in xs) {
    noise = random_normal(rng, h, std=0.1)
    sub = scan(v = x, n_steps=2) {
      updates { inner = inner + 1 }
      return v * 0.5
    }
    updates {
      rng = rng_advance(rng)
      steps = steps + 1
    }
    return tanh(matmul(h, W) + sub + noise), h
  }
  at_start = steps
  picked = take(E, ids) + hT
}
)");
  auto ids = [](std::vector<double> v) {
    int64_t n = v.size();
    return RefTensor(DTypeKind::I32, {n}, std::move(v));
  };
  for (int64_t steps : {3, 0, 5}) {
    INFO("T = " << steps);
    g.call("noisy", {rng.uniform(DTypeKind::F32, {steps, 2, 4}),
                     rng.uniform(DTypeKind::F32, {2, 4}), ids({0, 4})});
  }
  std::map<std::string, RefTensor> before = g.sharedValues();
  CHECK(before.at("steps").data == std::vector<double>{8});
  CHECK(before.at("inner").data == std::vector<double>{16});
  CHECK(before.at("rng").data == std::vector<double>{0, 8});
  tcc::Status s = refusal(g, "noisy",
                          {rng.uniform(DTypeKind::F32, {4, 2, 4}),
                           rng.uniform(DTypeKind::F32, {2, 4}), ids({1, 7})});
  CHECK(s.code() == tcc::ErrorCode::InvalidArgument);
  std::map<std::string, RefTensor> after = g.sharedValues();
  for (const auto &[name, value] : before)
    CHECK(checkClose(value, after.at(name), name, {0, 0}));
}

TEST_CASE("while: shared variables advanced in the body, once per call",
          "[loops]") {
  // As for scan: the RNG state is advanced at every step and a counter
  // counts the steps (in a scan inside the while too); the condition reads
  // the counter as it is at each step's start. A while in a scan passes its
  // updates to the scan. The variables take their final values when the
  // call succeeds, and keep theirs when it fails (a bad id after the loop).
  Random rng(2408);
  Graph g(R"(tg 1
shared rng : i64[2] = zeros
shared steps : i64[] = zeros
shared inner : i64[] = zeros
shared E : f32[5, 4] = normal(seed=2)
func halve(x0 : f32[B, 4], budget : i64[], ids : i32[B]) -> (x : f32[B, 4], n : i64[], at_start : i64[], picked : f32[B, 4]) {
  x, n = while(s = x0, max_steps=12, cond=(max(abs(s)) > 0.25) & (steps < budget)) {
    noise = random_uniform(rng, s, low=-0.01, high=0.01)
    sub = scan(v = s, n_steps=3) {
      updates { inner = inner + 1 }
      return v * 0.75
    }
    updates {
      rng = rng_advance(rng)
      steps = steps + 1
    }
    return sub + noise
  }
  at_start = steps
  picked = take(E, ids) + x
}
func perRow(a : f32[T, 3]) -> (counts : i64[T], last : f32[3]) {
  last, counts = scan(acc = zeros([3], dtype=f32), row in a) {
    halved, k = while(v = row + acc, max_steps=8, cond=max(abs(v)) > 0.25) {
      updates { steps = steps + 1 }
      return v * 0.5
    }
    return halved, k
  }
}
)");
  auto ids = [](std::vector<double> v) {
    int64_t n = v.size();
    return RefTensor(DTypeKind::I32, {n}, std::move(v));
  };
  auto scalar = [](double v) { return RefTensor(DTypeKind::I64, {}, {v}); };
  int64_t expectedSteps = 0;
  for (auto [budget, scale] : std::vector<std::pair<double, double>>{
           {100, 4}, {2, 4}, {100, 0.1}, {0, 4}}) {
    INFO("budget " << budget << ", scale " << scale);
    Outcome out =
        g.call("halve", {rng.uniform(DTypeKind::F32, {2, 4}, -scale, scale),
                         scalar(budget), ids({0, 4})});
    std::map<std::string, RefTensor> now = g.sharedValues();
    int64_t n = (int64_t)now.at("steps").data[0] - expectedSteps;
    CHECK(n <= budget);
    CHECK(now.at("inner").data[0] == 3 * now.at("steps").data[0]);
    CHECK(now.at("rng").data ==
          std::vector<double>{0, double(expectedSteps + n)});
    expectedSteps += n;
  }
  for (int64_t steps : {0, 4})
    g.call("perRow", {rng.uniform(DTypeKind::F32, {steps, 3}, -4, 4)});
  std::map<std::string, RefTensor> before = g.sharedValues();
  CHECK(before.at("steps").data[0] > expectedSteps);
  tcc::Status s = refusal(
      g, "halve",
      {rng.uniform(DTypeKind::F32, {2, 4}, -4, 4), scalar(100), ids({1, 7})});
  CHECK(s.code() == tcc::ErrorCode::InvalidArgument);
  std::map<std::string, RefTensor> after = g.sharedValues();
  for (const auto &[name, value] : before)
    CHECK(checkClose(value, after.at(name), name, {0, 0}));
}

TEST_CASE("scan and while: a next state computed through a reshape",
          "[loops]") {
  // Elementwise fusion moves a reshape of the step's value past the copy
  // into the state; the state's update survived it only since it is a
  // materialization (it failed to bufferize: 'Yield operand #0 is not
  // equivalent to the corresponding iter bbArg').
  Random rng(2409);
  Graph g(R"(tg 1
shared E : f32[5, 3] = normal(seed=1)
func rows(xs : f32[T, 1, 3]) -> (acc : f32[3]) {
  acc = scan(acc = zeros([3], dtype=f32), x in xs) {
    y = x * 2
    return acc + reshape(y, shape=[3])
  }
}
func walk(start : i64[], stop : i64[]) -> (acc : f32[3], n : i64[]) {
  k, acc, n = while(k = start, acc = zeros([3], dtype=f32), max_steps=5, cond=k < stop) {
    row = take(E, reshape(k, shape=[1]), axis=0)
    return k + 1, acc + reshape(row, shape=[3])
  }
}
)");
  for (int64_t steps : {0, 1, 4})
    g.call("rows", {rng.uniform(DTypeKind::F32, {steps, 1, 3})});
  auto scalar = [](double v) { return RefTensor(DTypeKind::I64, {}, {v}); };
  g.call("walk", {scalar(1), scalar(4)});
  g.call("walk", {scalar(0), scalar(5)});
  g.call("walk", {scalar(3), scalar(2)});
}
