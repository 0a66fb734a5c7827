//===- EpilogueBench.cpp - GEMM epilogues against OpenBLAS + hand C ------===//
//
// TCC_NUM_THREADS=T OPENBLAS_NUM_THREADS=T tcc-bench-epilogue [--reps=15]
//                                                            [--panels]
//
// Times relu(x @ w + b) at 512^3 and a 2-layer MLP forward at 1024
// (relu(x @ w1 + b1) @ w2 + b2, all 1024 x 1024) compiled by tcc against
// OpenBLAS plus a hand-fused epilogue (HandGemm.cpp) in the same run, with
// borrowed outputs so that no call allocates. tcc and hand C alternate
// within each repetition, so that both see the same machine; the medians
// and tcc / hand C are printed, in wall time and in the CPU time of the
// whole process (all threads), which a machine shared with other work
// distorts less. OpenBLAS gets the pool's thread count
// (openblas_set_num_threads), and the hand epilogue as many threads. Run
// it once per thread count. --panels adds hand C that runs one sgemm per
// row panel against one for all rows, for several panel heights: what
// chose tcc-gemm-epilogue's panel size.
//
//===----------------------------------------------------------------------===//

#include "BenchGraph.h"
#include "HandGemm.h"

#include "runtime/tcc_runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

extern "C" int tcc_parallel_threads();
extern "C" const char *tcc_blas_core_name();

using namespace tcc;

namespace {

const char *kGraph = R"(tg 1
func dense(x : f32[N, K], w : f32[K, M], b : f32[M]) -> (y : f32[N, M] borrow) {
  y = relu(matmul(x, w) + b)
}
func mlp(x : f32[N, K], w1 : f32[K, H], b1 : f32[H], w2 : f32[H, M],
         b2 : f32[M]) -> (y : f32[N, M] borrow) {
  h = relu(matmul(x, w1) + b1)
  y = matmul(h, w2) + b2
}
)";

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "tcc-bench-epilogue: %s\n", what.c_str());
  std::exit(1);
}

template <class T> T check(Result<T> r, const char *what) {
  if (!r.ok())
    die(std::string(what) + ": " + r.status().toString());
  return std::move(r).value();
}

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// CPU seconds of every thread of this process (OpenBLAS's and the pool's
/// included): what a call costs on a machine that others share.
double cpuNow() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

