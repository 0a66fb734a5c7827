//===- ShardedReferenceTest.cpp - padded ZeRO-1 blocks on the reference ---===//
//
// The meaning of a program with `sharded` variables whose rows do not
// divide by the job size, without MPI: the module compiled for 3 ranks
// (GraphBuilderSharded.cpp: rows padded to a multiple of 3) runs on the
// reference interpreter simulating the 3 ranks (test/reference/
// Collectives.h), each rank given its block of every sharded variable with
// its padding rows poisoned (NaN), and must give what the module without
// the mark gives in one process: the same outputs on every rank, the same
// replicated variables, and blocks whose rows gathered are the whole
// moments. A padding row that leaked into a read, a sum or an update would
// make it NaN.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Compiler.h"
#include "test/e2e/Harness.h"
#include "test/reference/Collectives.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace tcc;
using namespace tcc::e2e;
using reference::callRanks;
using reference::CallResult;

namespace {

/// Adam's moments sharded: W's 5 rows are 2 + 2 + 1 and a padding row over
/// 3 ranks; b's 2 rows leave rank 2 only padding. `total` reads the
/// gathered moments whole.
const char *kProgram = R"(tg 1
shared W : f64[5, 2] = zeros
shared b : f64[2] = zeros
shared mW : f64[5, 2] = zeros sharded
shared vW : f64[5, 2] = zeros sharded
shared mb : f64[2] = zeros sharded
shared vb : f64[2] = zeros sharded
func step(x : f64[4, 5], y : f64[4, 2]) -> (loss : f64[], total : f64[],
                                           seen : f64[5, 2]) {
  loss = mean(sum((matmul(x, W) + b - y) ** 2, axis=1))
  gW, gb = grad(loss, [W, b])
  m = 0.9 * mW + 0.1 * gW
  v = 0.999 * vW + 0.001 * gW * gW
  n = 0.9 * mb + 0.1 * gb
  u = 0.999 * vb + 0.001 * gb * gb
  total = sum(mW) + sum(vb)
  seen = vW
  updates {
    mW = m
    vW = v
    mb = n
    vb = u
    W = W - 0.1 * m / (sqrt(v) + 1e-8)
    b = b - 0.1 * n / (sqrt(u) + 1e-8)
  }
}
)";

/// The tc module of kProgram as `tcc compile` parses it, optionally for a
/// data-parallel job of `ranks`.
struct Parsed {
  explicit Parsed(int64_t ranks) : compiler(options(ranks)) {
    module = compiler.parseText(kProgram, "adam.tg");
    INFO(compiler.diagnostics());
    REQUIRE(module);
    interpreter = std::make_unique<reference::Interpreter>(*module);
  }
  static CompilerOptions options(int64_t ranks) {
    CompilerOptions o;
    o.diagnostics = DiagnosticMode::Capture;
    o.threading = false;
    o.graph.dataParallel = ranks > 0;
    o.graph.ranks = ranks;
    return o;
  }
  Compiler compiler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<reference::Interpreter> interpreter;
};

/// Rank `rank`'s block of `whole`'s rows over `ranks`: ceil(d/ranks) rows,
/// those past the end filled with `padding`.
RefTensor blockOf(const RefTensor &whole, int64_t rank, int64_t ranks,
                  double padding) {
  int64_t rows = whole.shape[0], b = (rows + ranks - 1) / ranks;
  int64_t row = whole.numel() / rows;
  std::vector<int64_t> shape = whole.shape;
  shape[0] = b;
  std::vector<double> data(size_t(b * row), padding);
  for (int64_t i = 0; i < b && rank * b + i < rows; ++i)
    std::copy_n(whole.data.begin() + (rank * b + i) * row, row,
                data.begin() + i * row);
  return RefTensor(whole.dtype, shape, data);
}

