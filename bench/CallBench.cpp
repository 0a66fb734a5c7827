//===- CallBench.cpp - what one call costs, and what a fresh output costs -===//
//
// tcc-bench-call [--calls=200000] [--mib=64] [--reps=7]
//
// Part 1, call overhead: nanoseconds per call of `y = x0 + ... + x{n-1}` on
// f32[4] for 1, 4 and 16 inputs, each with a fresh and a borrowed output,
// through Function::call and through the fast entry Function::callInto;
// best of 3 runs of --calls calls after a warm-up. A plain call of a
// function pointer is the floor.
//
// Part 2, fresh buffers: median time of `tanh(a*x+b)*c+x` on --mib MiB of
// f32 (default 64 MiB = 16M elements) with a fresh output and with a
// borrowed one, and their ratio, plus the host allocator's counters: a
// fresh output whose memory comes back from the cache costs no page faults.
//
// Times are the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID, kernel
// time for page faults included), so that other processes on a shared
// machine do not count; the code runs on one thread.
//
//===----------------------------------------------------------------------===//

#include "BenchGraph.h"
#include "runtime/tcc_runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <time.h>
#include <vector>

using namespace tcc;

namespace {

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "tcc-bench-call: %s\n", what.c_str());
  std::exit(1);
}

template <class T> T check(Result<T> r, const char *what) {
  if (!r.ok())
    die(std::string(what) + ": " + r.status().toString());
  return std::move(r).value();
}

void check(const Status &s, const char *what) {
  if (!s.ok())
    die(std::string(what) + ": " + s.toString());
}

/// `func sumN(x0 : f32[4], ...) -> (y : f32[4] [borrow])` for each count.
std::string graph() {
  std::string text = "tg 1\n";
  for (int n : {1, 4, 16})
    for (bool borrow : {false, true}) {
      text += "func sum" + std::to_string(n) + (borrow ? "_out" : "") + "(";
      for (int i = 0; i < n; ++i)
        text += (i ? ", x" : "x") + std::to_string(i) + " : f32[4]";
      text += ") -> (y : f32[4]" + std::string(borrow ? " borrow" : "") +
              ") {\n  y = x0";
      for (int i = 1; i < n; ++i)
        text += " + x" + std::to_string(i);
      text += "\n}\n";
    }
  text += "func chain(x : f32[N], a : f32[], b : f32[], c : f32[]) -> "
          "(y : f32[N]) {\n  y = tanh(a * x + b) * c + x\n}\n";
  text += "func chain_out(x : f32[N], a : f32[], b : f32[], c : f32[]) -> "
          "(y : f32[N] borrow) {\n  y = tanh(a * x + b) * c + x\n}\n";
  return text;
}

/// This thread's CPU time (user and system, page faults included), in
/// seconds: on a shared machine, time spent descheduled is not the call's.
double now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Best of three runs of `calls` calls of `body`, in ns per call.
template <class F> double nsPerCall(int calls, F body) {
  for (int i = 0; i < 1000; ++i) // warm up: plans, cached buffers
    body();
  double best = 1e30;
  for (int r = 0; r < 3; ++r) {
    double start = now();
    for (int i = 0; i < calls; ++i)
      body();
    best = std::min(best, (now() - start) / calls);
  }
  return best * 1e9;
}

/// Keeps the floor's call from being inlined away.
__attribute__((noinline)) void plainFunction(void **args) {
  auto *x = static_cast<float *>(args[0]);
  x[0] += 1;
}

} // namespace

int main(int argc, char **argv) {
  int calls = 200000, reps = 7;
  int64_t mib = 64;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--calls=", 0) == 0)
      calls = std::atoi(a.c_str() + 8);
    else if (a.rfind("--mib=", 0) == 0)
      mib = std::atoll(a.c_str() + 6);
    else if (a.rfind("--reps=", 0) == 0)
      reps = std::atoi(a.c_str() + 7);
    else
      die("usage: tcc-bench-call [--calls=200000] [--mib=64] [--reps=7]");
  }
  if (calls <= 0 || mib <= 0 || reps <= 0)
    die("--calls, --mib and --reps must be positive");

  std::shared_ptr<const Program> program =
      bench::compileGraph(graph(), "tcc-bench-call");
  Runtime runtime;
  check(runtime.load(program), "load");

  std::printf("tcc-bench-call: CPU ns per call, best of 3 x %d calls\n", calls);
  std::printf("%-34s %12s %12s\n", "function", "call()", "callInto()");
  float floorValue = 0;
  void *floorArgs[] = {&floorValue};
  void (*volatile plain)(void **) = plainFunction;
  std::printf("%-34s %12.1f\n", "plain function pointer",
              nsPerCall(calls, [&] { plain(floorArgs); }));
  for (int n : {1, 4, 16})
    for (bool borrow : {false, true}) {
      std::string name = "sum" + std::to_string(n) + (borrow ? "_out" : "");
      Function &f = *check(runtime.function(name), "function");
      std::vector<Array> inputs;
      for (int i = 0; i < n; ++i)
        inputs.push_back(check(Array::full(DType::F32, {4}, 1.0), "input"));
      double viaCall = nsPerCall(calls, [&] {
        if (!f.call(inputs).ok())
          die("call failed");
      });
      std::vector<Array> outputs;
      double viaInto = nsPerCall(calls, [&] {
        if (!f.callInto(inputs, outputs).ok())
          die("callInto failed");
      });
      std::printf("%-34s %12.1f %12.1f\n",
                  (std::to_string(n) + " input(s), " +
                   (borrow ? "Out(y, borrow)" : "Out(y)"))
                      .c_str(),
                  viaCall, viaInto);
    }

  // Part 2: the chain on a large array.
  int64_t n = mib * 1024 * 1024 / 4;
  Array x = check(Array::full(DType::F32, {n}, 0.5), "x");
  Array a = check(Array::full(DType::F32, {}, 1.5), "a");
  Array b = check(Array::full(DType::F32, {}, 0.25), "b");
  Array c = check(Array::full(DType::F32, {}, 2.0), "c");
  std::printf(
      "\ntanh(a*x+b)*c+x on f32[%lld] (%lld MiB), CPU time, median of %d\n",
      (long long)n, (long long)mib, reps);
  double medians[2];
  for (bool borrow : {false, true}) {
    Function &f =
        *check(runtime.function(borrow ? "chain_out" : "chain"), "function");
    std::vector<double> times;
    Array y;
    AllocatorStats before = hostAllocatorStats();
    for (int r = 0; r < reps + 1; ++r) {
      y = Array(); // the user drops the previous result
      double start = now();
      y = check(f.call({x, a, b, c}), "chain")[0];
      if (r > 0) // the first call warms the cache and loads the code
        times.push_back(now() - start);
    }
    AllocatorStats after = hostAllocatorStats();
    std::sort(times.begin(), times.end());
    medians[borrow] = times[times.size() / 2];
    std::printf("%-34s %9.2f ms   host allocator: %llu requests, %llu "
                "reused, %llu new blocks\n",
                borrow ? "Out(y, borrow)" : "Out(y) (fresh)",
                medians[borrow] * 1e3,
                (unsigned long long)(after.requests - before.requests),
                (unsigned long long)(after.reuses - before.reuses),
                (unsigned long long)(after.allocations - before.allocations));
  }
  std::printf("%-34s %9.2fx (target <= 1.25x)\n", "fresh / borrowed",
              medians[0] / medians[1]);
  std::printf("huge-page advice given: %llu mappings\n",
              (unsigned long long)hostHugePageAdvised());
  return 0;
}
