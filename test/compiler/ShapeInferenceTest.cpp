//===- ShapeInferenceTest.cpp - the shape rules of the tc ops -------------===//
//
// Each rule in dialects/tc/IR/ShapeInference.h, with static, anonymous
// dynamic (?) and symbolic (N) dimensions, and the message of each failure.
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"

#include "dialects/tc/IR/SliceRules.h"

#include "mlir/IR/Builders.h"

#include <functional>

using namespace mlir;
using namespace tcc;
using namespace tcc::test;
using tc::Dim;
using tc::Shape;

namespace {

/// Runs shape rules with an EmitErrorFn that records the message.
class Rules : public DiagnosticCapture {
public:
  tc::EmitErrorFn emit() { return fn; }
  /// The one error message recorded since the last call (and forgets it).
  std::string takeError() {
    INFO("diagnostics: " << Catch::Detail::stringify(messages()));
    REQUIRE(diagnostics.size() == 1);
    std::string message = diagnostics.front().message;
    diagnostics.clear();
    return message;
  }

private:
  std::function<InFlightDiagnostic()> fn = [this] {
    return mlir::emitError(UnknownLoc::get(&context));
  };
};

} // namespace

TEST_CASE("Dim, formatShape, shapeOf and sizesOf", "[ShapeInference]") {
  Rules r;
  CHECK(D(784).str() == "784");
  CHECK(Sym("N").str() == "N");
  CHECK(Any().str() == "?");
  CHECK(Any().isDynamic());
  CHECK(Sym("N").isDynamic());
  CHECK_FALSE(D(0).isDynamic());
  CHECK(D(1).isStatic(1));
  CHECK_FALSE(Sym("N") == Any());
  CHECK_FALSE(Sym("N") == Sym("M"));
  CHECK(Sym("N") == Sym("N"));

  CHECK(tc::formatShape(S({})) == "[]");
  CHECK(tc::formatShape(S({Sym("N"), D(784), Any()})) == "[N, 784, ?]");

  Builder b(&r.context);
  auto type = RankedTensorType::get({ShapedType::kDynamic, 3}, b.getF32Type());
  CHECK(tc::shapeOf(type) == S({Any(), D(3)}));
  CHECK(tc::sizesOf(S({Sym("N"), D(3)})) ==
        SmallVector<int64_t>{ShapedType::kDynamic, 3});
}

TEST_CASE("staticElementCount", "[ShapeInference]") {
  CHECK(tc::staticElementCount(S({})) == 1);
  CHECK(tc::staticElementCount(S({D(2), D(3), D(4)})) == 24);
  CHECK(tc::staticElementCount(S({D(2), D(0)})) == 0);
  CHECK_FALSE(tc::staticElementCount(S({D(2), Sym("N")})).has_value());
  CHECK_FALSE(tc::staticElementCount(S({Any()})).has_value());
  // A product that overflows int64 has no count.
  int64_t big = int64_t(1) << 40;
  CHECK_FALSE(tc::staticElementCount(S({D(big), D(big)})).has_value());
  CHECK(tc::staticElementCount(S({D(big), D(0)})) == 0);
}