double median(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// Median wall and CPU seconds of one call of a and of b.
struct Timing {
  double wallA, wallB, cpuA, cpuB;
};

/// `reps` runs of `a` and `b`, alternating, after one of each.
Timing interleaved(int reps, const std::function<void()> &a,
                   const std::function<void()> &b) {
  a();
  b();
  std::vector<double> wa, wb, ca, cb;
  auto time = [](const std::function<void()> &f, std::vector<double> &wall,
                 std::vector<double> &cpu) {
    double w = now(), c = cpuNow();
    f();
    cpu.push_back(cpuNow() - c);
    wall.push_back(now() - w);
  };
  for (int r = 0; r < reps; ++r) {
    time(a, wa, ca);
    time(b, wb, cb);
  }
  return {median(wa), median(wb), median(ca), median(cb)};
}

Array randomArray(std::vector<int64_t> shape, uint64_t seed, float scale) {
  Array a = check(Array::empty(DType::F32, shape), "allocation");
  std::mt19937_64 engine(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  float *p = static_cast<float *>(a.data());
  for (int64_t i = 0; i < a.numel(); ++i)
    p[i] = normal(engine);
  return a;
}

const float *f32(const Array &a) {
  return static_cast<const float *>(a.data());
}

/// The largest |a - b| relative to the largest |b|, over n floats.
double relativeDifference(const float *a, const float *b, int64_t n) {
  double worst = 0, scale = 1e-30;
  for (int64_t i = 0; i < n; ++i) {
    worst = std::max(worst, double(std::abs(a[i] - b[i])));
    scale = std::max(scale, double(std::abs(b[i])));
  }
  return worst / scale;
}

void row(const char *name, const Timing &t, double difference) {
  std::printf("%-22s %9.3f ms %9.3f ms %7.3fx %9.3f ms %9.3f ms %7.3fx   "
              "(max rel diff %.1e)\n",
              name, t.wallA * 1e3, t.wallB * 1e3, t.wallA / t.wallB,
              t.cpuA * 1e3, t.cpuB * 1e3, t.cpuA / t.cpuB, difference);
}

} // namespace

int main(int argc, char **argv) {
  int reps = 15;
  bool panels = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--reps=", 0) == 0)
      reps = std::atoi(a.c_str() + 7);
    else if (a == "--panels")
      panels = true;
    else
      die("usage: tcc-bench-epilogue [--reps=15] [--panels]");
  }
  if (reps <= 0)
    die("--reps must be positive");

  Runtime runtime;
  if (Status s =
          runtime.load(bench::compileGraph(kGraph, "tcc-bench-epilogue"));
      !s.ok())
    die("load: " + s.toString());
  Function *dense = check(runtime.function("dense"), "function");
  Function *mlp = check(runtime.function("mlp"), "function");
  int threads = tcc_parallel_threads();
  // OpenBLAS loads as tcc loads it (its kernels chosen as in
  // kernels/BlasLibrary.cpp); the hand C then opens the same instance.
  tcc_blas_core_name();
  bench::setBlasThreads(threads);
  std::printf("threads: %d (tcc's pool, OpenBLAS and the hand epilogue), "
              "OpenBLAS core: %s, median of %d calls, interleaved, borrowed "
              "outputs\n",
              threads, bench::blasCore(), reps);
  std::printf("%-22s %12s %12s %8s %12s %12s %8s\n", "case", "tcc wall",
              "hand wall", "ratio", "tcc CPU", "hand CPU", "ratio");

  {
    const int64_t n = 512;
    Array x = randomArray({n, n}, 1, 1.0f), w = randomArray({n, n}, 2, 0.05f),
          b = randomArray({n}, 3, 1.0f);
    std::vector<float> hand(n * n);
    Array y;
    auto t = interleaved(
        reps,
        [&] {
          y = check(dense->call({x, w, b}), "call")[0];
        },
        [&] {
          bench::denseRelu(f32(x), f32(w), f32(b), hand.data(), n, n, n,
                           threads);
        });
    row("relu(x@w+b) 512^3", t, relativeDifference(f32(y), hand.data(), n * n));
  }
  {
    const int64_t n = 1024;
    Array x = randomArray({n, n}, 4, 1.0f), w1 = randomArray({n, n}, 5, 0.03f),
          b1 = randomArray({n}, 6, 1.0f), w2 = randomArray({n, n}, 7, 0.03f),
          b2 = randomArray({n}, 8, 1.0f);
    std::vector<float> hidden(n * n), hand(n * n);
    Array y;
    auto t = interleaved(
        reps,
        [&] {
          y = check(mlp->call({x, w1, b1, w2, b2}), "call")[0];
        },
        [&] {
          bench::mlp(f32(x), f32(w1), f32(b1), f32(w2), f32(b2), hidden.data(),
                     hand.data(), n, n, n, n, threads);
        });
    row("MLP 1024 (2 layers)", t,
        relativeDifference(f32(y), hand.data(), n * n));
  }
  if (panels) {
    // Row panels in hand C against one product and one epilogue pass: the
    // evidence for tcc-gemm-epilogue's panel size (GemmEpilogue.h).
    std::printf("\nrelu(x@w+b), hand C: one sgemm per row panel / one sgemm "
                "for all rows\n");
    for (int64_t m : {int64_t(1024), int64_t(4096)}) {
      const int64_t n = 1024;
      Array x = randomArray({m, n}, 9, 1.0f),
            w = randomArray({n, n}, 10, 0.03f), b = randomArray({n}, 11, 1.0f);
      std::vector<float> whole(m * n), parts(m * n);
      for (int64_t rows :
           {int64_t(256), int64_t(512), int64_t(1024), int64_t(2048)}) {
        if (rows >= m)
          continue;
        Timing t = interleaved(
            reps,
            [&] {
              bench::denseReluPanels(f32(x), f32(w), f32(b), parts.data(), m, n,
                                     n, rows);
            },
            [&] {
              bench::denseRelu(f32(x), f32(w), f32(b), whole.data(), m, n, n,
                               1);
            });
        std::string name =
            std::to_string(m) + "x1024^2, " + std::to_string(rows) + " rows";
        row(name.c_str(), t,
            relativeDifference(parts.data(), whole.data(), m * n));
      }
    }
  }
  return 0;
}
