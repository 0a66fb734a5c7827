//===- TrainingLoopTest.cpp - training loops never lose work --------------===//
//
// runtime/train's TrainingLoop on compiled functions: the steps it runs,
// the files it writes at the end, and what it keeps when a step fails (the
// history so far, the shared variables of the last completed step).
//
//===----------------------------------------------------------------------===//

#include "MemoryTestUtil.h"

#include <filesystem>
#include <unistd.h>

using namespace tcc;
using namespace tcc::test;
using namespace tcc::train;

namespace {

const char *kLookup = R"(tg 1
shared w : f32[2] = zeros
shared E : f32[4] = ones

func train_step(x : f32[N, 2], ids : i32[N], lr : f32[]) -> (loss : f32[]) {
  err = sum(x * w, axis=1) - take(E, ids)
  loss = mean(err * err)
  updates {
    w = w - lr * 2 * mean(x * reshape(err, shape=[N, 1]), axis=0)
  }
}
)";

/// A fresh directory removed at scope exit.
struct Scratch {
  std::string path;
  Scratch() {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "tcc-loop-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()));
    path = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string &name) const { return path + "/" + name; }
};

/// 12 rows; ids[badRow] = 9 (out of range of E) when badRow >= 0.
NamedArrays rows(int badRow) {
  std::vector<float> x;
  std::vector<int32_t> ids;
  for (int r = 0; r < 12; ++r) {
    x.push_back(float(r) / 12);
    x.push_back(1.0f - float(r) / 12);
    ids.push_back(r == badRow ? 9 : r % 4);
  }
  return {{"x", Array::fromVector(x, {12, 2}).value()},
          {"ids", Array::fromVector(ids, {12}).value()}};
}

std::map<std::string, Array> learningRate() {
  return {{"lr", Array::full(DType::F32, {}, 0.5).value()}};
}

Result<TrainingLoop> openLoop(Runtime &runtime, int badRow,
                              LoopOptions options) {
  BatchOptions batches;
  batches.batchSize = 4;
  TCC_ASSIGN_OR_RETURN(BatchFeed feed,
                       BatchFeed::fromArrays(rows(badRow), batches,
                                             fn(runtime, "train_step").spec(),
                                             learningRate()));
  return TrainingLoop::open(runtime, "train_step", learningRate(),
                            std::move(feed), std::move(options));
}

} // namespace

TEST_CASE("train loop: runs its steps and writes at the end", "[train]") {
  Scratch dir;
  std::unique_ptr<Runtime> runtime = loadGraph(kLookup);
  LoopOptions options;
  options.steps = 5; // an epoch of 3 batches, and 2 more
  options.histories = {"loss"};
  options.historyDir = dir.path;
  options.saveShared = dir.file("w.npz");
  TrainingLoop loop = openLoop(*runtime, -1, options).value();
  CHECK(loop.steps() == 5);
  std::vector<int64_t> seen;
  Result<LoopResult> done = loop.run([&](const StepResult &step) {
    seen.push_back(step.step);
    CHECK(step.outputs.size() == 1);
    return Status::success();
  });
  REQUIRE(done.ok());
  CHECK(seen == std::vector<int64_t>{0, 1, 2, 3, 4});
  CHECK(done.value().steps == 5);
  CHECK(done.value().callMs.size() == 5);
  CHECK(done.value().written ==
        std::vector<std::string>{"history: loss of 5 steps: f32(5,) -> " +
                                     dir.file("loss.history.npy"),
                                 "shared variables -> " + dir.file("w.npz")});
}

TEST_CASE("train loop: an error keeps the history and the state of the "
          "last completed step",
          "[train]") {
  Scratch dir;
  // The reference: 2 good steps.
  std::unique_ptr<Runtime> good = loadGraph(kLookup);
  LoopOptions twoSteps;
  twoSteps.steps = 2;
  twoSteps.histories = {"loss=" + dir.file("two.npy")};
  twoSteps.saveShared = dir.file("two.npz");
  REQUIRE(openLoop(*good, -1, twoSteps).value().run().ok());

  // Row 9 is in batch 3: step 3 fails, after 2 completed steps.
  std::unique_ptr<Runtime> runtime = loadGraph(kLookup);
  LoopOptions options;
  options.steps = 6;
  options.histories = {"loss=" + dir.file("loss.npy")};
  options.saveShared = dir.file("w.npz");
  Result<LoopResult> failed = openLoop(*runtime, 9, options).value().run();
  REQUIRE(!failed.ok());
  CHECK(failed.status().code() == ErrorCode::InvalidArgument);
  const std::string &message = failed.status().message();
  CHECK_THAT(message, Catch::StartsWith("step 3 of 6 (epoch 1, batch 3 of 3): "
                                        "'train_step' at "));
  CHECK_THAT(message,
             Catch::EndsWith("the call changed nothing; kept the work of the "
                             "2 completed steps; history: loss of 2 steps: "
                             "f32(2,) -> " +
                             dir.file("loss.npy") +
                             "; shared variables after step 2 -> " +
                             dir.file("w.npz")));
  CHECK(values(loadNpy(dir.file("loss.npy")).value()) ==
        values(loadNpy(dir.file("two.npy")).value()));
  Array w = loadNpz(dir.file("w.npz")).value().front().second;
  CHECK(values(w) ==
        values(loadNpz(dir.file("two.npz")).value().front().second));
  CHECK(values(w) != std::vector<double>{0, 0}); // trained
}

TEST_CASE("train loop: an error from the observer stops and keeps too",
          "[train]") {
  Scratch dir;
  std::unique_ptr<Runtime> runtime = loadGraph(kLookup);
  LoopOptions options;
  options.histories = {"loss=" + dir.file("loss.npy")};
  Result<LoopResult> stopped =
      openLoop(*runtime, -1, options).value().run([](const StepResult &step) {
        return step.step == 1 ? Status::error(ErrorCode::InvalidArgument,
                                              "loss is not finite")
                              : Status::success();
      });
  REQUIRE(!stopped.ok());
  CHECK(stopped.status().message() ==
        "step 2 of 3 (epoch 1, batch 2 of 3): loss is not finite; kept the "
        "work of the 2 completed steps; history: loss of 2 steps: f32(2,) -> " +
            dir.file("loss.npy") +
            "; the shared variables are not saved (no --save-shared)");
}

TEST_CASE("train loop: output paths are checked when it opens", "[train]") {
  Scratch dir;
  std::unique_ptr<Runtime> runtime = loadGraph(kLookup);
  LoopOptions options;
  options.saveShared = dir.file("none/w.npz");
  Result<TrainingLoop> loop = openLoop(*runtime, -1, options);
  REQUIRE(!loop.ok());
  CHECK(loop.status().code() == ErrorCode::NotFound);
  options.saveShared.clear();
  options.histories = {"loss"};
  options.historyDir = dir.file("none");
  CHECK(openLoop(*runtime, -1, options).status().code() == ErrorCode::NotFound);
  CHECK(fn(*runtime, "train_step").counters().snapshot().calls == 0);
}
