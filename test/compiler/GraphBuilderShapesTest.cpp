//===- GraphBuilderShapesTest.cpp - symbolic shapes in GraphBuilder -------===//
//
// How the GraphBuilder tracks symbolic dimensions through ops, normalizes
// axes, infers reshape targets, and where it reports shape errors.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilderFixture.h"

#include "dialects/tc/IR/TcOps.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::test;
using tc::Dim;
using tc::Shape;

TEST_CASE("Symbolic dimensions propagate through ops", "[GraphBuilder]") {
  Fixture t;
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 1), "W", t.f32(), {784, 10},
                                      tc::InitKind::Zeros)));
  auto args = t.begin({t.spec("x", t.f32(), S({Sym("N"), D(784)}), t.at(3, 8)),
                       t.spec("c", t.f32(), S({Sym("N"), D(1)}), t.at(3, 20)),
                       t.spec("r", t.f32(), S({D(1), Sym("M")}), t.at(3, 30))},
                      {t.spec("s", t.f32(), S({Sym("N")}), t.at(3, 50))});
  TensorRef x = args[0], c = args[1], r = args[2];
  TensorRef w = t.b.readShared(t.at(4, 1), "W");

  TensorRef sum = t.b.binary(t.at(4, 7), BinaryKind::Add, x, x);
  CHECK(sum.shape == S({Sym("N"), D(784)}));
  TensorRef prod = t.b.matmul(t.at(5, 7), sum, w);
  CHECK(prod.shape == S({Sym("N"), D(10)}));
  CHECK(typeText(prod.type()) == "tensor<?x10xf32>");
  TensorRef red = t.b.reduce(t.at(6, 7), ReduceKind::Sum, prod, {1}, false);
  CHECK(red.shape == S({Sym("N")}));
  CHECK(typeText(red.type()) == "tensor<?xf32>");
  TensorRef kept = t.b.reduce(t.at(7, 7), ReduceKind::Max, prod, {1}, true);
  CHECK(kept.shape == S({Sym("N"), D(1)}));
  // [N, 1] + [1, M] is [N, M].
  CHECK(t.b.binary(t.at(8, 7), BinaryKind::Mul, c, r).shape ==
        S({Sym("N"), Sym("M")}));
  CHECK(t.b.compare(t.at(8, 9), tc::ComparePredicate::lt, c, r).shape ==
        S({Sym("N"), Sym("M")}));
  CHECK(t.b.transpose(t.at(9, 7), prod, {}).shape == S({D(10), Sym("N")}));
  CHECK(t.b.softmax(t.at(10, 7), prod, -1).shape == S({Sym("N"), D(10)}));
  CHECK(t.b.argmax(t.at(11, 7), prod, 1, false).shape == S({Sym("N")}));
  CHECK(t.b.unary(t.at(12, 7), UnaryKind::Exp, prod).shape ==
        S({Sym("N"), D(10)}));
  CHECK(t.b.cast(t.at(13, 7), prod, t.f64()).shape == S({Sym("N"), D(10)}));
  CHECK(t.b.reshape(t.at(14, 7), x, S({Sym("N"), D(28), D(28)})).shape ==
        S({Sym("N"), D(28), D(28)}));
  CHECK(t.b.broadcastTo(t.at(15, 7), c, S({Sym("N"), D(5)})).shape ==
        S({Sym("N"), D(5)}));
  // Concatenating along another axis keeps N; along N, it is 2*N.
  CHECK(t.b.concat(t.at(16, 7), {prod, prod}, 1).shape == S({Sym("N"), D(20)}));
  CHECK(t.b.concat(t.at(17, 7), {prod, prod}, 0).shape ==
        S({Sym("2*N"), D(10)}));
  // A slice of a symbolic dimension has a static size.
  CHECK(t.b.slice(t.at(18, 7), prod, {0, 0}, {4, 10}, {1, 1}).shape ==
        S({D(4), D(10)}));
  CHECK(t.diagnostics.empty());

  // The output declared f32[N] matches the reduction. It depends on x
  // alone: c and r fed only the checks above, so they are unused.
  REQUIRE(succeeded(t.b.endFunction(t.at(19, 1), {red}, {})));
  CHECK(t.messages() ==
        std::vector<std::string>{
            "input 'c' of 'f' is unused: no output or update depends on it",
            "input 'r' of 'f' is unused: no output or update depends on it"});
  CHECK(t.b.finish());
}

