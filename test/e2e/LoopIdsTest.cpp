//===- LoopIdsTest.cpp - ids used inside scan and while bodies ------------===//
//
// A gather inside a loop body sees different ids at every step: a bad one
// must fail the call as one at the function's top level does (the op's
// place, the id, its element, the range) and name the step of every loop
// around it, and the call must change no shared variable, not even those
// the loop advances. The reference interpreter refuses the same inputs,
// naming the same steps; good ids give the reference's values.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

using namespace tcc::e2e;
using tcc::Array;

namespace {

const DTypeKind F32 = DTypeKind::F32, I32 = DTypeKind::I32,
                I64 = DTypeKind::I64;

RefTensor tensor(DTypeKind dtype, std::vector<int64_t> shape,
                 std::vector<double> values) {
  return RefTensor(dtype, std::move(shape), std::move(values));
}

/// Both the runtime and the reference refuse the call: the runtime's
/// message contains every piece of `expected`, the reference's names the
/// same `steps` text; no shared variable changed.
void refusedByBoth(Graph &g, const std::string &function,
                   const std::vector<RefTensor> &inputs,
                   const std::vector<std::string> &expected,
                   const std::string &referenceSteps) {
  std::map<std::string, RefTensor> before = g.sharedValues();
  tcc::Status s = refusal(g, function, inputs);
  CHECK(s.code() == tcc::ErrorCode::InvalidArgument);
  for (const std::string &piece : expected)
    CHECK_THAT(s.message(), Catch::Contains(piece));
  CHECK_THAT(s.message(), Catch::EndsWith("; the call changed nothing"));
  std::map<std::string, RefTensor> after = g.sharedValues();
  for (const auto &[name, value] : before)
    CHECK(checkClose(value, after.at(name), name, {0, 0}));
  std::string rejected;
  try {
    g.reference().call(function, inputs, before);
  } catch (const tcc::reference::ReferenceError &e) {
    rejected = e.what();
  }
  CHECK_THAT(rejected, Catch::Contains(referenceSteps));
}

} // namespace

TEST_CASE("scan: a bad token id fails the call at its step, changing nothing",
          "[loops][indexing][shared]") {
  // An RNN that embeds one token per step; the scan counts its steps in a
  // variable and the function updates another after the loop.
  Random rng(2501);
  Graph g(R"(tg 1
shared E : f32[5, 3] = uniform(low=-1, high=1, seed=7)
shared W : f32[3, 3] = uniform(low=-1, high=1, seed=8)
shared seen : i64[] = zeros
shared total : f32[] = zeros
func rnn(tokens : i32[T, B], h0 : f32[B, 3]) -> (hT : f32[B, 3], hs : f32[T, B, 3]) {
  hT, hs = scan(h = h0, tok in tokens) {
    h1 = tanh(matmul(h, W) + take(E, tok))
    updates { seen = seen + 1 }
    return h1, h1
  }
  updates { total = total + sum(hT) }
}
)");
  RefTensor h0 = rng.uniform(F32, {2, 3});
  RefTensor good = tensor(I32, {4, 2}, {0, 4, -5, -1, 2, 3, 1, -2});
  g.call("rnn", {good, h0});
  g.call("rnn", {good, h0}); // the fast path's plan
  CHECK(g.sharedValues().at("seen").data[0] == 8);

  RefTensor bad = good;
  bad.data[5] = 5; // step 2, element 1
  refusedByBoth(g, "rnn", {bad, h0},
                {"'rnn' at test.tg:8:", "id 5 (element 1 of the ids of 'take')",
                 "out of range [-5, 5) in step 2 of the scan at test.tg:7:"},
                "in step 2 of the 'tc.scan'");
  // The first step with a bad id is the one reported, and in it the first
  // bad element.
  bad.data[7] = -6;
  bad.data[2] = 9;
  bad.data[3] = -7;
  refusedByBoth(g, "rnn", {bad, h0},
                {"id 9 (element 0 of the ids of 'take')", "in step 1 of"},
                "in step 1 of the 'tc.scan'");
  // The fast path refuses it too, through call and callInto.
  std::vector<Array> outputs;
  tcc::Status viaInto =
      g.function("rnn").callInto({toArray(bad), toArray(h0)}, outputs);
  CHECK_THAT(viaInto.message(), Catch::Contains("in step 1 of the scan"));
  // Good ids still run, and update the variables once.
  g.call("rnn", {good, h0});
  CHECK(g.sharedValues().at("seen").data[0] == 12);
}

