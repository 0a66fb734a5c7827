// A host that trains with the runtime's training loop (runtime/train, the
// code behind `tcc run --batches`): `train_loop OUTPUT_DIR` fits
// y = 2x - 1 by mini-batch SGD on 100 rows in batches of 32 (a short last
// batch of 4), shuffled each epoch, and keeps the loss of every step and the
// trained parameters in OUTPUT_DIR.
#include <tcc/compiler/tcc_compiler.h>

#include <cstdio>

static const char *kGraph = R"(tg 1
shared a : f32[] = zeros
shared b : f32[] = zeros

func train_step(x : f32[N], y : f32[N], lr : f32[]) -> (loss : f32[]) {
  err = a * x + b - y
  loss = mean(err * err)
  updates {
    a = a - lr * 2 * mean(err * x)
    b = b - lr * 2 * mean(err)
  }
}
)";

static int fail(const tcc::Status &status) {
  std::fprintf(stderr, "%s\n", status.message().c_str());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  tcc::Runtime runtime;
  {
    tcc::Compiler compiler;
    auto program = compiler.compileText(kGraph, "linear.tg");
    if (mlir::failed(program))
      return 1;
    if (tcc::Status s = runtime.load(*program); !s.ok())
      return fail(s);
  }
  std::vector<float> xs, ys;
  for (int i = 0; i < 100; ++i) {
    xs.push_back(float(i) / 50 - 1);
    ys.push_back(2 * xs.back() - 1);
  }
  tcc::NamedArrays data = {{"x", tcc::Array::fromVector(xs, {100}).value()},
                           {"y", tcc::Array::fromVector(ys, {100}).value()}};
  std::map<std::string, tcc::Array> fixed = {
      {"lr", tcc::Array::full(tcc::DType::F32, {}, 0.3).value()}};

  // Batches of 32 rows, shuffled with seed 1; a static batch size would
  // need dropLast (the last batch has 4 rows). Checked before any step.
  tcc::train::BatchOptions batches;
  batches.batchSize = 32;
  batches.shuffleSeed = 1;
  const tcc::FunctionSpec &spec =
      runtime.function("train_step").value()->spec();
  tcc::Result<tcc::train::BatchFeed> feed =
      tcc::train::BatchFeed::fromArrays(data, batches, spec, fixed);
  if (!feed.ok())
    return fail(feed.status());

  // 100 epochs of 4 steps. The output paths are checked now; on an error
  // at any step, the loss so far and the parameters of the last completed
  // step are still written, and the message says where.
  tcc::train::LoopOptions options;
  options.steps = 400;
  options.histories = {"loss=" + dir + "/loss.npy"};
  options.saveShared = dir + "/trained.npz";
  tcc::Result<tcc::train::TrainingLoop> loop = tcc::train::TrainingLoop::open(
      runtime, "train_step", fixed, std::move(feed).value(), options);
  if (!loop.ok())
    return fail(loop.status());
  tcc::Result<tcc::train::LoopResult> done = loop.value().run();
  if (!done.ok())
    return fail(done.status());
  for (const std::string &line : done.value().written)
    std::printf("%s\n", line.c_str());
  for (const char *name : {"a", "b"}) {
    tcc::SharedVariable *v = runtime.shared().lookup(name).value();
    std::printf("%s = %.3f\n", name,
                v->getArray().value().at<float>({}).value());
  }
  return 0;
}