TEST_CASE("Broadcasting errors are located and name both shapes",
          "[GraphBuilder]") {
  Fixture t;
  auto args = t.begin({t.spec("a", t.f32(), S({Sym("N")}), t.at(2, 8)),
                       t.spec("b", t.f32(), S({Sym("M")}), t.at(2, 20)),
                       t.spec("p", t.f32(), S({D(2), D(3)}), t.at(2, 30)),
                       t.spec("q", t.f32(), S({D(4)}), t.at(2, 40))},
                      {});

  CHECK_FALSE(t.b.binary(t.at(7, 11), BinaryKind::Add, args[0], args[1]));
  t.requireOneError("cannot broadcast shapes [N] and [M]: dimension 0 is N "
                    "vs M (distinct symbolic dimensions may differ at run "
                    "time)",
                    7, 11);

  CHECK_FALSE(
      t.b.compare(t.at(8, 3), tc::ComparePredicate::eq, args[2], args[3]));
  t.requireOneError("cannot broadcast shapes [2, 3] and [4]: dimension 1 is "
                    "3 vs 4",
                    8, 3);

  CHECK_FALSE(t.b.binary(t.at(9, 5), BinaryKind::Sub, args[0], args[3]));
  t.requireOneError("cannot broadcast shapes [N] and [4]: dimension 0 is N "
                    "vs 4 (dynamic dimension N broadcasts only against 1 or "
                    "itself, not against 4)",
                    9, 5);

  // A failed operand makes the next op fail without a second diagnostic.
  TensorRef bad = t.b.binary(t.at(10, 5), BinaryKind::Add, args[0], args[1]);
  t.diagnostics.clear();
  CHECK_FALSE(t.b.unary(t.at(11, 5), UnaryKind::Neg, bad));
  CHECK_FALSE(t.b.binary(t.at(11, 7), BinaryKind::Add, bad, args[0]));
  CHECK_FALSE(t.b.matmul(t.at(11, 9), args[2], bad));
  CHECK_FALSE(t.b.reduce(t.at(11, 11), ReduceKind::Sum, bad, {}, false));
  CHECK(t.diagnostics.empty());

  CHECK(t.b.hadError());
  REQUIRE(succeeded(t.b.endFunction(t.at(12, 1), {}, {})));
  CHECK_FALSE(t.b.finish());
}

