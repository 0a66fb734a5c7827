// A C++ host that trains an MLP classifier on handwritten digits with tcc:
//   train_digits examples/train/digits.tg digits.npz [--epochs=E]
//       [--batch-size=B] [--lr=L] [--min-accuracy=P] [--data-parallel]
//       [--no-cache]
// With --data-parallel it is one rank of an MPI job (scripts/mpirun-local
// -np N train_digits ... --data-parallel): gradients are averaged across
// ranks, the parameters start from rank 0's, each rank takes its share of
// every batch, and rank 0 prints (docs/distributed.md).
// digits.npz comes from make_digits.py (x_train, y_train, x_test, y_test).
// The graph file holds the model: its parameters are shared variables that
// `train_step` updates in place (gradients by `grad`), and `predict` gives
// class ids. The host only shuffles, slices mini-batches and counts. Like
// `tcc run`, it compiles through the persistent compile cache (TCC_CACHE_DIR,
// else ~/.cache/tcc) unless --no-cache or TCC_CACHE=0: a second run loads
// the program instead of compiling it.
#include <tcc/compiler/tcc_compiler.h>
#include <tcc/runtime/dist/CollectiveCall.h>
#include <tcc/runtime/dist/DataParallel.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

struct Options {
  const char *graph = nullptr;
  const char *data = nullptr;
  int epochs = 20;
  int batchSize = 32;
  float learningRate = 0.05f;
  double minAccuracy = 0; ///< in percent; the exit status checks it
  bool dataParallel = false;
  bool noCache = false;
};

bool parseOptions(int argc, char **argv, Options &o) {
  auto value = [](const char *arg, const char *flag) -> const char * {
    size_t n = std::strlen(flag);
    return std::strncmp(arg, flag, n) == 0 ? arg + n : nullptr;
  };
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (const char *v = value(a, "--epochs="))
      o.epochs = std::atoi(v);
    else if (const char *v = value(a, "--batch-size="))
      o.batchSize = std::atoi(v);
    else if (const char *v = value(a, "--lr="))
      o.learningRate = std::strtof(v, nullptr);
    else if (const char *v = value(a, "--min-accuracy="))
      o.minAccuracy = std::strtod(v, nullptr);
    else if (std::strcmp(a, "--data-parallel") == 0)
      o.dataParallel = true;
    else if (std::strcmp(a, "--no-cache") == 0)
      o.noCache = true;
    else if (a[0] == '-')
      return false;
    else if (!o.graph)
      o.graph = a;
    else if (!o.data)
      o.data = a;
    else
      return false;
  }
  return o.graph && o.data && o.epochs > 0 && o.batchSize > 0;
}

int fail(const tcc::Status &s) {
  std::fprintf(stderr, "train_digits: %s\n", s.message().c_str());
  return 1;
}

/// Compiles the graph file for this CPU; null after printing errors.
std::shared_ptr<tcc::Program> compile(const char *path, bool dataParallel,
                                      bool noCache) {
  tcc::CompilerOptions options;
  options.graph.dataParallel = dataParallel;
  tcc::CacheFlags flags;
  flags.noCache = noCache;
  tcc::Result<tcc::CacheSettings> cache = tcc::resolveCacheSettings(flags);
  if (!cache.ok()) {
    fail(cache.status());
    return nullptr;
  }
  options.cache = cache.value();
  options.toolName = "train_digits"; // "train_digits: error: cannot open ..."
  tcc::Compiler compiler(std::move(options));
  mlir::FailureOr<std::shared_ptr<tcc::Program>> program =
      compiler.compileFile(path);
  return mlir::succeeded(program) ? *program : nullptr;
}

/// The data set: images as f32[n, 64] and labels as i32[n].
struct DataSet {
  tcc::Array images, labels;
  int64_t size() const { return images.shape()[0]; }
};

/// Copies the rows `order[begin, end)` of `from` into a fresh array.
template <class T>
tcc::Result<tcc::Array> gatherRows(const tcc::Array &from,
                                   const std::vector<int64_t> &order,
                                   size_t begin, size_t end) {
  tcc::Shape shape = from.shape();
  shape[0] = int64_t(end - begin);
  TCC_ASSIGN_OR_RETURN(tcc::Array out, tcc::Array::empty(from.dtype(), shape));
  size_t rowBytes = size_t(from.numel() / from.shape()[0]) * sizeof(T);
  const char *src = static_cast<const char *>(from.data());
  char *dst = static_cast<char *>(out.data());
  for (size_t i = begin; i < end; ++i)
    std::memcpy(dst + (i - begin) * rowBytes, src + order[i] * rowBytes,
                rowBytes);
  return out;
}

