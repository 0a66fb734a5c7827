//===- GraphBuilderTest.cpp - the C++ API that builds tc modules ----------===//
//
// Builds modules through tcc::GraphBuilder as a host would, and checks the
// IR, the symbolic shapes it tracks, and the located diagnostics it reports
// (captured with a ScopedDiagnosticHandler).
//
//===----------------------------------------------------------------------===//

#include "GraphBuilderFixture.h"

#include "compiler/frontend/GraphBuilder.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::test;
using tc::Dim;
using tc::Shape;

TEST_CASE("A function with shared variables, a borrowed input and updates",
          "[GraphBuilder]") {
  Fixture t;
  Builder attrs(&t.context);
  auto params = attrs.getDictionaryAttr(
      {attrs.getNamedAttr("std", attrs.getF64FloatAttr(0.01)),
       attrs.getNamedAttr("seed", attrs.getI64IntegerAttr(1))});
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 1), "W", t.f32(), {784, 10},
                                      tc::InitKind::Normal, params)));
  REQUIRE(succeeded(
      t.b.declareShared(t.at(3, 1), "b", t.f32(), {10}, tc::InitKind::Zeros)));
  CHECK(t.b.hasShared("W"));
  CHECK(t.b.hasShared("b"));
  CHECK_FALSE(t.b.hasShared("x"));

  auto args =
      t.begin({t.spec("x", t.f32(), S({Sym("N"), D(784)}), t.at(4, 8), true),
               t.spec("lr", t.f32(), S({}), t.at(4, 30))},
              {t.spec("logits", t.f32(), S({Sym("N"), D(10)}), t.at(4, 50),
                      false, true)},
              "train");
  TensorRef x = args[0], lr = args[1];
  CHECK(x.shape == S({Sym("N"), D(784)}));
  CHECK(typeText(x.type()) == "tensor<?x784xf32>");

  TensorRef w = t.b.readShared(t.at(5, 17), "W");
  REQUIRE(w);
  CHECK(w.shape == S({D(784), D(10)}));
  // A second read in the same function reuses the first.
  CHECK(t.b.readShared(t.at(6, 3), "W").value == w.value);
  TensorRef bias = t.b.readShared(t.at(5, 22), "b");
  TensorRef logits = t.b.binary(t.at(5, 20), BinaryKind::Add,
                                t.b.matmul(t.at(5, 7), x, w), bias);
  REQUIRE(logits);
  CHECK(logits.shape == S({Sym("N"), D(10)}));

  TensorRef step = t.b.binary(t.at(8, 11), BinaryKind::Mul, lr, w);
  TensorRef newW = t.b.binary(t.at(8, 9), BinaryKind::Sub, w, step);
  REQUIRE(newW);
  REQUIRE(succeeded(
      t.b.endFunction(t.at(9, 1), {logits}, {{"W", newW}}, {t.at(8, 5)})));
  CHECK_FALSE(t.b.hadError());

  OwningOpRef<ModuleOp> module = t.b.finish();
  REQUIRE(module);
  CHECK(t.diagnostics.empty());
  CHECK(succeeded(verify(*module)));

  // Two shared variables, then the function.
  auto ops = llvm::to_vector(llvm::map_range(
      module->getBody()->getOperations(), [](Operation &op) { return &op; }));
  REQUIRE(ops.size() == 3);
  auto sharedW = dyn_cast<tc::SharedOp>(ops[0]);
  REQUIRE(sharedW);
  CHECK(sharedW.getSymName() == "W");
  CHECK(sharedW.getInit() == tc::InitKind::Normal);
  CHECK(sharedW.getParamsAttr() == params);
  CHECK(typeText(sharedW.getType()) == "tensor<784x10xf32>");
  auto sharedB = dyn_cast<tc::SharedOp>(ops[1]);
  REQUIRE(sharedB);
  CHECK(sharedB.getInit() == tc::InitKind::Zeros);
  CHECK_FALSE(sharedB.getParamsAttr());

  auto func = dyn_cast<func::FuncOp>(ops[2]);
  REQUIRE(func);
  CHECK(func.getSymName() == "train");
  CHECK(typeText(func.getFunctionType()) ==
        "(tensor<?x784xf32>, tensor<f32>) -> tensor<?x10xf32>");
  CHECK(func.getArgAttr(0, tc::TcDialect::kBorrowAttr));
  CHECK_FALSE(func.getArgAttr(1, tc::TcDialect::kBorrowAttr));
  CHECK(func.getArgAttr(0, tc::TcDialect::kNameAttr) ==
        attrs.getStringAttr("x"));
  CHECK(func.getArgAttr(0, tc::TcDialect::kDimsAttr) ==
        attrs.getArrayAttr(
            {attrs.getStringAttr("N"), attrs.getI64IntegerAttr(784)}));
  // A shape without symbols gets no tc.dims.
  CHECK_FALSE(func.getArgAttr(1, tc::TcDialect::kDimsAttr));
  CHECK(func.getResultAttr(0, tc::TcDialect::kReturnInternalTypeAttr));
  CHECK_FALSE(func.getResultAttr(0, tc::TcDialect::kBorrowAttr));

  // tc.update [@W] just before the return, which returns the logits.
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  REQUIRE(ret);
  CHECK(ret.getOperand(0) == logits.value);
  auto update = dyn_cast_or_null<tc::UpdateOp>(ret->getPrevNode());
  REQUIRE(update);
  CHECK(update.getVariables() ==
        attrs.getArrayAttr({FlatSymbolRefAttr::get(&t.context, "W")}));
  CHECK(update.getValues()[0] == newW.value);
  // The update and the return are located at the end of the function; each
  // op at the location it was given.
  CHECK(update.getLoc() == t.at(9, 1));
  CHECK(logits.value.getLoc() == t.at(5, 20));
  CHECK(w.value.getLoc() == t.at(5, 17));
}