TEST_CASE("Negative axes are normalized", "[GraphBuilder]") {
  Fixture t;
  auto args = t.begin({t.spec("x", t.f32(), S({D(2), D(3), D(4)}), t.at(2, 8)),
                       t.spec("m", t.f32(), S({D(2), D(3)}), t.at(2, 20))},
                      {});
  TensorRef x = args[0], m = args[1];

  auto sum =
      defOp<tc::SumOp>(t.b.reduce(t.at(3, 7), ReduceKind::Sum, x, {-1}, false));
  CHECK(sum.getAxes() == ArrayRef<int64_t>{2});
  // Normalized, then sorted.
  auto mean = defOp<tc::MeanOp>(
      t.b.reduce(t.at(4, 7), ReduceKind::Mean, x, {-1, 0}, true));
  CHECK(mean.getAxes() == ArrayRef<int64_t>{0, 2});
  CHECK(mean.getKeepdims());
  // No axes: all of them.
  auto all =
      defOp<tc::ProdOp>(t.b.reduce(t.at(5, 7), ReduceKind::Prod, x, {}, false));
  CHECK(all.getAxes() == ArrayRef<int64_t>{0, 1, 2});
  CHECK(defOp<tc::ArgmaxOp>(t.b.argmax(t.at(6, 7), m, -2, false)).getAxis() ==
        0u);
  CHECK(defOp<tc::SoftmaxOp>(t.b.softmax(t.at(7, 7), x, -1)).getAxis() == 2u);
  CHECK(
      defOp<tc::LogSoftmaxOp>(t.b.softmax(t.at(8, 7), x, -3, true)).getAxis() ==
      0u);
  CHECK(defOp<tc::TransposeOp>(t.b.transpose(t.at(9, 7), x, {-1, 0, -2}))
            .getPerm() == ArrayRef<int64_t>{2, 0, 1});
  // An empty permutation reverses.
  CHECK(defOp<tc::TransposeOp>(t.b.transpose(t.at(10, 7), x, {})).getPerm() ==
        ArrayRef<int64_t>{2, 1, 0});
  CHECK(defOp<tc::ConcatOp>(t.b.concat(t.at(11, 7), {m, m}, -1)).getAxis() ==
        1u);
  CHECK(t.diagnostics.empty());

  CHECK_FALSE(t.b.reduce(t.at(12, 7), ReduceKind::Sum, x, {3}, false));
  t.requireOneError("axis 3 is out of range for a tensor of rank 3", 12, 7);
  CHECK_FALSE(t.b.reduce(t.at(13, 7), ReduceKind::Sum, x, {-4}, false));
  t.requireOneError("axis -4 is out of range for a tensor of rank 3", 13, 7);
  CHECK_FALSE(t.b.reduce(t.at(14, 7), ReduceKind::Sum, x, {1, -2}, false));
  t.requireOneError("axis -2 is listed twice", 14, 7);
  CHECK_FALSE(t.b.argmax(t.at(15, 7), m, 2, false));
  t.requireOneError("axis 2 is out of range for a tensor of rank 2", 15, 7);
  CHECK_FALSE(t.b.transpose(t.at(16, 7), m, {0, -3}));
  t.requireOneError("axis -3 is out of range for a tensor of rank 2", 16, 7);
  CHECK_FALSE(t.b.transpose(t.at(17, 7), m, {1, -1}));
  t.requireOneError("[1, 1] is not a permutation of [0, 2)", 17, 7);
  CHECK_FALSE(t.b.concat(t.at(18, 7), {m, m}, -3));
  t.requireOneError("axis -3 is out of range for a tensor of rank 2", 18, 7);
}

TEST_CASE("reshape infers a -1 dimension", "[GraphBuilder]") {
  Fixture t;
  auto args = t.begin({t.spec("x", t.f32(), S({D(2), D(3), D(4)}), t.at(2, 8)),
                       t.spec("y", t.f32(), S({Sym("N"), D(4)}), t.at(2, 20)),
                       t.spec("z", t.f32(), S({Sym("M")}), t.at(2, 30))},
                      {});
  TensorRef x = args[0], y = args[1], z = args[2];

  TensorRef r = t.b.reshape(t.at(3, 7), x, S({D(-1), D(4)}));
  CHECK(r.shape == S({D(6), D(4)}));
  CHECK(typeText(r.type()) == "tensor<6x4xf32>");
  CHECK(t.b.reshape(t.at(4, 7), x, S({D(-1)})).shape == S({D(24)}));
  CHECK(t.b.reshape(t.at(5, 7), x, S({D(2), D(-1), D(3)})).shape ==
        S({D(2), D(4), D(3)}));
  // Symbols carried over from the input stay.
  CHECK(t.b.reshape(t.at(6, 7), y, S({Sym("N"), D(2), D(2)})).shape ==
        S({Sym("N"), D(2), D(2)}));
  // -1 of a dynamic input is the size it computes.
  CHECK(t.b.reshape(t.at(7, 7), y, S({D(-1)})).shape == S({Sym("4*N")}));
  CHECK(t.diagnostics.empty());

  CHECK_FALSE(t.b.reshape(t.at(8, 7), x, S({D(-1), D(-1)})));
  t.requireOneError("reshape can infer only one dimension (-1)", 8, 7);
  CHECK_FALSE(t.b.reshape(t.at(9, 7), x, S({D(-3), D(-8)})));
  t.requireOneError("reshape to a negative dimension -3", 9, 7);
  CHECK_FALSE(t.b.reshape(t.at(10, 7), x, S({D(5)})));
  t.requireOneError("cannot reshape [2, 3, 4] (24 elements) to [5]", 10, 7);
  CHECK_FALSE(t.b.reshape(t.at(11, 7), y, S({Sym("M"), D(4)})));
  t.requireOneError("reshape of [N, 4] to [M, 4]: the input has no dimension M",
                    11, 7);
  CHECK_FALSE(t.b.reshape(t.at(12, 7), z, S({D(3)})));
  t.requireOneError(
      "reshape of [M] to [3]: a dynamic input cannot take a static shape", 12,
      7);
  // -1 that does not divide the count: the shape as given, with its -1.
  CHECK_FALSE(t.b.reshape(t.at(13, 7), x, S({D(5), D(-1)})));
  t.requireOneError("cannot reshape [2, 3, 4] (24 elements) to [5, -1]", 13, 7);
}