TEST_CASE("broadcastShapes", "[ShapeInference]") {
  Rules r;
  auto ok = [&](std::initializer_list<Shape> shapes) {
    FailureOr<Shape> result =
        tc::broadcastShapes(SmallVector<Shape>(shapes), r.emit());
    REQUIRE(succeeded(result));
    CHECK(r.diagnostics.empty());
    return *result;
  };
  auto fails = [&](std::initializer_list<Shape> shapes) {
    CHECK(failed(tc::broadcastShapes(SmallVector<Shape>(shapes), r.emit())));
    return r.takeError();
  };

  SECTION("static") {
    CHECK(ok({S({D(2), D(1), D(3)}), S({D(4), D(3)})}) ==
          S({D(2), D(4), D(3)}));
    CHECK(ok({S({}), S({D(3)})}) == S({D(3)}));
    CHECK(ok({S({D(3)}), S({})}) == S({D(3)}));
    CHECK(ok({S({D(1)}), S({D(1)})}) == S({D(1)}));
    CHECK(ok({S({D(0)}), S({D(1)})}) == S({D(0)}));
    CHECK(ok({S({}), S({})}) == S({}));
  }
  SECTION("three shapes") {
    CHECK(ok({S({D(4)}), S({D(2), D(1)}), S({D(3), D(1), D(1)})}) ==
          S({D(3), D(2), D(4)}));
  }
  SECTION("symbols") {
    CHECK(ok({S({Sym("N"), D(1)}), S({D(1), Sym("M")})}) ==
          S({Sym("N"), Sym("M")}));
    CHECK(ok({S({Sym("N"), D(3)}), S({D(3)})}) == S({Sym("N"), D(3)}));
    CHECK(ok({S({Sym("N")}), S({Sym("N")})}) == S({Sym("N")}));
    // A symbol wins over an anonymous dimension, in either order.
    CHECK(ok({S({Sym("N")}), S({Any()})}) == S({Sym("N")}));
    CHECK(ok({S({Any()}), S({Sym("N")})}) == S({Sym("N")}));
    CHECK(ok({S({Any()}), S({D(1)})}) == S({Any()}));
  }
  SECTION("errors") {
    CHECK(fails({S({D(2), D(3)}), S({D(4)})}) ==
          "cannot broadcast shapes [2, 3] and [4]: dimension 1 is 3 vs 4");
    CHECK(fails({S({Sym("N")}), S({Sym("M")})}) ==
          "cannot broadcast shapes [N] and [M]: dimension 0 is N vs M "
          "(distinct symbolic dimensions may differ at run time)");
    CHECK(fails({S({Sym("N"), D(1)}), S({D(3), D(3)})}) ==
          "cannot broadcast shapes [N, 1] and [3, 3]: dimension 0 is N vs 3 "
          "(dynamic dimension N broadcasts only against 1 or itself, not "
          "against 3)");
    CHECK(fails({S({D(3)}), S({Any()})}) ==
          "cannot broadcast shapes [3] and [?]: dimension 0 is 3 vs ? "
          "(dynamic dimension ? broadcasts only against 1 or itself, not "
          "against 3)");
    // The dimension is numbered in the result (after right-alignment).
    CHECK(fails({S({D(5), D(2), D(3)}), S({D(4), D(3)})}) ==
          "cannot broadcast shapes [5, 2, 3] and [4, 3]: dimension 1 is 2 vs "
          "4");
    CHECK(fails({S({D(4)}), S({D(2), D(1)}), S({D(3), D(1)})}) ==
          "cannot broadcast shapes [4] and [2, 1] and [3, 1]: dimension 0 is "
          "2 vs 3");
  }
}

TEST_CASE("reduceShape", "[ShapeInference]") {
  Rules r;
  Shape x = S({D(2), Sym("N"), D(4)});
  auto ok = [&](ArrayRef<int64_t> axes, bool keep) {
    FailureOr<Shape> result = tc::reduceShape(x, axes, keep, r.emit());
    REQUIRE(succeeded(result));
    return *result;
  };
  CHECK(ok({0, 2}, false) == S({Sym("N")}));
  CHECK(ok({0, 2}, true) == S({D(1), Sym("N"), D(1)}));
  CHECK(ok({1}, false) == S({D(2), D(4)}));
  CHECK(ok({0, 1, 2}, false) == S({}));
  CHECK(ok({0, 1, 2}, true) == S({D(1), D(1), D(1)}));
  // No axes: nothing is reduced (the builder expands "all axes" itself).
  CHECK(ok({}, false) == x);
  CHECK(r.diagnostics.empty());

  CHECK(failed(tc::reduceShape(x, {3}, false, r.emit())));
  CHECK(r.takeError() == "axis 3 is out of range for rank 3");
  CHECK(failed(tc::reduceShape(x, {-1}, false, r.emit())));
  CHECK(r.takeError() == "axis -1 is out of range for rank 3");
  CHECK(failed(tc::reduceShape(x, {2, 0}, false, r.emit())));
  CHECK(r.takeError() ==
        "reduction axes must be sorted and distinct, got [2, 0]");
  CHECK(failed(tc::reduceShape(x, {1, 1}, false, r.emit())));
  CHECK(r.takeError() ==
        "reduction axes must be sorted and distinct, got [1, 1]");
}

TEST_CASE("checkAxis", "[ShapeInference]") {
  Rules r;
  CHECK(succeeded(tc::checkAxis(0, 1, r.emit())));
  CHECK(succeeded(tc::checkAxis(2, 3, r.emit())));
  CHECK(r.diagnostics.empty());
  CHECK(failed(tc::checkAxis(0, 0, r.emit())));
  CHECK(r.takeError() == "axis 0 is out of range for rank 0");
  CHECK(failed(tc::checkAxis(-1, 2, r.emit())));
  CHECK(r.takeError() == "axis -1 is out of range for rank 2");
}