TEST_CASE("scan: a reverse scan counts its steps in the order they ran",
          "[loops][indexing]") {
  Graph g(R"(tg 1
shared E : f32[4, 2] = uniform(low=-1, high=1, seed=9)
func back(tokens : i64[T]) -> (acc : f32[2], rows : f32[T, 2]) {
  acc, rows = scan(a = zeros([2], dtype=f32), tok in tokens, go_backwards=true) {
    r = take(E, tok)
    return a * 0.5 + r, r
  }
}
)");
  g.call("back", {tensor(I64, {5}, {0, 1, 2, 3, -4})});
  g.call("back", {tensor(I64, {0}, {})});
  // Row 3 of 5 is the second step of a reverse scan.
  refusedByBoth(g, "back", {tensor(I64, {5}, {0, 1, 2, 4, -4})},
                {"id 4 (element 0 of the ids of 'take')",
                 "in step 1 of the reverse scan at test.tg:4:"},
                "in step 1 of the 'tc.scan'");
}

TEST_CASE("while: ids computed from the state, with updates in the body",
          "[loops][indexing][shared]") {
  // k walks up from k0 and picks row k at every step: a start too high
  // walks off the table after a few steps.
  Graph g(R"(tg 1
shared E : f32[4, 2] = uniform(low=-1, high=1, seed=10)
shared draws : i64[] = zeros
func walk(k0 : i64[], n : i64[]) -> (k : i64[], acc : f32[2], steps : i64[]) {
  k, acc, steps = while(k = k0, acc = zeros([2], dtype=f32), max_steps=6, cond=k < n) {
    r = take(E, k)
    updates { draws = draws + 1 }
    return k + 1, acc + r
  }
}
)");
  auto scalar = [](double v) { return RefTensor(I64, {}, {v}); };
  g.call("walk", {scalar(-4), scalar(9)});
  g.call("walk", {scalar(2), scalar(0)});
  CHECK(g.sharedValues().at("draws").data[0] == 6);
  // k = 1, 2, 3, 4: the fourth step (step 3) reads row 4 of 4.
  refusedByBoth(g, "walk", {scalar(1), scalar(9)},
                {"'walk' at test.tg:6:", "id 4 (element 0 of the ids of",
                 "in step 3 of the while at test.tg:5:"},
                "in step 3 of the 'tc.while'");
  // Steps that do not run check nothing.
  g.call("walk", {scalar(1), scalar(3)});
  CHECK(g.sharedValues().at("draws").data[0] == 8);
}

TEST_CASE("scan and while: a while in a scan names both steps",
          "[loops][indexing]") {
  Graph g(R"(tg 1
shared E : f32[4, 2] = uniform(low=-1, high=1, seed=11)
func nested(starts : i64[T]) -> (out : f32[T, 2]) {
  out = scan(s in starts) {
    k, acc = while(k = s, acc = zeros([2], dtype=f32), max_steps=3, cond=k < s + 3) {
      return k + 1, acc + take(E, k)
    }
    return acc
  }
}
)");
  g.call("nested", {tensor(I64, {3}, {0, 1, -4})});
  // Scan step 2 starts at 2: its while reads rows 2, 3, then 4.
  refusedByBoth(
      g, "nested", {tensor(I64, {4}, {0, 1, 2, -1})},
      {"'nested' at test.tg:6:", "in step 2 of the while at test.tg:5:",
       ", in step 2 of the scan at test.tg:4:"},
      "in step 2 of the 'tc.while' at");
}

TEST_CASE("scan: other checked ops in a body, and ids in an ifelse branch",
          "[loops][indexing]") {
  // dynamic_slice's start, one_hot's classes and a take in the branch an
  // ifelse picks, all per step.
  Graph g(R"(tg 1
shared E : f32[3, 2] = uniform(low=-1, high=1, seed=12)
func mixed(x : f32[6], starts : i64[T], classes : i32[T], use : bool[T]) -> (a : f32[T, 2], b : f32[T, 4], c : f32[T, 2]) {
  a, b, c = scan(s in starts, k in classes, u in use) {
    return dynamic_slice(x, s, size=[2]), one_hot(k, 4, dtype=f32), ifelse(u, take(E, k), zeros([2], dtype=f32))
  }
}
)");
  RefTensor x = tensor(F32, {6}, {1, 2, 3, 4, 5, 6});
  RefTensor use = tensor(DTypeKind::I1, {3}, {1, 0, 1});
  g.call("mixed",
         {x, tensor(I64, {3}, {0, 4, 2}), tensor(I32, {3}, {0, 2, 1}), use});
  refusedByBoth(
      g, "mixed",
      {x, tensor(I64, {3}, {0, 5, 2}), tensor(I32, {3}, {0, 2, 1}), use},
      {"start 5 of 'dynamic_slice' along dimension 0 is out of "
       "range [0, 4] in step 1 of the scan"},
      "in step 1 of the 'tc.scan'");
  refusedByBoth(
      g, "mixed",
      {x, tensor(I64, {3}, {0, 1, 2}), tensor(I32, {3}, {0, 2, 3}), use},
      {"id 3 (element 0 of the ids of 'take') is out of range "
       "[-3, 3) in step 2 of the scan"},
      "in step 2 of the 'tc.scan'");
}

