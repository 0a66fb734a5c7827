//===- ParallelBench.cpp - parallel loops against hand-written C ----------===//
//
// TCC_NUM_THREADS=T tcc-bench-parallel [--reps=21] [--cpu]
//
// Times compiled loops that run on the kernels' thread pool against
// hand-written C (HandC.cpp, threads split the same way) in the same run,
// with borrowed outputs so that no call allocates: the tanh chain on 16M
// f32, row softmax and row layer norm on 4096^2 (row-fused by
// tcc-row-fusion), and a small chain (4096 elements) that must stay on one
// thread. Prints the median per call and tcc / hand C. The thread count is
// the pool's (TCC_NUM_THREADS, else the CPUs this process may use); the
// hand C uses as many. Run it once per thread count. --cpu times the
// calling thread's CPU time instead of wall time, which other processes on
// a busy machine do not inflate: meaningful at one thread only.
//
//===----------------------------------------------------------------------===//

#include "peers/HandC.h"

#include "BenchGraph.h"
#include "runtime/tcc_runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

extern "C" int tcc_parallel_threads();

using namespace tcc;

namespace {

const char *kGraph = R"(tg 1
func chain(x : f32[N], a : f32[N], b : f32[N], c : f32[N]) -> (y : f32[N] borrow) {
  y = tanh(a * x + b) * c + x
}
func softmax_rows(x : f32[N, M]) -> (y : f32[N, M] borrow) {
  y = softmax(x, axis=1)
}
func layer_norm_rows(x : f32[N, M], g : f32[M], b : f32[M]) -> (y : f32[N, M] borrow) {
  y = (x - mean(x, axis=1, keepdims=true)) *
      rsqrt(var(x, axis=1, keepdims=true) + 1e-5) * g + b
}
)";

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "tcc-bench-parallel: %s\n", what.c_str());
  std::exit(1);
}

template <class T> T check(Result<T> r, const char *what) {
  if (!r.ok())
    die(std::string(what) + ": " + r.status().toString());
  return std::move(r).value();
}

bool cpuTime = false; // --cpu

double now() {
  if (cpuTime) {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
  }
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The median of `reps` timed runs of `body`, after one untimed run.
double median(int reps, const std::function<void()> &body) {
  body();
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    double start = now();
    body();
    times.push_back(now() - start);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

Array randomArray(std::vector<int64_t> shape, uint64_t seed) {
  Array a = check(Array::empty(DType::F32, shape), "allocation");
  std::mt19937_64 engine(seed);
  std::normal_distribution<float> normal;
  float *p = static_cast<float *>(a.data());
  for (int64_t i = 0; i < a.numel(); ++i)
    p[i] = normal(engine);
  return a;
}

/// The largest |a - b| over n floats.
double maxDifference(const float *a, const float *b, int64_t n) {
  double worst = 0;
  for (int64_t i = 0; i < n; ++i)
    worst = std::max(worst, double(std::abs(a[i] - b[i])));
  return worst;
}

void row(const char *name, double tcc, double hand, double difference) {
  std::printf("%-28s %10.3f ms %10.3f ms %8.2fx   (max |diff| %.1e)\n", name,
              tcc * 1e3, hand * 1e3, tcc / hand, difference);
}

} // namespace

int main(int argc, char **argv) {
  int reps = 21;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--reps=", 0) == 0)
      reps = std::atoi(a.c_str() + 7);
    else if (a == "--cpu")
      cpuTime = true;
    else
      die("usage: tcc-bench-parallel [--reps=21] [--cpu]");
  }
  if (reps <= 0)
    die("--reps must be positive");

  Runtime runtime;
  if (Status s =
          runtime.load(bench::compileGraph(kGraph, "tcc-bench-parallel"));
      !s.ok())
    die("load: " + s.toString());
  Function *chain = check(runtime.function("chain"), "function");
  Function *softmax = check(runtime.function("softmax_rows"), "function");
  Function *layerNorm = check(runtime.function("layer_norm_rows"), "function");
  int threads = tcc_parallel_threads();
  std::printf("threads: %d (tcc's pool and the hand C), median of %d calls, "
              "borrowed outputs, %s\n",
              threads, reps,
              cpuTime ? "the calling thread's CPU time" : "wall time");
  std::printf("%-28s %13s %13s %9s\n", "case", "tcc", "hand C", "tcc/hand");

  for (int64_t n : {int64_t(4096), int64_t(1) << 24}) {
    Array x = randomArray({n}, 1), a = randomArray({n}, 2),
          b = randomArray({n}, 3), c = randomArray({n}, 4);
    std::vector<float> hand(n);
    Array y;
    double t = median(reps * (n < 100000 ? 1000 : 1), [&] {
      y = check(chain->call({x, a, b, c}), "call")[0];
    });
    double h = median(reps * (n < 100000 ? 1000 : 1), [&] {
      bench::chain(static_cast<const float *>(x.data()),
                   static_cast<const float *>(a.data()),
                   static_cast<const float *>(b.data()),
                   static_cast<const float *>(c.data()), hand.data(), n,
                   n < 100000 ? 1 : threads);
    });
    std::string name = "tanh chain " + std::to_string(n);
    row(name.c_str(), t, h,
        maxDifference(static_cast<const float *>(y.data()), hand.data(), n));
  }

  const int64_t rows = 4096, cols = 4096;
  Array x = randomArray({rows, cols}, 5);
  std::vector<float> hand(rows * cols);
  Array y;
  double t = median(reps, [&] { y = check(softmax->call({x}), "call")[0]; });
  double h = median(reps, [&] {
    bench::softmaxRows(static_cast<const float *>(x.data()), hand.data(), rows,
                       cols, threads);
  });
  row("softmax rows 4096^2", t, h,
      maxDifference(static_cast<const float *>(y.data()), hand.data(),
                    rows * cols));

  Array g = randomArray({cols}, 6), b = randomArray({cols}, 7);
  t = median(reps, [&] { y = check(layerNorm->call({x, g, b}), "call")[0]; });
  h = median(reps, [&] {
    bench::layerNormRows(static_cast<const float *>(x.data()),
                         static_cast<const float *>(g.data()),
                         static_cast<const float *>(b.data()), hand.data(),
                         rows, cols, 1e-5f, threads);
  });
  row("layer norm rows 4096^2", t, h,
      maxDifference(static_cast<const float *>(y.data()), hand.data(),
                    rows * cols));
  return 0;
}