TEST_CASE("matmulShape", "[ShapeInference]") {
  Rules r;
  auto ok = [&](const Shape &a, const Shape &b) {
    FailureOr<Shape> result = tc::matmulShape(a, b, r.emit());
    REQUIRE(succeeded(result));
    return *result;
  };
  auto fails = [&](const Shape &a, const Shape &b) {
    CHECK(failed(tc::matmulShape(a, b, r.emit())));
    return r.takeError();
  };

  SECTION("2-D") {
    CHECK(ok(S({D(2), D(3)}), S({D(3), D(4)})) == S({D(2), D(4)}));
    CHECK(ok(S({Sym("N"), D(784)}), S({D(784), D(10)})) ==
          S({Sym("N"), D(10)}));
    // A symbolic contraction dimension: the same symbol, or anonymous.
    CHECK(ok(S({D(784), Sym("N")}), S({Sym("N"), D(10)})) ==
          S({D(784), D(10)}));
    CHECK(ok(S({D(2), Any()}), S({Sym("K"), D(5)})) == S({D(2), D(5)}));
  }
  SECTION("batched, with broadcasting batch dimensions") {
    CHECK(ok(S({D(5), D(1), D(2), D(3)}), S({D(7), D(3), D(4)})) ==
          S({D(5), D(7), D(2), D(4)}));
    CHECK(ok(S({D(8), D(2), D(3)}), S({D(3), D(4)})) == S({D(8), D(2), D(4)}));
    CHECK(ok(S({D(2), D(3)}), S({D(8), D(3), D(4)})) == S({D(8), D(2), D(4)}));
    CHECK(ok(S({Sym("B"), Sym("T"), D(3)}), S({D(3), D(2)})) ==
          S({Sym("B"), Sym("T"), D(2)}));
    CHECK(ok(S({Sym("B"), D(2), D(3)}), S({D(1), D(3), D(4)})) ==
          S({Sym("B"), D(2), D(4)}));
  }
  SECTION("errors") {
    CHECK(fails(S({D(3)}), S({D(3), D(2)})) ==
          "matmul needs operands of rank >= 2, got [3] and [3, 2]");
    CHECK(fails(S({D(2), D(3)}), S({D(3)})) ==
          "matmul needs operands of rank >= 2, got [2, 3] and [3]");
    CHECK(fails(S({D(2), D(3)}), S({D(4), D(5)})) ==
          "matmul contraction dimensions differ: [2, 3] x [4, 5] (3 vs 4)");
    CHECK(fails(S({D(2), Sym("K")}), S({Sym("M"), D(5)})) ==
          "matmul contraction dimensions differ: [2, K] x [M, 5] (K vs M)");
    CHECK(fails(S({D(2), Sym("K")}), S({D(3), D(5)})) ==
          "matmul contraction dimensions differ: [2, K] x [3, 5] (K vs 3)");
    CHECK(fails(S({D(2), D(2), D(3)}), S({D(5), D(3), D(4)})) ==
          "matmul batch dimensions of [2, 2, 3] and [5, 3, 4] do not "
          "broadcast: cannot broadcast shapes [2] and [5]: dimension 0 is 2 "
          "vs 5");
  }
}

TEST_CASE("transposeShape", "[ShapeInference]") {
  Rules r;
  Shape x = S({D(2), Sym("N"), D(4)});
  FailureOr<Shape> t = tc::transposeShape(x, {2, 0, 1}, r.emit());
  REQUIRE(succeeded(t));
  CHECK(*t == S({D(4), D(2), Sym("N")}));
  t = tc::transposeShape(x, {0, 1, 2}, r.emit());
  REQUIRE(succeeded(t));
  CHECK(*t == x);
  t = tc::transposeShape(S({}), {}, r.emit());
  REQUIRE(succeeded(t));
  CHECK(*t == S({}));
  CHECK(r.diagnostics.empty());

  CHECK(failed(tc::transposeShape(x, {1, 0}, r.emit())));
  CHECK(r.takeError() == "permutation of length 2 does not match rank 3");
  CHECK(failed(tc::transposeShape(x, {0, 0, 1}, r.emit())));
  CHECK(r.takeError() == "[0, 0, 1] is not a permutation of [0, 3)");
  CHECK(failed(tc::transposeShape(x, {0, 3, 1}, r.emit())));
  CHECK(r.takeError() == "[0, 3, 1] is not a permutation of [0, 3)");
  CHECK(failed(tc::transposeShape(x, {0, -1, 1}, r.emit())));
  CHECK(r.takeError() == "[0, -1, 1] is not a permutation of [0, 3)");
}