TEST_CASE("Output types are checked against the declarations",
          "[GraphBuilder]") {
  Fixture t;
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 1), "W", t.f32(), {784, 10},
                                      tc::InitKind::Zeros)));

  SECTION("shape mismatch, at the output's declaration") {
    auto args =
        t.begin({t.spec("x", t.f32(), S({Sym("N"), D(784)}), t.at(3, 8))},
                {t.spec("y", t.f32(), S({Sym("N"), D(10)}), t.at(3, 30))});
    CHECK(failed(t.b.endFunction(t.at(5, 1), {args[0]}, {})));
    t.requireOneError(
        "output 'y' is declared f32[N, 10] but its value is f32[N, 784]", 3,
        30);
    CHECK_FALSE(t.b.finish());
  }
  SECTION("dtype mismatch") {
    auto args = t.begin({t.spec("x", t.i32(), S({D(3)}), t.at(3, 8))},
                        {t.spec("y", t.i64(), S({D(3)}), t.at(3, 30))});
    CHECK(failed(t.b.endFunction(t.at(5, 1), {args[0]}, {})));
    t.requireOneError("output 'y' is declared i64[3] but its value is i32[3]",
                      3, 30);
  }
  SECTION("another symbol of the inputs") {
    auto args = t.begin({t.spec("x", t.f32(), S({Sym("N")}), t.at(3, 8)),
                         t.spec("z", t.f32(), S({Sym("M")}), t.at(3, 20))},
                        {t.spec("y", t.f32(), S({Sym("M")}), t.at(3, 30))});
    CHECK(failed(t.b.endFunction(t.at(5, 1), {args[0]}, {})));
    t.requireOneError("output 'y' is declared f32[M] but its value is f32[N]",
                      3, 30);
  }
  SECTION("a name no input binds is the size the value computes") {
    auto args =
        t.begin({t.spec("x", t.f32(), S({Sym("N"), D(5)}), t.at(3, 8))},
                {t.spec("y", t.f32(), S({Sym("R"), D(3)}), t.at(3, 30))});
    TensorRef r = t.b.reshape(t.at(4, 7), args[0], S({D(-1), D(3)}));
    REQUIRE(r.shape == S({Sym("(5*N/3)"), D(3)}));
    CHECK(succeeded(t.b.endFunction(t.at(5, 1), {r}, {})));
    CHECK(t.diagnostics.empty());
    OwningOpRef<ModuleOp> module = t.b.finish();
    REQUIRE(module);
    auto func = *module->getOps<func::FuncOp>().begin();
    Builder attrs(module->getContext());
    CHECK(func.getResultAttr(0, tc::TcDialect::kDimsAttr) ==
          attrs.getArrayAttr(
              {attrs.getStringAttr("(5*N/3)"), attrs.getI64IntegerAttr(3)}));
  }
  SECTION("a name no input binds, for a size unknown before the call") {
    // -1 of no elements: any size fits, so none is known.
    auto args =
        t.begin({t.spec("x", t.f32(), S({Sym("N"), D(0)}), t.at(3, 8))},
                {t.spec("y", t.f32(), S({Sym("K"), D(3)}), t.at(3, 30))});
    TensorRef r = t.b.reshape(t.at(4, 7), args[0], S({D(-1), D(3)}));
    REQUIRE(r.shape == S({Any(), D(3)}));
    CHECK(failed(t.b.endFunction(t.at(5, 1), {r}, {})));
    t.requireOneError(
        "output 'y' declares dimension 0 as K, which no input binds, and its "
        "size is not known before the call; declare it with the inputs' "
        "dimensions (such as N, B*T or 2*N)",
        3, 30);
  }
  SECTION("a static size for a symbol") {
    auto args = t.begin({t.spec("x", t.f32(), S({D(3)}), t.at(3, 8))},
                        {t.spec("y", t.f32(), S({Sym("N")}), t.at(3, 30))});
    CHECK(failed(t.b.endFunction(t.at(5, 1), {args[0]}, {})));
    t.requireOneError("output 'y' is declared f32[N] but its value is f32[3]",
                      3, 30);
  }
  SECTION("an unnamed dynamic size satisfies a symbol") {
    auto args =
        t.begin({t.spec("x", t.f32(), S({Sym("N"), D(2)}), t.at(3, 8))},
                {t.spec("y", t.f32(), S({Sym("K"), D(2)}), t.at(3, 30))});
    TensorRef both = t.b.concat(t.at(4, 7), {args[0], args[0]}, 0);
    REQUIRE(both.shape == S({Sym("2*N"), D(2)}));
    CHECK(succeeded(t.b.endFunction(t.at(5, 1), {both}, {})));
    CHECK(t.diagnostics.empty());
    CHECK(t.b.finish());
  }
  SECTION("the number of outputs") {
    auto args = t.begin({t.spec("x", t.f32(), S({D(3)}), t.at(3, 8))},
                        {t.spec("y", t.f32(), S({D(3)}), t.at(3, 30))});
    CHECK(failed(t.b.endFunction(t.at(5, 1), {args[0], args[0]}, {})));
    t.requireOneError("function 'f' declares 1 outputs but returns 2", 5, 1);
    CHECK_FALSE(t.b.finish());
  }
}

