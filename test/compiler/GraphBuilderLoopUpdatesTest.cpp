//===- GraphBuilderLoopUpdatesTest.cpp - variables advanced in loops ------===//
//
// GraphBuilder::updateInLoop as a host calls it: a shared variable advanced
// in a while's body becomes a hidden carried state that starts from the
// variable's value at the call's start, the condition and the body read the
// state, and endWhile returns the variable's final value after the number
// of steps, for the function's update. The misuses are located errors.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilderFixture.h"

#include "compiler/frontend/GraphBuilder.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::test;
using tc::Dim;
using tc::Shape;

namespace {

/// A function `f(x0 : f32[3])` with `shared count : i64[]`, a while open
/// on the state x, its condition `count < 10` given: returns the body's
/// value of x.
TensorRef openWhile(Fixture &t) {
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 1), "count", t.i64(), {},
                                      tc::InitKind::Zeros)));
  auto args = t.begin({t.spec("x0", t.f32(), S({D(3)}), t.at(3, 8))},
                      {t.spec("x", t.f32(), S({D(3)}), t.at(3, 30)),
                       t.spec("n", t.i64(), S({}), t.at(3, 40))});
  FailureOr<SmallVector<TensorRef>> cond =
      t.b.beginWhile(t.at(4, 3), {args[0]}, D(10));
  REQUIRE(succeeded(cond));
  TensorRef count = t.b.readShared(t.at(4, 40), "count");
  TensorRef limit = t.b.constant(t.at(4, 48), 10.0, t.i64());
  TensorRef holds =
      t.b.compare(t.at(4, 46), tc::ComparePredicate::lt, count, limit);
  FailureOr<SmallVector<TensorRef>> body = t.b.whileBody(t.at(4, 40), holds);
  REQUIRE(succeeded(body));
  return (*body)[0];
}

} // namespace

TEST_CASE("A while's body advances a shared variable: a hidden state",
          "[GraphBuilder][loops]") {
  Fixture t;
  TensorRef x = openWhile(t);
  TensorRef count = t.b.readShared(t.at(5, 13), "count");
  TensorRef one = t.b.constant(t.at(5, 21), 1.0, t.i64());
  REQUIRE(succeeded(
      t.b.updateInLoop(t.at(5, 5), "count",
                       t.b.binary(t.at(5, 19), BinaryKind::Add, count, one))));
  TensorRef half = t.b.constant(t.at(6, 16), 0.5, t.f32());
  SmallVector<TensorRef> results = t.b.endWhile(
      t.at(4, 3), {t.b.binary(t.at(6, 14), BinaryKind::Mul, x, half)});
  REQUIRE(results.size() == 3);
  // The final state, the number of steps, the variable's final value.
  CHECK(results[0].shape == S({D(3)}));
  CHECK(typeText(results[1].type()) == "tensor<i64>");
  CHECK(typeText(results[2].type()) == "tensor<i64>");
  auto loop = results[0].value.getDefiningOp<tc::WhileOp>();
  REQUIRE(loop);
  CHECK(results[2].value.getDefiningOp() == loop.getOperation());
  // The variable's value at the call's start starts the hidden state.
  REQUIRE(loop.getInits().size() == 2);
  auto read = loop.getInits()[1].getDefiningOp<tc::SharedReadOp>();
  REQUIRE(read);
  CHECK(read.getVariable() == "count");
  // Neither region reads the variable any more: both read the state.
  loop->walk([&](tc::SharedReadOp inner) {
    FAIL("a read of '" << inner.getVariable().str() << "' inside the loop");
  });
  Block &cond = loop.getCond().front();
  REQUIRE(cond.getNumArguments() == 2);
  CHECK_FALSE(cond.getArgument(1).use_empty());
  CHECK_FALSE(loop.getBody().front().getArgument(1).use_empty());
  REQUIRE(succeeded(t.b.endFunction(t.at(8, 1), {results[0], results[1]},
                                    {{"count", results[2]}}, {t.at(5, 5)})));
  OwningOpRef<ModuleOp> module = t.b.finish();
  REQUIRE(module);
  CHECK(succeeded(verify(*module)));
  CHECK(t.diagnostics.empty());
}