TEST_CASE("sliceShape", "[ShapeInference]") {
  Rules r;
  Shape x = S({D(10), Sym("N")});
  FailureOr<Shape> s = tc::sliceShape(x, {2, 0}, {8, 5}, {3, 1}, r.emit());
  REQUIRE(succeeded(s));
  // ceil((8 - 2) / 3) = 2; bounds on one side of a dynamic dimension give a
  // static length (checked before the call).
  CHECK(*s == S({D(2), D(5)}));
  s = tc::sliceShape(x, {0, 0}, {10, 7}, {4, 2}, r.emit());
  REQUIRE(succeeded(s));
  CHECK(*s == S({D(3), D(4)}));
  s = tc::sliceShape(x, {5, 0}, {5, 0}, {1, 1}, r.emit());
  REQUIRE(succeeded(s));
  CHECK(*s == S({D(0), D(0)}));
  // numpy's bounds: past the end clamps, negative counts from the end,
  // negative steps walk back; from the end of N the length is static too.
  s = tc::sliceShape(x, {-3, -2}, {100, tc::kSliceOpenHigh}, {1, 1}, r.emit());
  REQUIRE(succeeded(s));
  CHECK(*s == S({D(3), D(2)}));
  s = tc::sliceShape(x, {tc::kSliceOpenHigh, tc::kSliceOpenHigh},
                     {tc::kSliceOpenLow, tc::kSliceOpenLow}, {-3, -1},
                     r.emit());
  REQUIRE(succeeded(s));
  CHECK(*s == S({D(4), Sym("N")}));
  // Any other slice of N has a length computed from N.
  s = tc::sliceShape(x, {0, 1}, {10, tc::kSliceOpenHigh}, {1, 2}, r.emit());
  REQUIRE(succeeded(s));
  CHECK(*s == S({D(10), Sym("((max(N-1,0)+1)/2)")}));
  CHECK(r.diagnostics.empty());

  CHECK(failed(tc::sliceShape(x, {0}, {10, 1}, {1, 1}, r.emit())));
  CHECK(r.takeError() == "slice bounds need 2 entries each (the rank), got "
                         "begin 1, end 2, step 2");
  CHECK(failed(tc::sliceShape(x, {0, 0}, {5, 1}, {1, 0}, r.emit())));
  CHECK(r.takeError() == "slice step 0 of dimension 1 must be nonzero");
}

TEST_CASE("concatShape", "[ShapeInference]") {
  Rules r;
  auto ok = [&](std::initializer_list<Shape> shapes, int64_t axis) {
    FailureOr<Shape> result =
        tc::concatShape(SmallVector<Shape>(shapes), axis, r.emit());
    REQUIRE(succeeded(result));
    return *result;
  };
  auto fails = [&](std::initializer_list<Shape> shapes, int64_t axis) {
    CHECK(failed(tc::concatShape(SmallVector<Shape>(shapes), axis, r.emit())));
    return r.takeError();
  };
  CHECK(ok({S({D(2), D(3)}), S({D(4), D(3)})}, 0) == S({D(6), D(3)}));
  CHECK(ok({S({D(2), D(3)}), S({D(2), D(5)}), S({D(2), D(1)})}, 1) ==
        S({D(2), D(9)}));
  CHECK(ok({S({D(2), D(3)})}, 1) == S({D(2), D(3)}));
  // Other dimensions keep their symbols; a dynamic concatenated dimension
  // is the sum, as tc-shape-checks writes it.
  CHECK(ok({S({D(2), Sym("N")}), S({D(3), Sym("N")})}, 0) ==
        S({D(5), Sym("N")}));
  CHECK(ok({S({Sym("N"), D(3)}), S({Sym("N"), D(3)})}, 0) ==
        S({Sym("2*N"), D(3)}));
  CHECK(ok({S({Sym("N"), D(3)}), S({Sym("M"), D(3)})}, 0) ==
        S({Sym("(N+M)"), D(3)}));
  CHECK(ok({S({Sym("N"), D(3)}), S({D(2), D(3)})}, 0) ==
        S({Sym("(N+2)"), D(3)}));
  CHECK(ok({S({Any(), D(3)}), S({D(2), D(3)})}, 0) == S({Any(), D(3)}));
  // An anonymous dimension matches a symbol off the axis.
  CHECK(ok({S({D(2), Sym("N")}), S({D(3), Any()})}, 0) == S({D(5), Sym("N")}));
  CHECK(r.diagnostics.empty());

  CHECK(fails({}, 0) == "concatenation needs at least one input");
  CHECK(fails({S({D(2), D(3)})}, 2) == "axis 2 is out of range for rank 2");
  CHECK(fails({S({D(2), D(3)}), S({D(3)})}, 0) ==
        "cannot concatenate shapes [2, 3] and [3] of different rank");
  CHECK(fails({S({D(2), D(3)}), S({D(2), D(4)})}, 0) ==
        "cannot concatenate shapes [2, 3] and [2, 4] along axis 0: dimension "
        "1 differs");
  CHECK(fails({S({D(2), Sym("N")}), S({D(2), Sym("M")})}, 0) ==
        "cannot concatenate shapes [2, N] and [2, M] along axis 0: dimension "
        "1 differs");
  CHECK(fails({S({D(2), Sym("N")}), S({D(2), D(3)})}, 0) ==
        "cannot concatenate shapes [2, N] and [2, 3] along axis 0: dimension "
        "1 differs");
}