TEST_CASE("Update errors", "[GraphBuilder]") {
  Fixture t;
  REQUIRE(succeeded(
      t.b.declareShared(t.at(2, 1), "W", t.f32(), {2}, tc::InitKind::Zeros)));
  auto args = t.begin({t.spec("x", t.f32(), S({D(2)}), t.at(3, 8)),
                       t.spec("v", t.f32(), S({D(3)}), t.at(3, 20))},
                      {});
  TensorRef x = args[0], v = args[1];

  SECTION("an unknown variable, at the update's location") {
    CHECK(failed(t.b.endFunction(t.at(9, 1), {}, {{"nope", x}}, {t.at(7, 5)})));
    t.requireOneError("'nope' is not a shared variable and cannot be updated",
                      7, 5);
    CHECK_FALSE(t.b.finish());
  }
  SECTION("without update locations, at the function's end") {
    CHECK(failed(t.b.endFunction(t.at(9, 1), {}, {{"nope", x}})));
    t.requireOneError("'nope' is not a shared variable and cannot be updated",
                      9, 1);
  }
  SECTION("a variable updated twice") {
    CHECK(failed(t.b.endFunction(t.at(9, 1), {}, {{"W", x}, {"W", x}},
                                 {t.at(7, 5), t.at(8, 5)})));
    t.requireOneError("shared variable 'W' is updated more than once", 8, 5);
  }
  SECTION("a value of another shape") {
    CHECK(failed(t.b.endFunction(t.at(9, 1), {}, {{"W", v}}, {t.at(7, 5)})));
    t.requireOneError("update of 'W' has type f32[3] but the variable is "
                      "f32[2]",
                      7, 5);
  }
  SECTION("reading a shared variable that does not exist") {
    CHECK_FALSE(t.b.readShared(t.at(4, 7), "nope"));
    t.requireOneError("'nope' is not a shared variable", 4, 7);
  }
}

