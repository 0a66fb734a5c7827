// Tests of the training-loop helpers that need no compiled code
// (runtime/train): batches cut from named arrays (short last batch,
// dropLast, static batch sizes, shuffling), histories, output paths.
#include "TestUtil.h"

#include <algorithm>
#include <numeric>

using namespace tcc;
using namespace tcc::test;
using namespace tcc::train;

namespace {

/// train_step(x : f32[B, 2], y : f32[B], lr : f32[]) -> (loss : f32[],
/// err : f32[B]), with B a symbol or a static size.
FunctionSpec trainStep(DimSpec batch) {
  FunctionSpec spec;
  spec.name = "train_step";
  spec.args = {{ArgRole::Input, "x", DType::F32, {batch, DimSpec{2, ""}}},
               {ArgRole::Input, "y", DType::F32, {batch}},
               {ArgRole::Input, "lr", DType::F32, {}},
               {ArgRole::Output, "loss", DType::F32, {}},
               {ArgRole::Output, "err", DType::F32, {batch}}};
  spec.outputs = {{"loss", 3}, {"err", 4}};
  return spec;
}

const DimSpec kSymbolic{-1, "N"};

/// 10 rows: x[r] = (r, -r), y[r] = r.
NamedArrays tenRows() {
  std::vector<float> x, y;
  for (int r = 0; r < 10; ++r) {
    x.push_back(float(r));
    x.push_back(float(-r));
    y.push_back(float(r));
  }
  return {{"x", Array::fromVector(x, {10, 2}).value()},
          {"y", Array::fromVector(y, {10}).value()}};
}

std::vector<int64_t> rowsOf(const Array &y) {
  std::vector<int64_t> rows;
  for (double v : y.toDoubles())
    rows.push_back(int64_t(v));
  return rows;
}

BatchOptions batchesOf(int64_t size, bool dropLast = false,
                       std::optional<uint64_t> seed = std::nullopt) {
  BatchOptions options;
  options.batchSize = size;
  options.dropLast = dropLast;
  options.shuffleSeed = seed;
  return options;
}

} // namespace

TEST_CASE("train: a short last batch runs with a symbolic batch size",
          "[train]") {
  BatchFeed feed =
      BatchFeed::fromArrays(tenRows(), batchesOf(4), trainStep(kSymbolic), {})
          .value();
  CHECK(feed.batchesPerEpoch() == 3);
  CHECK(feed.shortLastBatch() == 2);
  std::map<std::string, Array> inputs;
  REQUIRE(feed.fill(2, inputs).ok());
  CHECK(rowsOf(inputs["y"]) == std::vector<int64_t>{8, 9});
  CHECK(inputs["x"].shape() == Shape{2, 2});
  REQUIRE(feed.fill(3, inputs).ok()); // the next epoch starts again
  CHECK(rowsOf(inputs["y"]) == std::vector<int64_t>{0, 1, 2, 3});
}

TEST_CASE("train: dropLast skips the short last batch", "[train]") {
  BatchFeed feed = BatchFeed::fromArrays(tenRows(), batchesOf(4, true),
                                         trainStep(kSymbolic), {})
                       .value();
  CHECK(feed.batchesPerEpoch() == 2);
  CHECK(feed.shortLastBatch() == 0);
  std::map<std::string, Array> inputs;
  REQUIRE(feed.fill(2, inputs).ok());
  CHECK(rowsOf(inputs["y"]) == std::vector<int64_t>{0, 1, 2, 3});
}

TEST_CASE("train: a static batch size is checked before any step", "[train]") {
  FunctionSpec fixed = trainStep(DimSpec{4, ""});
  Result<BatchFeed> shortBatch =
      BatchFeed::fromArrays(tenRows(), batchesOf(4), fixed, {}, "data.npz");
  REQUIRE(!shortBatch.ok());
  CHECK(shortBatch.status().message() ==
        "data.npz: the last batch of each epoch has 2 rows (10 rows = 2 x 4 "
        "+ 2), but input 'x' of 'train_step' takes 4 rows (f32[4, 2]): skip "
        "it with --drop-last, or give the input a symbolic batch size (N)");
  CHECK(BatchFeed::fromArrays(tenRows(), batchesOf(4, true), fixed, {}).ok());
  Result<BatchFeed> other =
      BatchFeed::fromArrays(tenRows(), batchesOf(5), fixed, {}, "data.npz");
  REQUIRE(!other.ok());
  CHECK(other.status().message() ==
        "data.npz: input 'x' of 'train_step' takes 4 rows (f32[4, 2]) but the "
        "batch size is 5");
}