TEST_CASE("checkReshape", "[ShapeInference]") {
  Rules r;
  auto ok = [&](const Shape &from, const Shape &to) {
    bool result = succeeded(tc::checkReshape(from, to, r.emit()));
    CHECK(r.diagnostics.empty());
    return result;
  };
  auto fails = [&](const Shape &from, const Shape &to) {
    CHECK(failed(tc::checkReshape(from, to, r.emit())));
    return r.takeError();
  };
  CHECK(ok(S({D(2), D(3), D(4)}), S({D(6), D(4)})));
  CHECK(ok(S({D(2), D(3)}), S({D(6)})));
  CHECK(ok(S({}), S({D(1), D(1)})));
  CHECK(ok(S({D(2), D(0)}), S({D(0)})));
  // One dynamic target dimension: the static sizes must divide the count.
  CHECK(ok(S({D(2), D(6)}), S({Any(), D(4)})));
  CHECK(ok(S({D(2), D(0)}), S({Any(), D(0)})));
  // A dynamic input: only the number of dynamic target dimensions is known.
  CHECK(ok(S({Sym("N"), D(4)}), S({Sym("N"), D(2), D(2)})));
  CHECK(ok(S({Any(), D(4)}), S({Any()})));

  CHECK(fails(S({D(2), D(3)}), S({D(4)})) ==
        "cannot reshape [2, 3] (6 elements) to [4]");
  CHECK(fails(S({D(2), D(3)}), S({Any(), D(4)})) ==
        "cannot reshape [2, 3] (6 elements) to [?, 4]");
  CHECK(fails(S({D(2), D(3)}), S({Any(), D(0)})) ==
        "cannot reshape [2, 3] (6 elements) to [?, 0]");
  CHECK(fails(S({Sym("N"), D(4)}), S({D(8)})) ==
        "reshape of [N, 4] to [8]: a dynamic input cannot take a static "
        "shape");
  // Several named dimensions: products of symbols on both sides.
  CHECK(ok(S({Sym("N"), Sym("M")}), S({Sym("N"), Sym("M")})));
  CHECK(ok(S({Sym("B"), Sym("T"), D(4)}), S({Sym("B*T"), D(4)})));
  CHECK(ok(S({Sym("B*T"), D(4)}), S({Sym("B"), Sym("T"), D(2), D(2)})));
  CHECK(fails(S({Sym("B"), Sym("T"), D(4)}), S({Sym("B*T"), D(2)})) ==
        "cannot reshape [B, T, 4] (B x T x 4 elements) to [B*T, 2] (B x T x "
        "2 elements)");
  CHECK(fails(S({Sym("B"), Sym("T")}), S({Sym("B"), Sym("B")})) ==
        "reshape of [B, T] to [B, B]: the input has no dimension B");
  CHECK(fails(S({Any(), Sym("M")}), S({Sym("N"), Sym("M")})) ==
        "reshape of [?, M] to [N, M]: at most one dimension may be dynamic");
  CHECK(fails(S({D(6)}), S({D(-1), D(6)})) ==
        "reshape of [6] to [-1, 6]: negative dimension");

  // Symbols that the target keeps cancel out; the rest is compared.
  CHECK(ok(S({Sym("N"), D(2), D(3)}), S({Sym("N"), D(6)})));
  CHECK(ok(S({D(2), Sym("N"), D(3)}), S({D(3), D(2), Sym("N")})));
  CHECK(ok(S({Sym("N"), D(0)}), S({Sym("N"), D(0), D(5)})));
  CHECK(fails(S({Sym("N"), D(2), D(3)}), S({Sym("N"), D(7)})) ==
        "cannot reshape [N, 2, 3] (N x 6 elements) to [N, 7] (N x 7 "
        "elements)");
  CHECK(fails(S({Sym("N"), D(4)}), S({Sym("N")})) ==
        "cannot reshape [N, 4] (N x 4 elements) to [N] (N x 1 elements)");
  CHECK(fails(S({Sym("N"), Sym("M"), D(2)}), S({Sym("N"), D(2)})) ==
        "reshape of [N, M, 2] to [N, 2]: the target has no place for the "
        "input's dimension M");
  CHECK(fails(S({Sym("N"), D(4)}), S({Sym("M"), D(4)})) ==
        "reshape of [N, 4] to [M, 4]: the input has no dimension M");
  // Anonymous dimensions (the verifier's view) match nothing: [?, 4] to
  // [?] may be right, and is not rejected.
  CHECK(ok(S({Any(), D(4)}), S({Any(), D(3)})));
  CHECK(ok(S({Any(), Any()}), S({Any()})));
  CHECK(fails(S({Any(), D(4)}), S({Sym("N")})) ==
        "reshape of [?, 4] to [N]: the input has no dimension N");
  // A target size that overflows int64 cannot match a countable input.
  int64_t big = int64_t(1) << 40;
  CHECK(fails(S({D(2), D(3)}), S({D(big), D(big)})) ==
        "cannot reshape [2, 3] (6 elements) to [1099511627776, "
        "1099511627776]");

  // isValidReshape is the same rule without a diagnostic.
  CHECK(tc::isValidReshape(S({D(2), D(3)}), S({D(3), D(2)})));
  CHECK(tc::isValidReshape(S({Sym("N"), D(4)}), S({Any(), D(2)})));
  CHECK_FALSE(tc::isValidReshape(S({D(2), D(3)}), S({D(4)})));
  CHECK_FALSE(tc::isValidReshape(S({Sym("N")}), S({D(4)})));
  CHECK(r.diagnostics.empty());
}