TEST_CASE("Duplicate names", "[GraphBuilder]") {
  Fixture t;
  REQUIRE(succeeded(
      t.b.declareShared(t.at(2, 1), "W", t.f32(), {2}, tc::InitKind::Zeros)));

  SECTION("two shared variables") {
    CHECK(failed(
        t.b.declareShared(t.at(3, 1), "W", t.f64(), {3}, tc::InitKind::Ones)));
    t.requireOneError("redefinition of 'W'", 3, 1);
  }
  SECTION("a function named like a shared variable") {
    CHECK(failed(t.b.beginFunction(t.at(4, 6), "W", {}, {})));
    t.requireOneError("redefinition of 'W'", 4, 6);
  }
  SECTION("two functions, and a shared variable named like a function") {
    t.begin({}, {});
    REQUIRE(succeeded(t.b.endFunction(t.at(3, 1), {}, {})));
    CHECK(failed(t.b.beginFunction(t.at(4, 6), "f", {}, {})));
    t.requireOneError("redefinition of 'f'", 4, 6);
    CHECK(failed(
        t.b.declareShared(t.at(5, 1), "f", t.f32(), {1}, tc::InitKind::Zeros)));
    t.requireOneError("redefinition of 'f'", 5, 1);
  }
  SECTION("an input and an output with one name") {
    CHECK(failed(t.b.beginFunction(
        t.at(4, 6), "g", {t.spec("x", t.f32(), S({D(2)}), t.at(4, 8))},
        {t.spec("x", t.f32(), S({D(2)}), t.at(4, 30))})));
    t.requireOneError("'x' names more than one input or output of 'g'", 4, 30);
  }
  SECTION("two inputs with one name") {
    CHECK(
        failed(t.b.beginFunction(t.at(4, 6), "g",
                                 {t.spec("x", t.f32(), S({D(2)}), t.at(4, 8)),
                                  t.spec("x", t.f32(), S({D(2)}), t.at(4, 20))},
                                 {})));
    t.requireOneError("'x' names more than one input or output of 'g'", 4, 20);
  }
  SECTION("an input named like a shared variable") {
    CHECK(failed(t.b.beginFunction(
        t.at(4, 6), "g", {t.spec("W", t.f32(), S({D(2)}), t.at(4, 8))}, {})));
    t.requireOneError("'W' is already a shared variable", 4, 8);
  }
  CHECK_FALSE(t.b.finish());
}

TEST_CASE("Misuse of the API is reported", "[GraphBuilder]") {
  Fixture t;
  SECTION("a function inside a function") {
    t.begin({}, {});
    CHECK(failed(t.b.beginFunction(t.at(3, 6), "g", {}, {})));
    t.requireOneError("function 'g' begins inside another function", 3, 6);
  }
  SECTION("ending no function") {
    CHECK(failed(t.b.endFunction(t.at(3, 1), {}, {})));
    t.requireOneError("no function to end", 3, 1);
  }
  SECTION("a shared variable without a static shape") {
    CHECK(failed(t.b.declareShared(t.at(3, 1), "v", t.f32(),
                                   {2, ShapedType::kDynamic},
                                   tc::InitKind::Zeros)));
    t.requireOneError("shared variable 'v' needs a static, non-negative shape",
                      3, 1);
  }
  SECTION("an unnamed dynamic dimension in a signature") {
    CHECK(failed(t.b.beginFunction(
        t.at(3, 6), "g", {t.spec("x", t.f32(), S({Any()}), t.at(3, 8))}, {})));
    t.requireOneError("dynamic dimensions of 'x' need a name (such as N)", 3,
                      8);
  }
  SECTION("concatenating nothing") {
    t.begin({}, {});
    CHECK_FALSE(t.b.concat(t.at(3, 7), {}, 0));
    t.requireOneError("concatenate needs at least one input", 3, 7);
  }
  CHECK(t.b.hadError());
  CHECK_FALSE(t.b.finish());
}