TEST_CASE("reshape cancels the symbols it keeps", "[GraphBuilder]") {
  Fixture t;
  auto args =
      t.begin({t.spec("x", t.f32(), S({Sym("N"), D(2), D(3)}), t.at(2, 8)),
               t.spec("y", t.f32(), S({Sym("N"), D(4)}), t.at(2, 20))},
              {});
  TensorRef x = args[0], y = args[1];

  TensorRef r = t.b.reshape(t.at(3, 7), x, S({Sym("N"), D(-1)}));
  CHECK(r.shape == S({Sym("N"), D(6)}));
  CHECK(typeText(r.type()) == "tensor<?x6xf32>");
  CHECK(t.b.reshape(t.at(4, 7), x, S({D(3), Sym("N"), D(2)})).shape ==
        S({D(3), Sym("N"), D(2)}));
  CHECK(t.b.reshape(t.at(5, 7), y, S({Sym("N"), D(2), D(-1)})).shape ==
        S({Sym("N"), D(2), D(2)}));
  CHECK(t.diagnostics.empty());
  // The reshapes verify as IR, where N is an anonymous dimension.
  Fixture v;
  auto vargs =
      v.begin({v.spec("x", v.f32(), S({Sym("N"), D(2), D(3)}), v.at(2, 8))},
              {v.spec("y", v.f32(), S({Sym("N"), D(6)}), v.at(2, 30))});
  TensorRef vr = v.b.reshape(v.at(3, 7), vargs[0], S({Sym("N"), D(-1)}));
  REQUIRE(succeeded(v.b.endFunction(v.at(4, 1), {vr}, {})));
  OwningOpRef<ModuleOp> module = v.b.finish();
  REQUIRE(module);
  CHECK(v.diagnostics.empty());

  CHECK_FALSE(t.b.reshape(t.at(6, 7), x, S({Sym("N"), D(7)})));
  t.requireOneError("cannot reshape [N, 2, 3] (N x 6 elements) to [N, 7] (N "
                    "x 7 elements)",
                    6, 7);
  CHECK_FALSE(t.b.reshape(t.at(7, 7), y, S({Sym("N")})));
  t.requireOneError(
      "cannot reshape [N, 4] (N x 4 elements) to [N] (N x 1 elements)", 7, 7);
  CHECK_FALSE(t.b.reshape(t.at(8, 7), y, S({Sym("N"), D(3), D(-1)})));
  t.requireOneError("cannot reshape [N, 4] (N x 4 elements) to [N, 3, -1]", 8,
                    7);
}