TEST_CASE("inferReshape", "[ShapeInference]") {
  Rules r;
  auto infers = [&](const Shape &from, const Shape &to) {
    FailureOr<Shape> result = tc::inferReshape(from, to, r.emit());
    CHECK(r.diagnostics.empty());
    REQUIRE(succeeded(result));
    return *result;
  };
  auto fails = [&](const Shape &from, const Shape &to) {
    CHECK(failed(tc::inferReshape(from, to, r.emit())));
    return r.takeError();
  };
  CHECK(infers(S({D(2), D(3), D(4)}), S({D(-1), D(4)})) == S({D(6), D(4)}));
  CHECK(infers(S({D(2), D(3)}), S({D(-1)})) == S({D(6)}));
  CHECK(infers(S({}), S({D(1), D(-1)})) == S({D(1), D(1)}));
  CHECK(infers(S({D(2), D(0)}), S({D(-1)})) == S({D(0)}));
  // Without -1, the target is checked and returned as it is.
  CHECK(infers(S({D(2), D(3)}), S({D(3), D(2)})) == S({D(3), D(2)}));
  // A kept symbol: -1 is the rest of the input's static size.
  CHECK(infers(S({Sym("N"), D(2), D(3)}), S({Sym("N"), D(-1)})) ==
        S({Sym("N"), D(6)}));
  CHECK(infers(S({Sym("N"), D(4)}), S({D(2), Sym("N"), D(-1)})) ==
        S({D(2), Sym("N"), D(2)}));
  // No symbol kept: -1 of a dynamic input is anonymous.
  // No symbol kept: -1 of a dynamic input is named by what it computes.
  CHECK(infers(S({Sym("N"), D(4)}), S({D(-1)})) == S({Sym("4*N")}));
  CHECK(infers(S({Sym("N"), D(4)}), S({D(-1), D(2)})) == S({Sym("2*N"), D(2)}));
  CHECK(infers(S({Sym("N"), D(5)}), S({D(-1), D(3)})) ==
        S({Sym("(5*N/3)"), D(3)}));
  CHECK(infers(S({Sym("B"), Sym("T"), D(4)}), S({D(-1), D(4)})) ==
        S({Sym("B*T"), D(4)}));
  CHECK(infers(S({Sym("B*T"), D(4)}), S({Sym("B"), D(-1), D(4)})) ==
        S({Sym("B"), Sym("T"), D(4)}));
  // Anonymous input dimensions leave -1 anonymous.
  CHECK(infers(S({Any(), D(4)}), S({D(-1)})) == S({Any()}));

  CHECK(fails(S({D(2), D(3)}), S({D(4), D(-1)})) ==
        "cannot reshape [2, 3] (6 elements) to [4, -1]");
  CHECK(fails(S({D(2), D(0)}), S({D(0), D(-1)})) ==
        "cannot reshape [2, 0] (0 elements) to [0, -1]");
  CHECK(fails(S({Sym("N"), D(4)}), S({Sym("N"), D(3), D(-1)})) ==
        "cannot reshape [N, 4] (N x 4 elements) to [N, 3, -1]");
  CHECK(fails(S({D(2), D(3)}), S({D(-1), D(-1)})) ==
        "reshape can infer only one dimension (-1)");
  CHECK(fails(S({D(2), D(3)}), S({D(-2), D(-3)})) ==
        "reshape to a negative dimension -2");
  CHECK(infers(S({Sym("N"), Sym("M")}), S({Sym("N"), D(-1)})) ==
        S({Sym("N"), Sym("M")}));
  CHECK(infers(S({D(3), Sym("B"), Sym("T")}), S({Sym("T"), D(-1)})) ==
        S({Sym("T"), Sym("3*B")}));
  CHECK(fails(S({Any(), Sym("M")}), S({Sym("M"), D(-1)})) ==
        "reshape of [?, M] to [M, -1]: at most one dimension may be dynamic");
  CHECK(fails(S({Sym("N"), D(4)}), S({D(8)})) ==
        "reshape of [N, 4] to [8]: a dynamic input cannot take a static "
        "shape");
}