TEST_CASE("dtype rules", "[GraphBuilder]") {
  Fixture t;
  auto args = t.begin({t.spec("x", t.f32(), S({D(3)}), t.at(2, 8)),
                       t.spec("i", t.i32(), S({D(3)}), t.at(2, 20)),
                       t.spec("c", t.i1(), S({D(3)}), t.at(2, 30))},
                      {});
  TensorRef x = args[0], i = args[1], c = args[2];

  // Comparisons give bool, argmax i64, cast the requested dtype.
  CHECK(t.b.compare(t.at(3, 7), tc::ComparePredicate::ge, x, x)
            .elementType()
            .isInteger(1));
  CHECK(t.b.argmax(t.at(4, 7), i, 0, false).elementType().isInteger(64));
  TensorRef cast = t.b.cast(t.at(5, 7), c, t.f32());
  CHECK(cast.elementType().isF32());
  CHECK(cast.shape == S({D(3)}));
  // neg, abs and relu take integers; select takes bool branches.
  CHECK(t.b.unary(t.at(6, 7), UnaryKind::Abs, i));
  CHECK(t.b.select(t.at(7, 7), c, c, c));
  CHECK(t.diagnostics.empty());

  CHECK_FALSE(t.b.binary(t.at(8, 9), BinaryKind::Add, x, i));
  t.requireOneError("arithmetic needs operands of one dtype, got f32[3] and "
                    "i32[3] (convert one with cast(x, dtype=...))",
                    8, 9);
  CHECK_FALSE(t.b.binary(t.at(9, 9), BinaryKind::Maximum, c, c));
  t.requireOneError("arithmetic is not defined on bool tensors; cast them "
                    "first",
                    9, 9);
  CHECK_FALSE(t.b.unary(t.at(10, 7), UnaryKind::Sqrt, i));
  t.requireOneError("this operation needs a floating-point tensor, got i32[3]",
                    10, 7);
  CHECK_FALSE(t.b.unary(t.at(11, 7), UnaryKind::Relu, c));
  t.requireOneError("this operation needs a numeric tensor, got bool[3]", 11,
                    7);
  CHECK_FALSE(t.b.reduce(t.at(12, 7), ReduceKind::Mean, i, {}, false));
  t.requireOneError("this reduction needs a floating-point tensor, got i32[3]",
                    12, 7);
  CHECK_FALSE(t.b.select(t.at(13, 7), x, x, x));
  t.requireOneError("the condition of select must be bool, got f32[3]", 13, 7);
  CHECK_FALSE(t.b.softmax(t.at(14, 7), i, 0));
  t.requireOneError("softmax needs a floating-point tensor, got i32[3]", 14, 7);
  CHECK_FALSE(t.b.concat(t.at(15, 7), {x, i}, 0));
  t.requireOneError("concatenate needs operands of one dtype, got f32[3] and "
                    "i32[3] (convert one with cast(x, dtype=...))",
                    15, 7);
}