TEST_CASE("Updates in a while's body: the misuses", "[GraphBuilder][loops]") {
  Fixture t;
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 1), "count", t.i64(), {},
                                      tc::InitKind::Zeros)));
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 30), "rate", t.f32(), {},
                                      tc::InitKind::Zeros)));
  auto args = t.begin({t.spec("x0", t.f32(), S({D(3)}), t.at(3, 8))},
                      {t.spec("x", t.f32(), S({D(3)}), t.at(3, 30))});
  FailureOr<SmallVector<TensorRef>> cond =
      t.b.beginWhile(t.at(4, 3), {args[0]}, D(10));
  REQUIRE(succeeded(cond));
  TensorRef one = t.b.constant(t.at(4, 50), 1.0, t.i64());
  // In the condition: no step has begun.
  CHECK(failed(t.b.updateInLoop(t.at(4, 40), "count", one)));
  t.requireOneError("shared variable 'count' can be updated inside a "
                    "loop's body only",
                    4, 40);
  TensorRef sum =
      t.b.reduce(t.at(4, 45), ReduceKind::Sum, (*cond)[0], {0}, false);
  TensorRef zero = t.b.constant(t.at(4, 52), 0.0, t.f32());
  REQUIRE(succeeded(t.b.whileBody(
      t.at(4, 45),
      t.b.compare(t.at(4, 50), tc::ComparePredicate::gt, sum, zero))));
  REQUIRE(succeeded(t.b.updateInLoop(t.at(5, 5), "count", one)));
  CHECK(failed(t.b.updateInLoop(t.at(6, 5), "count", one)));
  t.requireOneError("shared variable 'count' is updated more than once in "
                    "the while loop's body",
                    6, 5);
  // Of the variable's dtype and shape.
  CHECK(failed(t.b.updateInLoop(t.at(7, 5), "rate",
                                t.b.constant(t.at(7, 15), 1.0, t.i64()))));
  t.requireOneError("update of 'rate' has type i64[] but the variable is "
                    "f32[]",
                    7, 5);
  t.b.abandonScan();
}

TEST_CASE("A scan's body advances a shared variable: its final value last",
          "[GraphBuilder][loops]") {
  Fixture t;
  REQUIRE(succeeded(
      t.b.declareShared(t.at(2, 1), "rng", t.i64(), {2}, tc::InitKind::Zeros)));
  auto args = t.begin({t.spec("xs", t.f32(), S({Sym("T"), D(3)}), t.at(3, 8))},
                      {t.spec("acc", t.f32(), S({D(3)}), t.at(3, 30))});
  FailureOr<SmallVector<TensorRef>> body = t.b.beginScan(
      t.at(4, 3),
      {t.b.reduce(t.at(4, 12), ReduceKind::Sum, args[0], {0}, false)},
      {args[0]}, std::nullopt, false);
  REQUIRE(succeeded(body));
  t.b.nameLoopStates({"acc"});
  TensorRef acc = (*body)[0], x = (*body)[1];
  TensorRef rng = t.b.readShared(t.at(5, 17), "rng");
  TensorRef step = t.b.constant(t.at(5, 23), 1.0, t.i64());
  TensorRef next = t.b.binary(t.at(5, 21), BinaryKind::Add, rng,
                              t.b.broadcastTo(t.at(5, 23), step, S({D(2)})));
  REQUIRE(succeeded(t.b.updateInLoop(t.at(5, 5), "rng", next)));
  SmallVector<TensorRef> results = t.b.endScan(
      t.at(4, 3), {t.b.binary(t.at(6, 14), BinaryKind::Add, acc, x)}, {acc});
  // The final state, the stacked output, the variable's final value.
  REQUIRE(results.size() == 3);
  CHECK(results[0].shape == S({D(3)}));
  CHECK(results[1].shape == S({Sym("T"), D(3)}));
  CHECK(typeText(results[2].type()) == "tensor<2xi64>");
  auto scan = results[0].value.getDefiningOp<tc::ScanOp>();
  REQUIRE(scan);
  CHECK(results[2].value.getDefiningOp() == scan.getOperation());
  REQUIRE(scan.getInits().size() == 2);
  CHECK(scan.getInits()[1].getDefiningOp<tc::SharedReadOp>());
  scan->walk([&](tc::SharedReadOp inner) {
    FAIL("a read of '" << inner.getVariable().str() << "' inside the loop");
  });
  // What the backward pass would keep, by name, rows first.
  auto shapes = scan->getAttrOfType<ArrayAttr>(GraphBuilder::kSavedShapesAttr);
  REQUIRE(shapes);
  REQUIRE(shapes.size() == 2);
  auto first = cast<DictionaryAttr>(shapes[0]);
  CHECK(first.getAs<StringAttr>("name").getValue() == "acc");
  auto second = cast<DictionaryAttr>(shapes[1]);
  CHECK(second.getAs<StringAttr>("name").getValue() == "rng");
  auto rows = first.getAs<ArrayAttr>("shape");
  REQUIRE(rows.size() == 2);
  CHECK(cast<StringAttr>(rows[0]).getValue() == "T");
  CHECK(cast<IntegerAttr>(rows[1]).getInt() == 3);
  REQUIRE(succeeded(t.b.endFunction(t.at(8, 1), {results[0]},
                                    {{"rng", results[2]}}, {t.at(5, 5)})));
  OwningOpRef<ModuleOp> module = t.b.finish();
  REQUIRE(module);
  CHECK(succeeded(verify(*module)));
  CHECK(t.diagnostics.empty());
}