TEST_CASE("checkBroadcastTo", "[ShapeInference]") {
  Rules r;
  auto ok = [&](const Shape &from, const Shape &to) {
    bool result = succeeded(tc::checkBroadcastTo(from, to, r.emit()));
    CHECK(r.diagnostics.empty());
    return result;
  };
  auto fails = [&](const Shape &from, const Shape &to) {
    CHECK(failed(tc::checkBroadcastTo(from, to, r.emit())));
    return r.takeError();
  };
  CHECK(ok(S({D(3)}), S({D(2), D(3)})));
  CHECK(ok(S({}), S({D(4), D(2)})));
  CHECK(ok(S({D(1), D(3)}), S({D(5), D(3)})));
  CHECK(ok(S({Sym("N"), D(1)}), S({Sym("N"), D(4)})));
  CHECK(ok(S({Sym("N")}), S({Any()})));
  CHECK(ok(S({Any()}), S({Sym("N")})));
  CHECK(ok(S({D(2), D(3)}), S({D(2), D(3)})));

  CHECK(fails(S({D(2), D(3)}), S({D(3)})) ==
        "cannot broadcast [2, 3] to the lower-rank shape [3]");
  CHECK(fails(S({D(3)}), S({Sym("N"), D(3)})) ==
        "cannot broadcast [3] to [N, 3]: new dimension 0 must be static");
  CHECK(fails(S({D(3)}), S({D(2), D(4)})) ==
        "cannot broadcast [3] to [2, 4]: dimension 1 is 3 vs 4");
  CHECK(fails(S({D(1)}), S({Sym("N")})) ==
        "cannot broadcast [1] to [N]: dimension 0 is 1 vs N");
  CHECK(fails(S({Sym("N")}), S({Sym("M")})) ==
        "cannot broadcast [N] to [M]: dimension 0 is N vs M");
  CHECK(fails(S({Sym("N")}), S({D(3)})) ==
        "cannot broadcast [N] to [3]: dimension 0 is N vs 3");
}