TEST_CASE("Math, logic, clip and moments", "[GraphBuilder]") {
  Fixture t;
  auto args = t.begin({t.spec("x", t.f32(), S({Sym("N"), D(3)}), t.at(2, 8)),
                       t.spec("i", t.i32(), S({D(3)}), t.at(2, 20)),
                       t.spec("c", t.i1(), S({D(3)}), t.at(2, 30))},
                      {});
  TensorRef x = args[0], i = args[1], c = args[2];

  // sign takes integers; the others keep the shape; logic broadcasts.
  CHECK(t.b.unary(t.at(3, 7), UnaryKind::Sign, i).shape == S({D(3)}));
  CHECK(t.b.unary(t.at(3, 7), UnaryKind::Erf, x).shape == x.shape);
  TensorRef gt = t.b.compare(t.at(4, 7), tc::ComparePredicate::gt, x, x);
  TensorRef both =
      t.b.logical(t.at(4, 7), LogicalKind::And, gt, c, "'&'", "hint");
  CHECK(both.shape == x.shape);
  CHECK(both.elementType().isInteger(1));
  CHECK(t.b.logicalNot(t.at(4, 7), c, "'~'", "hint").shape == S({D(3)}));
  CHECK(t.b.clip(t.at(5, 7), x, x, x).shape == x.shape);
  TensorRef v = t.b.reduce(t.at(6, 7), ReduceKind::Var, x, {1}, true, 1);
  CHECK(v.shape == S({Sym("N"), D(1)}));
  CHECK(t.b.reduce(t.at(6, 7), ReduceKind::LogSumExp, x, {0}, false).shape ==
        S({D(3)}));
  CHECK(t.diagnostics.empty());

  CHECK_FALSE(t.b.unary(t.at(7, 7), UnaryKind::Round, i));
  t.requireOneError("this operation needs a floating-point tensor, got i32[3]",
                    7, 7);
  CHECK_FALSE(t.b.logical(t.at(8, 9), LogicalKind::Or, c, i, "logical_or",
                          "compare first"));
  t.requireOneError("logical_or needs bool operands, got i32[3]; compare first",
                    8, 9);
  CHECK_FALSE(t.b.logicalNot(t.at(9, 7), x, "'~'", "write x == 0"));
  t.requireOneError("'~' needs a bool operand, got f32[N, 3]; write x == 0", 9,
                    7);
  CHECK_FALSE(t.b.clip(t.at(10, 7), c, c, c));
  t.requireOneError("clip needs a numeric tensor, got bool[3]", 10, 7);
  CHECK_FALSE(t.b.clip(t.at(11, 7), x, i, x));
  t.requireOneError("clip needs operands of one dtype, got f32[N, 3] and "
                    "i32[3] (convert one with cast(x, dtype=...))",
                    11, 7);
  CHECK_FALSE(t.b.reduce(t.at(12, 7), ReduceKind::Std, x, {1}, false, -1));
  t.requireOneError("ddof must not be negative, got -1", 12, 7);
  CHECK_FALSE(t.b.reduce(t.at(13, 7), ReduceKind::Var, i, {}, false));
  t.requireOneError("this reduction needs a floating-point tensor, got i32[3]",
                    13, 7);
}

TEST_CASE("Constants of each dtype", "[GraphBuilder]") {
  Fixture t;
  t.begin({}, {});
  auto value = [&](Type type, double v) {
    TensorRef c = t.b.constant(t.at(3, 7), v, type);
    REQUIRE(c);
    CHECK(c.shape == S({}));
    CHECK(c.type() == RankedTensorType::get({}, type));
    auto attr = cast<DenseElementsAttr>(defOp<tc::ConstantOp>(c).getValue());
    REQUIRE(attr.isSplat());
    return attr;
  };
  CHECK(value(t.f32(), 0.5).getSplatValue<APFloat>().convertToFloat() == 0.5f);
  CHECK(value(t.f64(), -2.25).getSplatValue<APFloat>().convertToDouble() ==
        -2.25);
  CHECK(value(t.i32(), 7).getSplatValue<APInt>().getSExtValue() == 7);
  CHECK(value(t.i64(), -5).getSplatValue<APInt>().getSExtValue() == -5);
  CHECK(value(t.i1(), 1).getSplatValue<bool>());
  CHECK_FALSE(value(t.i1(), 0).getSplatValue<bool>());
  CHECK(t.diagnostics.empty());
}