/// The percentage of images whose predicted class is their label.
tcc::Result<double> accuracy(tcc::Function &predict, const DataSet &data) {
  TCC_ASSIGN_OR_RETURN(std::vector<tcc::Array> out,
                       predict.call({data.images}));
  const tcc::Array &classes = out[0]; // i64[n]
  const auto *got = static_cast<const int64_t *>(classes.data());
  const auto *want = static_cast<const int32_t *>(data.labels.data());
  int64_t right = 0;
  for (int64_t i = 0; i < data.size(); ++i)
    right += got[i] == want[i];
  return 100.0 * double(right) / double(data.size());
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: %s GRAPH.tg DIGITS.npz [--epochs=E] [--batch-size=B] "
                 "[--lr=L] [--min-accuracy=PERCENT] [--data-parallel] "
                 "[--no-cache]\n",
                 argv[0]);
    return 2;
  }
  tcc::Result<tcc::NamedArrays> members = tcc::loadNpz(o.data);
  if (!members.ok())
    return fail(members.status());
  DataSet train, test;
  for (auto &[name, array] : members.value()) {
    if (name == "x_train")
      train.images = array;
    else if (name == "y_train")
      train.labels = array;
    else if (name == "x_test")
      test.images = array;
    else if (name == "y_test")
      test.labels = array;
  }
  for (const tcc::Array *a :
       {&train.images, &train.labels, &test.images, &test.labels})
    if (a->isNull()) {
      std::fprintf(stderr,
                   "train_digits: %s lacks x_train, y_train, x_test or "
                   "y_test (make it with make_digits.py)\n",
                   o.data);
      return 1;
    }
  if (train.images.dtype() != tcc::DType::F32 ||
      train.labels.dtype() != tcc::DType::I32) {
    std::fprintf(stderr, "train_digits: %s: want f32 images, i32 labels\n",
                 o.data);
    return 1;
  }

  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<tcc::Program> program =
      compile(o.graph, o.dataParallel, o.noCache);
  if (!program)
    return 1;
  tcc::Runtime runtime;
  if (tcc::Status s = runtime.load(program); !s.ok())
    return fail(s);
  // Data parallelism: every rank starts from rank 0's parameters.
  int rank = 0, ranks = 1;
  if (o.dataParallel) {
    tcc::Result<tcc::Communicator *> world = tcc::collectiveCommunicator();
    if (!world.ok())
      return fail(world.status());
    rank = world.value()->rank();
    ranks = world.value()->size();
    if (tcc::Status s =
            tcc::dist::broadcastSharedVariables(runtime.shared(), **world);
        !s.ok())
      return fail(s);
  }
  // Only rank 0 prints.
  auto print = [&](const char *format, auto... args) {
    if (rank == 0)
      std::printf(format, args...);
  };
  tcc::Result<tcc::Function *> step = runtime.function("train_step");
  tcc::Result<tcc::Function *> predict = runtime.function("predict");
  if (!step.ok())
    return fail(step.status());
  if (!predict.ok())
    return fail(predict.status());
  double compileS =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  print("compiled %s in %.2f s; %lld training, %lld test images, %d rank%s\n",
        o.graph, compileS, static_cast<long long>(train.size()),
        static_cast<long long>(test.size()), ranks, ranks == 1 ? "" : "s");

  tcc::Result<tcc::Array> lr =
      tcc::Array::full(tcc::DType::F32, {}, o.learningRate);
  if (!lr.ok())
    return fail(lr.status());
  std::vector<int64_t> order(size_t(train.size()));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 shuffle(42);
  double testAccuracy = 0;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    auto epochStart = std::chrono::steady_clock::now();
    std::shuffle(order.begin(), order.end(), shuffle);
    double lossSum = 0;
    int batches = 0;
    for (size_t b = 0; b < order.size(); b += size_t(o.batchSize)) {
      size_t e = std::min(order.size(), b + size_t(o.batchSize));
      // Every rank shuffles alike and takes its share of the batch.
      size_t n = e - b, from = b + size_t(rank) * n / size_t(ranks),
             to = b + size_t(rank + 1) * n / size_t(ranks);
      tcc::Result<tcc::Array> x =
          gatherRows<float>(train.images, order, from, to);
      tcc::Result<tcc::Array> y =
          gatherRows<int32_t>(train.labels, order, from, to);
      if (!x.ok() || !y.ok())
        return fail(x.ok() ? y.status() : x.status());
      tcc::Result<std::vector<tcc::Array>> loss =
          step.value()->call({x.value(), y.value(), lr.value()});
      if (!loss.ok())
        return fail(loss.status());
      lossSum += loss.value()[0].at<float>({}).value();
      ++batches;
    }
    tcc::Result<double> trainAccuracy = accuracy(*predict.value(), train);
    tcc::Result<double> testResult = accuracy(*predict.value(), test);
    if (!trainAccuracy.ok())
      return fail(trainAccuracy.status());
    if (!testResult.ok())
      return fail(testResult.status());
    testAccuracy = testResult.value();
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - epochStart)
                         .count();
    print("epoch %2d  loss %.4f  train %5.1f%%  test %5.1f%%  %.3f s\n", epoch,
          lossSum / batches, trainAccuracy.value(), testAccuracy, seconds);
  }
  double totalS =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  print("test accuracy %.1f%% after %d epochs (%.2f s in all)\n", testAccuracy,
        o.epochs, totalS);
  if (testAccuracy < o.minAccuracy) {
    std::fprintf(stderr, "train_digits: test accuracy %.1f%% is below %.1f%%\n",
                 testAccuracy, o.minAccuracy);
    return 1;
  }
  return 0;
}
