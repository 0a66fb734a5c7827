//===- GraphBuilderShardedTest.cpp - sharded shared variables (ZeRO-1) ----===//
//
// GraphBuilder::shardShared from C++: under dataParallel with 2 ranks a
// sharded variable is stored as its block of rows, a read is the gathered
// whole, its update keeps the block, and a replicated variable's update
// that reads it is computed on blocks and gathered.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilderFixture.h"

#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::test;

/// The tc.update of the module's one function.
static tc::UpdateOp updateOf(ModuleOp module) {
  func::FuncOp f = *module.getOps<func::FuncOp>().begin();
  return *f.getBody().front().getOps<tc::UpdateOp>().begin();
}

TEST_CASE("A sharded variable is split over the ranks", "[GraphBuilder]") {
  GraphBuilderOptions options;
  options.dataParallel = true;
  options.ranks = 2;
  Fixture t(options);
  REQUIRE(succeeded(
      t.b.declareShared(t.at(1, 1), "W", t.f32(), {4, 3}, tc::InitKind::Ones)));
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 1), "m", t.f32(), {4, 3},
                                      tc::InitKind::Zeros)));
  REQUIRE(succeeded(t.b.shardShared(t.at(2, 30), "m")));
  CHECK(typeText(t.b.sharedType("m")) == "tensor<2x3xf32>");
  CHECK(typeText(t.b.sharedType("W")) == "tensor<4x3xf32>");

  auto args = t.begin({t.spec("g", t.f32(), S({D(4), D(3)}), t.at(3, 8))},
                      {t.spec("y", t.f32(), S({D(4), D(3)}), t.at(3, 30))});
  TensorRef g = args[0];
  // The read is the whole value, gathered from the blocks.
  TensorRef m = t.b.readShared(t.at(4, 7), "m");
  auto gather = defOp<tc::AllGatherOp>(m);
  CHECK(typeText(m.type()) == "tensor<4x3xf32>");
  CHECK(gather.getInput().getDefiningOp<tc::SharedReadOp>());
  TensorRef mNext = t.b.binary(t.at(5, 7), BinaryKind::Add, m, g);
  TensorRef w = t.b.readShared(t.at(6, 7), "W");
  TensorRef wNext = t.b.binary(t.at(6, 9), BinaryKind::Sub, w, mNext);
  REQUIRE(succeeded(t.b.endFunction(t.at(7, 1), {mNext},
                                    {{"m", mNext}, {"W", wNext}},
                                    {t.at(5, 3), t.at(6, 3)})));
  OwningOpRef<ModuleOp> module = t.b.finish();
  REQUIRE(module);
  CHECK(t.diagnostics.empty());
  CHECK(succeeded(verify(*module)));

  tc::UpdateOp update = updateOf(*module);
  // m keeps its block: the block of m + g is the read block plus the rank's
  // rows of g (an input: sliced at process_rank() * 2).
  auto mBlock = update.getValues()[0].getDefiningOp<tc::AddOp>();
  REQUIRE(mBlock);
  CHECK(typeText(mBlock.getType()) == "tensor<2x3xf32>");
  CHECK(mBlock.getLhs().getDefiningOp<tc::SharedReadOp>());
  CHECK(mBlock.getRhs().getDefiningOp<tc::DynamicSliceOp>());
  // W's update reads m, W and g: g is an input, which may differ between
  // ranks, so W is computed whole, as without sharding.
  CHECK(update.getValues()[1] == wNext.value);
}

TEST_CASE("A replicated variable's update from sharded state is gathered",
          "[GraphBuilder]") {
  GraphBuilderOptions options;
  options.dataParallel = true;
  options.ranks = 2;
  Fixture t(options);
  REQUIRE(succeeded(
      t.b.declareShared(t.at(1, 1), "W", t.f32(), {4, 3}, tc::InitKind::Ones)));
  Builder attrs(&t.context);
  auto half = attrs.getDictionaryAttr(
      {attrs.getNamedAttr("value", attrs.getF64FloatAttr(0.5))});
  REQUIRE(succeeded(t.b.declareShared(t.at(2, 1), "m", t.f32(), {4, 3},
                                      tc::InitKind::Fill, half)));
  REQUIRE(succeeded(t.b.shardShared(t.at(2, 30), "m")));
  auto args = t.begin({t.spec("lr", t.f32(), S({}), t.at(3, 8))},
                      {t.spec("y", t.f32(), S({}), t.at(3, 30))});
  TensorRef lr = args[0];
  TensorRef m = t.b.readShared(t.at(4, 7), "m");
  TensorRef w = t.b.readShared(t.at(5, 7), "W");
  TensorRef step = t.b.binary(t.at(5, 9), BinaryKind::Mul, lr, m);
  TensorRef wNext = t.b.binary(t.at(5, 11), BinaryKind::Sub, w, step);
  REQUIRE(succeeded(
      t.b.endFunction(t.at(6, 1), {lr}, {{"W", wNext}}, {t.at(5, 3)})));
  OwningOpRef<ModuleOp> module = t.b.finish();
  REQUIRE(module);
  CHECK(t.diagnostics.empty());
  CHECK(succeeded(verify(*module)));
  tc::UpdateOp update = updateOf(*module);
  // all_gather(W's rows - lr * m's block).
  auto gathered = update.getValues()[0].getDefiningOp<tc::AllGatherOp>();
  REQUIRE(gathered);
  CHECK(gathered.getRanks() == 2);
  auto sub = gathered.getInput().getDefiningOp<tc::SubOp>();
  REQUIRE(sub);
  CHECK(typeText(sub.getType()) == "tensor<2x3xf32>");
  CHECK(sub.getLhs().getDefiningOp<tc::DynamicSliceOp>());
  auto mul = sub.getRhs().getDefiningOp<tc::MulOp>();
  REQUIRE(mul);
  CHECK(mul.getLhs() == lr.value);
  CHECK(mul.getRhs().getDefiningOp<tc::SharedReadOp>());
}

TEST_CASE("Without data parallelism a sharded variable is whole",
          "[GraphBuilder]") {
  Fixture t;
  REQUIRE(succeeded(t.b.declareShared(t.at(1, 1), "m", t.f32(), {4, 3},
                                      tc::InitKind::Zeros)));
  REQUIRE(succeeded(t.b.shardShared(t.at(1, 30), "m")));
  CHECK(typeText(t.b.sharedType("m")) == "tensor<4x3xf32>");
  // Its rules hold all the same: not a scalar.
  REQUIRE(succeeded(
      t.b.declareShared(t.at(2, 1), "s", t.f32(), {}, tc::InitKind::Zeros)));
  CHECK(failed(t.b.shardShared(t.at(2, 30), "s")));
  CHECK(t.diagnostics.size() == 1);
}