TEST_CASE("Constants of scalar attributes keep their value exactly",
          "[GraphBuilder]") {
  Fixture t;
  t.begin({}, {});
  Builder attrs(&t.context);
  // 2**53 + 1 has no f64: a double-valued constant would lose the 1.
  TensorRef c = t.b.constant(
      t.at(3, 7), attrs.getIntegerAttr(t.i64(), APInt(64, 9007199254740993)));
  REQUIRE(c);
  auto attr = cast<DenseElementsAttr>(defOp<tc::ConstantOp>(c).getValue());
  CHECK(attr.getSplatValue<APInt>().getSExtValue() == 9007199254740993);
  CHECK(typeText(c.type()) == "tensor<i64>");
  TensorRef b = t.b.constant(t.at(4, 7), attrs.getBoolAttr(true));
  REQUIRE(b);
  CHECK(typeText(b.type()) == "tensor<i1>");
  CHECK(t.diagnostics.empty());
}

TEST_CASE("sharedType reads nothing", "[GraphBuilder]") {
  Fixture t;
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 1), "W", t.f32(), {3, 2},
                                      tc::InitKind::Zeros)));
  CHECK_FALSE(t.b.sharedType("V"));
  t.begin({}, {});
  RankedTensorType type = t.b.sharedType("W");
  REQUIRE(type);
  CHECK(typeText(type) == "tensor<3x2xf32>");
  REQUIRE(succeeded(t.b.endFunction(t.at(4, 1), {}, {})));
  OwningOpRef<ModuleOp> module = t.b.finish();
  REQUIRE(module);
  unsigned reads = 0;
  module->walk([&](tc::SharedReadOp) { ++reads; });
  CHECK(reads == 0);
}

TEST_CASE("Block arguments are located at their inputs", "[GraphBuilder]") {
  Fixture t;
  auto args = t.begin({t.spec("x", t.f32(), S({D(2)}), t.at(2, 8)),
                       t.spec("y", t.f32(), S({D(2)}), t.at(2, 20))},
                      {});
  CHECK(args[0].value.getLoc() == t.at(2, 8));
  CHECK(args[1].value.getLoc() == t.at(2, 20));
}

TEST_CASE("An input that no output or update depends on is a warning, or "
          "an error under warningsAsErrors",
          "[GraphBuilder]") {
  // f(x, y, w, s, o) -> (z, o2): z = x + 1, a dead `w * 2`, state += s, and
  // o returned as it is. y and w are unused; s (an update) and o are used.
  auto build = [](Fixture &t) {
    REQUIRE(succeeded(t.b.declareShared(t.at(1, 1), "state", t.f32(), {2},
                                        tc::InitKind::Zeros)));
    auto args = t.begin({t.spec("x", t.f32(), S({Sym("N")}), t.at(2, 8)),
                         t.spec("y", t.f32(), S({Sym("N")}), t.at(2, 20)),
                         t.spec("w", t.f32(), S({D(2)}), t.at(2, 32)),
                         t.spec("s", t.f32(), S({D(2)}), t.at(2, 44)),
                         t.spec("o", t.f32(), S({D(2)}), t.at(2, 56))},
                        {t.spec("z", t.f32(), S({Sym("N")}), t.at(2, 70)),
                         t.spec("o2", t.f32(), S({D(2)}), t.at(2, 80))});
    TensorRef one = t.b.constant(t.at(3, 11), 1.0, t.f32());
    TensorRef z = t.b.binary(t.at(3, 9), BinaryKind::Add, args[0], one);
    TensorRef two = t.b.constant(t.at(4, 11), 2.0, t.f32());
    REQUIRE(t.b.binary(t.at(4, 9), BinaryKind::Mul, args[2], two));
    TensorRef state = t.b.readShared(t.at(5, 13), "state");
    TensorRef next = t.b.binary(t.at(5, 19), BinaryKind::Add, state, args[3]);
    return t.b.endFunction(t.at(6, 1), {z, args[4]}, {{"state", next}},
                           {t.at(5, 5)});
  };
  auto check = [](Fixture &t, DiagnosticSeverity severity) {
    REQUIRE(t.diagnostics.size() == 2);
    const char *names[] = {"y", "w"};
    unsigned columns[] = {20, 32};
    for (size_t i = 0; i < 2; ++i) {
      const CapturedDiagnostic &d = t.diagnostics[i];
      CHECK(d.severity == severity);
      CHECK(d.message == std::string("input '") + names[i] +
                             "' of 'f' is unused: no output or update "
                             "depends on it");
      CHECK(d.loc == t.at(2, columns[i]));
    }
  };
  SECTION("a warning: the module is built") {
    Fixture t;
    REQUIRE(succeeded(build(t)));
    check(t, DiagnosticSeverity::Warning);
    CHECK_FALSE(t.b.hadError());
    CHECK(t.b.finish());
  }
  SECTION("an error: the function fails, and the module") {
    GraphBuilderOptions options;
    options.warningsAsErrors = true;
    Fixture t(options);
    CHECK(failed(build(t)));
    check(t, DiagnosticSeverity::Error);
    CHECK_FALSE(t.b.finish());
  }
  SECTION("nothing more after an error") {
    Fixture t;
    auto args = t.begin({t.spec("x", t.f32(), S({D(2)}), t.at(2, 8))}, {});
    CHECK_FALSE(t.b.softmax(t.at(3, 7), args[0], 1));
    REQUIRE(succeeded(t.b.endFunction(t.at(4, 1), {}, {})));
    t.requireOneError("axis 1 is out of range for a tensor of rank 1", 3, 7);
  }
}