/// The first `rows` rows of the blocks, in rank order.
RefTensor wholeOf(const std::vector<RefTensor> &blocks, int64_t rows) {
  std::vector<int64_t> shape = blocks[0].shape;
  int64_t row = blocks[0].numel() / shape[0];
  std::vector<double> data;
  for (const RefTensor &block : blocks)
    data.insert(data.end(), block.data.begin(), block.data.end());
  data.resize(size_t(rows * row));
  shape[0] = rows;
  return RefTensor(blocks[0].dtype, shape, data);
}

} // namespace

TEST_CASE("padded sharded rows on the reference simulating 3 ranks",
          "[nompi]") {
  const int64_t ranks = 3;
  const double poison = std::numeric_limits<double>::quiet_NaN();
  Parsed plain(0), sharded(ranks);
  // The block types: ceil(5/3) = 2 and ceil(2/3) = 1 rows.
  std::map<std::string, std::vector<int64_t>> blockShapes;
  for (const reference::SharedDecl &d : sharded.interpreter->sharedVariables())
    blockShapes[d.name] = d.shape;
  CHECK(blockShapes["mW"] == std::vector<int64_t>{2, 2});
  CHECK(blockShapes["mb"] == std::vector<int64_t>{1});
  CHECK(blockShapes["W"] == std::vector<int64_t>{5, 2});

  Random random(7);
  std::map<std::string, RefTensor> whole = {
      {"W", random.uniform(DTypeKind::F64, {5, 2})},
      {"b", random.uniform(DTypeKind::F64, {2})},
      {"mW", random.uniform(DTypeKind::F64, {5, 2}, -0.1, 0.1)},
      {"vW", random.uniform(DTypeKind::F64, {5, 2}, 0.01, 0.1)},
      {"mb", random.uniform(DTypeKind::F64, {2}, -0.1, 0.1)},
      {"vb", random.uniform(DTypeKind::F64, {2}, 0.01, 0.1)}};
  const std::vector<std::string> moments = {"mW", "vW", "mb", "vb"};
  std::vector<std::map<std::string, RefTensor>> shared(ranks, whole);
  for (int64_t r = 0; r < ranks; ++r)
    for (const std::string &name : moments)
      shared[size_t(r)][name] = blockOf(whole.at(name), r, ranks, poison);

  for (int step = 0; step < 3; ++step) {
    INFO("step " << step);
    // Every rank gets the same batch: the averaged gradient is the batch's.
    std::vector<RefTensor> inputs = {random.uniform(DTypeKind::F64, {4, 5}),
                                     random.uniform(DTypeKind::F64, {4, 2})};
    CallResult expected = plain.interpreter->call("step", inputs, whole);
    std::vector<CallResult> got =
        callRanks(*sharded.interpreter, "step",
                  std::vector<std::vector<RefTensor>>(ranks, inputs), shared);
    for (int64_t r = 0; r < ranks; ++r) {
      INFO("rank " << r);
      const CallResult &mine = got[size_t(r)];
      checkClose(expected.outputs[0], mine.outputs[0], "loss");
      checkClose(expected.outputs[1], mine.outputs[1], "total");
      checkClose(expected.outputs[2], mine.outputs[2], "seen");
      checkClose(expected.shared.at("W"), mine.shared.at("W"), "W");
      checkClose(expected.shared.at("b"), mine.shared.at("b"), "b");
    }
    for (const std::string &name : moments) {
      std::vector<RefTensor> blocks;
      for (const CallResult &mine : got)
        blocks.push_back(mine.shared.at(name));
      checkClose(expected.shared.at(name),
                 wholeOf(blocks, expected.shared.at(name).shape[0]), name);
    }
    whole = expected.shared;
    for (int64_t r = 0; r < ranks; ++r)
      shared[size_t(r)] = got[size_t(r)].shared;
  }
  // Nothing but padding is NaN: the whole values are finite.
  for (const auto &[name, value] : whole)
    for (double x : value.data)
      CHECK(std::isfinite(x));
}