TEST_CASE("scan: grad through an embedding RNN checks the ids once per step",
          "[loops][indexing][grad]") {
  Random rng(2506);
  Graph g(R"(tg 1
shared E : f32[6, 3] = uniform(low=-1, high=1, seed=13)
shared W : f32[3, 3] = uniform(low=-1, high=1, seed=14)
func loss(tokens : i64[T, B], h0 : f32[B, 3]) -> (l : f32[], gE : f32[6, 3], gW : f32[3, 3]) {
  hT = scan(h = h0, tok in tokens) {
    return tanh(matmul(h, W) + take(E, tok))
  }
  l = sum(hT * hT)
  gE, gW = grad(l, [E, W])
}
)");
  RefTensor h0 = rng.uniform(F32, {2, 3});
  g.call("loss", {tensor(I64, {3, 2}, {0, 5, -6, 2, 3, 3}), h0}, {1e-5, 1e-5});
  refusedByBoth(
      g, "loss", {tensor(I64, {3, 2}, {0, 5, -6, 2, 3, 6}), h0},
      {"'loss' at test.tg:6:", "id 6 (element 1 of the ids of 'take')",
       "in step 2 of the scan at test.tg:5:"},
      "in step 2 of the 'tc.scan'");
}

TEST_CASE("while: ids in the condition, before each step and at the end",
          "[loops][indexing]") {
  // The condition reads V[k]: checked before every step that runs, and
  // once more when it ends the loop, but not after max_steps steps (the
  // condition is not evaluated then).
  Graph g(R"(tg 1
shared V : f32[4] = uniform(low=-1, high=1, seed=15)
func three(k0 : i64[]) -> (k : i64[], n : i64[]) {
  k, n = while(k = k0, max_steps=3, cond=take(V, k) < 10) {
    return k + 1
  }
}
func five(k0 : i64[]) -> (k : i64[], n : i64[]) {
  k, n = while(k = k0, max_steps=5, cond=take(V, k) < 10) {
    return k + 1
  }
}
func ends(k0 : i64[]) -> (k : i64[], n : i64[]) {
  k, n = while(k = k0, max_steps=5, cond=(take(V, k) < 10) & (k < 4)) {
    return k + 1
  }
}
)");
  auto scalar = [](double v) { return RefTensor(I64, {}, {v}); };
  // k = 1, 2, 3: three steps, then no more checks.
  g.call("three", {scalar(1)});
  g.call("five", {scalar(-4)});
  // The check before step 3 reads V[4].
  refusedByBoth(g, "five", {scalar(1)},
                {"'five' at test.tg:9:", "id 4 (element 0 of the ids of",
                 "in step 3 of the while at test.tg:9:"},
                "in step 3 of the 'tc.while'");
  // The check that ends the loop (k = 4, after steps 0 to 2) reads V[4]
  // too; after max_steps steps nothing more is checked.
  g.call("ends", {scalar(-4)});
  refusedByBoth(g, "ends", {scalar(1)},
                {"'ends' at test.tg:14:", "id 4 (element 0 of the ids of",
                 "in step 3 of the while at test.tg:14:"},
                "in step 3 of the 'tc.while'");
  // The first check, before step 0.
  refusedByBoth(g, "three", {scalar(7)},
                {"id 7 (element 0", "in step 0 of the while"},
                "in step 0 of the 'tc.while'");
}

TEST_CASE("while: a refused call leaves a borrowed input it computes in",
          "[loops][indexing]") {
  // The output is computed in the borrowed input's buffer by a loop with
  // checked ids, before the checks end (loop-ids campaign seed 739245):
  // the input is saved first and restored on a refusal.
  Graph g(R"(tg 1
func hop(x : i64[] borrow, next : i64[3], k0 : i64[]) -> (k : i64[] borrow) {
  k = while(k = k0, max_steps=4, cond=k >= 0) {
    return take(next, k)
  }
}
)");
  RefTensor next = tensor(I64, {3}, {1, 2, 5});
  std::vector<Array> args = {toArray(tensor(I64, {}, {7})), toArray(next),
                             toArray(tensor(I64, {}, {0}))};
  tcc::Result<std::vector<Array>> r = g.function("hop").call(args);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().message(),
             Catch::Contains("id 5 (element 0") &&
                 Catch::Contains("in step 3 of the while"));
  CHECK(toRef(args[0]).data == std::vector<double>{7});
  // With fewer steps it runs.
  next.data[2] = -1;
  g.call("hop", {tensor(I64, {}, {7}), next, tensor(I64, {}, {0})});
}