TEST_CASE("train: shuffling draws one permutation per epoch from the seed",
          "[train]") {
  FunctionSpec spec = trainStep(kSymbolic);
  BatchFeed a =
      BatchFeed::fromArrays(tenRows(), batchesOf(4, false, 7), spec, {})
          .value();
  BatchFeed b =
      BatchFeed::fromArrays(tenRows(), batchesOf(4, false, 7), spec, {})
          .value();
  BatchFeed c =
      BatchFeed::fromArrays(tenRows(), batchesOf(4, false, 8), spec, {})
          .value();
  std::vector<int64_t> identity(10);
  std::iota(identity.begin(), identity.end(), 0);
  for (int64_t epoch = 0; epoch < 3; ++epoch) {
    std::vector<int64_t> order = a.epochOrder(epoch);
    CHECK(order == b.epochOrder(epoch));     // reproducible
    CHECK(order != c.epochOrder(epoch));     // another seed, another order
    CHECK(order != a.epochOrder(epoch + 1)); // each epoch its own
    CHECK(order != identity);
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == identity); // every row once
  }
  // The batches are the epoch's rows in its order, gathered with their x.
  std::map<std::string, Array> inputs;
  std::vector<int64_t> seen;
  for (int64_t step = 3; step < 6; ++step) {
    REQUIRE(a.fill(step, inputs).ok());
    std::vector<int64_t> rows = rowsOf(inputs["y"]);
    CHECK(rows == a.batchRows(step));
    std::vector<double> x = inputs["x"].toDoubles();
    for (size_t i = 0; i < rows.size(); ++i)
      CHECK(x[2 * i + 1] == -double(rows[i]));
    seen.insert(seen.end(), rows.begin(), rows.end());
  }
  CHECK(seen == a.epochOrder(1));
}

TEST_CASE("train: the data is checked against the function", "[train]") {
  FunctionSpec spec = trainStep(kSymbolic);
  NamedArrays extra = tenRows();
  extra.emplace_back("z", Array::zeros(DType::F32, {10}).value());
  CHECK(BatchFeed::fromArrays(extra, batchesOf(4), spec, {}, "d")
            .status()
            .message() == "d: member 'z' is not an input of 'train_step' "
                          "(its inputs: x, y, lr)");
  CHECK(BatchFeed::fromArrays(tenRows(), batchesOf(11), spec, {}, "d")
            .status()
            .message() ==
        "d: the batch size 11 is larger than the 10 rows of the data");
  CHECK(BatchFeed::fromArrays(tenRows(), batchesOf(0), spec, {}, "d")
            .status()
            .message() == "d: the batch size must be at least 1, got 0");
}

TEST_CASE("train: output paths are checked before anything runs", "[train]") {
  TempDir dir;
  CHECK(checkOutputFile(dir.file("w.npz"), "w").ok());
  Status missing = checkOutputFile(dir.file("none/w.npz"), "--save-shared");
  CHECK(missing.code() == ErrorCode::NotFound);
  CHECK(missing.message() == "--save-shared: the folder '" + dir.file("none") +
                                 "' does not exist (create it first)");
  Status folder = checkOutputFile(dir.path(), "--save-shared");
  CHECK(folder.code() == ErrorCode::InvalidArgument);
  CHECK(folder.message() ==
        "--save-shared: '" + dir.path() + "' is a folder, not a file");
}

TEST_CASE("train: a history stacks one output per step", "[train]") {
  TempDir dir;
  FunctionSpec spec = trainStep(kSymbolic);
  OutputHistory history =
      OutputHistory::open("err=" + dir.file("err.npy"), spec, ".").value();
  CHECK(!history.save().ok()); // nothing recorded yet
  Array loss = Array::zeros(DType::F32, {}).value();
  REQUIRE(history.record({loss, Array::full(DType::F32, {3}, 1).value()}).ok());
  REQUIRE(history.record({loss, Array::full(DType::F32, {3}, 2).value()}).ok());
  Status varies =
      history.record({loss, Array::full(DType::F32, {2}, 3).value()});
  CHECK(varies.code() == ErrorCode::ShapeMismatch);
  CHECK(history.size() == 2);
  CHECK(history.save().value() ==
        "err of 2 steps: f32(2, 3) -> " + dir.file("err.npy"));
  CHECK(loadNpy(dir.file("err.npy")).value().toDoubles() ==
        std::vector<double>{1, 1, 1, 2, 2, 2});
}