TEST_CASE("finish() hands over a verified module, or null after an error",
          "[GraphBuilder]") {
  SECTION("an empty module") {
    Fixture t;
    OwningOpRef<ModuleOp> module = t.b.finish();
    REQUIRE(module);
    CHECK(module->getBody()->empty());
    CHECK(module->getLoc() == t.at(1, 1));
  }
  SECTION("a complete module verifies") {
    Fixture t;
    auto args = t.begin({t.spec("x", t.f32(), S({Sym("N")}), t.at(2, 8))},
                        {t.spec("y", t.f32(), S({Sym("N")}), t.at(2, 20))});
    TensorRef y = t.b.unary(t.at(3, 7), UnaryKind::Tanh, args[0]);
    REQUIRE(succeeded(t.b.endFunction(t.at(4, 1), {y}, {})));
    OwningOpRef<ModuleOp> module = t.b.finish();
    REQUIRE(module);
    CHECK(succeeded(verify(*module)));
    CHECK(t.diagnostics.empty());
  }
  SECTION("an error that the caller ignored still voids the module") {
    Fixture t;
    auto args = t.begin({t.spec("x", t.f32(), S({D(2)}), t.at(2, 8))},
                        {t.spec("y", t.f32(), S({D(2)}), t.at(2, 20))});
    // A failed op; the function is then completed without it.
    CHECK_FALSE(t.b.softmax(t.at(3, 7), args[0], 1));
    REQUIRE(succeeded(t.b.endFunction(t.at(4, 1), {args[0]}, {})));
    CHECK(t.b.hadError());
    CHECK_FALSE(t.b.finish());
    t.requireOneError("axis 1 is out of range for a tensor of rank 1", 3, 7);
  }
}

TEST_CASE("dtype names", "[GraphBuilder]") {
  MLIRContext context;
  Builder b(&context);
  for (const char *name : {"f16", "bf16", "f32", "f64", "i32", "i64", "bool"}) {
    Type type = parseElementType(&context, name);
    REQUIRE(type);
    CHECK(elementTypeName(type) == name);
  }
  CHECK(parseElementType(&context, "i1") == b.getI1Type());
  CHECK(parseElementType(&context, "bf16") == b.getBF16Type());
  CHECK_FALSE(parseElementType(&context, "f128"));
  CHECK_FALSE(parseElementType(&context, "int"));
  CHECK_FALSE(parseElementType(&context, ""));
  // Types without a graph-file name print as MLIR does.
  CHECK(elementTypeName(b.getI8Type()) == "i8");
}
