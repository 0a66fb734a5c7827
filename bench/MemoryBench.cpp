//===- MemoryBench.cpp - what borrowing saves, measured -------------------===//
//
// tcc-bench-memory [--mib=256] [--reps=5] [--calls=200000]
//
// Times the memory-model operations of docs/memory-model.md on one large
// f32 array, with and without borrow, and prints a table: median time over
// the repetitions, the ratio against the non-borrowed way of doing the same
// thing (measured in the same run), and the runtime's counters for one
// repetition (bytes copied, allocations, peak managed bytes). The last rows
// are the call overhead of a trivial function in nanoseconds per call.
//
//===----------------------------------------------------------------------===//

#include "BenchGraph.h"
#include "runtime/tcc_runtime.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace tcc;

namespace {

const char *kGraph = R"(tg 1
func twice(x : f32[N]) -> (y : f32[N]) {
  y = 2 * x
}
func twice_in(x : f32[N] borrow) -> (y : f32[N]) {
  y = 2 * x
}
func twice_out(x : f32[N]) -> (y : f32[N] borrow) {
  y = 2 * x
}
func twice_inout(x : f32[N] borrow) -> (y : f32[N] borrow) {
  y = 2 * x
}
func tiny(x : f32[]) -> (y : f32[]) {
  y = x + 1
}
func tiny_out(x : f32[]) -> (y : f32[] borrow) {
  y = x + 1
}
func tiny_inout(x : f32[] borrow) -> (y : f32[] borrow) {
  y = x + 1
}
)";

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "tcc-bench-memory: %s\n", what.c_str());
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

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// One row of the table.
struct Row {
  std::string group, name;
  double seconds = 0; ///< median
  CounterSnapshot counters;
  double baseline = 0; ///< the group's non-borrowed median
  bool perCall = false;
  double nsPerCall = 0;
};

/// A fresh array of `n` floats with every page touched.
Array filled(int64_t n, float value) {
  Array a = check(Array::empty(DType::F32, {n}), "allocation");
  std::fill_n(static_cast<float *>(a.data()), size_t(n), value);
  return a;
}

class Bench {
public:
  explicit Bench(int reps) : reps_(reps) {}

  /// Times `body` `reps` times; `setup` runs before each repetition, out of
  /// the timing. The counters are those of the last repetition.
  void measure(const std::string &group, const std::string &name,
               Runtime &runtime, const std::function<void()> &setup,
               const std::function<void()> &body, bool baseline = false) {
    std::vector<double> times;
    Row row;
    row.group = group;
    row.name = name;
    for (int r = 0; r < reps_; ++r) {
      setup();
      runtime.counters().reset();
      double start = now();
      body();
      times.push_back(now() - start);
      row.counters = runtime.counters().snapshot();
    }
    std::sort(times.begin(), times.end());
    row.seconds = times[times.size() / 2];
    if (baseline)
      baselines_[group] = row.seconds;
    row.baseline = baselines_[group];
    rows_.push_back(row);
  }

  void callOverhead(const std::string &name, Function &f, const Array &x,
                    int calls) {
    for (int i = 0; i < 1000; ++i) // warm up
      check(f.call({x}), "call");
    double best = 1e30;
    for (int r = 0; r < 3; ++r) {
      double start = now();
      for (int i = 0; i < calls; ++i) {
        Result<std::vector<Array>> out = f.call({x});
        if (!out.ok())
          die(out.status().toString());
      }
      best = std::min(best, (now() - start) / calls);
    }
    Row row;
    row.group = "call overhead";
    row.name = name;
    row.perCall = true;
    row.nsPerCall = best * 1e9;
    if (!baselines_.count(row.group))
      baselines_[row.group] = row.nsPerCall;
    row.baseline = baselines_[row.group];
    rows_.push_back(row);
  }

  void print() const {
    std::printf("\n%-52s %10s %9s %8s %6s %9s %8s %9s\n", "case", "time",
                "ratio", "copied", "allocs", "allocated", "avoided", "peak");
    std::printf("%-52s %10s %9s %8s %6s %9s %8s %9s\n", "", "", "", "(MiB)", "",
                "(MiB)", "(MiB)", "mngd(MiB)");
    std::string group;
    for (const Row &r : rows_) {
      if (r.group != group) {
        group = r.group;
        std::printf("-- %s\n", group.c_str());
      }
      char ratio[32];
      if (r.perCall) {
        std::snprintf(ratio, sizeof ratio, "%.3gx", r.nsPerCall / r.baseline);
        std::printf("   %-49s %7.0f ns %9s\n", r.name.c_str(), r.nsPerCall,
                    ratio);
        continue;
      }
      const double mib = 1024.0 * 1024.0;
      char time[32];
      if (r.seconds >= 1e-3)
        std::snprintf(time, sizeof time, "%7.2f ms", r.seconds * 1e3);
      else
        std::snprintf(time, sizeof time, "%7.2f us", r.seconds * 1e6);
      std::snprintf(ratio, sizeof ratio, "%.3gx", r.seconds / r.baseline);
      std::printf("   %-49s %10s %9s %8.1f %6llu %9.1f %8.1f %9.1f\n",
                  r.name.c_str(), time, ratio,
                  double(r.counters.bytesCopied) / mib,
                  (unsigned long long)r.counters.allocations,
                  double(r.counters.bytesAllocated) / mib,
                  double(r.counters.bytesCopyAvoided) / mib,
                  double(r.counters.peakManagedBytes) / mib);
    }
    std::printf(
        "\nratio: time over the first (non-borrowed) row of its group, same "
        "run.\ncounters: runtime counters of one repetition; 'avoided': "
        "bytes of copies and\nallocations that borrowing saved; 'peak mngd': "
        "peak of the managed space (shared\nvariables, runtime temporaries, "
        "reusable output buffers). The compiled code's own\nwork (writing "
        "y) is in the time, not in the counters.\n");
  }

private:
  int reps_;
  std::map<std::string, double> baselines_;
  std::vector<Row> rows_;
};

} // namespace

int main(int argc, char **argv) {
  int64_t mib = 256;
  int reps = 5;
  int calls = 200000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--mib=", 0) == 0)
      mib = std::atoll(a.c_str() + 6);
    else if (a.rfind("--reps=", 0) == 0)
      reps = std::atoi(a.c_str() + 7);
    else if (a.rfind("--calls=", 0) == 0)
      calls = std::atoi(a.c_str() + 8);
    else
      die("usage: tcc-bench-memory [--mib=256] [--reps=5] [--calls=200000]");
  }
  if (mib <= 0 || reps <= 0 || calls <= 0)
    die("--mib, --reps and --calls must be positive");
  const int64_t n = mib * 1024 * 1024 / 4;
  std::printf("tcc-bench-memory: f32[%lld] (%lld MiB), %d repetitions, "
              "median times\n",
              (long long)n, (long long)mib, reps);

  std::shared_ptr<const Program> program =
      bench::compileGraph(kGraph, "tcc-bench-memory");
  Bench bench(reps);
  Runtime runtime;
  check(runtime.load(program), "load");
  SharedStore &store = runtime.shared();
  Array user = filled(n, 1.0f);

  // shared(value, borrow)
  for (bool borrow : {false, true}) {
    bench.measure(
        "shared(value)",
        borrow ? "shared(value, borrow=true)" : "shared(value, borrow=false)",
        runtime, [&] { (void)store.erase("s"); },
        [&] { check(store.create("s", user, borrow), "create"); }, !borrow);
  }
  (void)store.erase("s");

  // get_value(borrow)
  SharedVariable *s =
      check(store.create("s", filled(n, 2.0f), /*borrow=*/true), "create");
  for (bool borrow : {false, true}) {
    Array got;
    bench.measure(
        "get_value", borrow ? "get_value(borrow=true)" : "get_value()", runtime,
        [&] { got = Array(); },
        [&] { got = check(s->getArray(borrow), "get_value"); }, !borrow);
  }

  // s.set_value(f(s.get_value(...)), ...) with f = 2 * x
  Function *twice = check(runtime.function("twice"), "function");
  Function *twiceInOut = check(runtime.function("twice_inout"), "function");
  bench.measure(
      "set_value(f(get_value()))", "set_value(twice(get_value()))", runtime,
      [] {},
      [&] {
        Array v = check(s->getArray(false), "get_value");
        Array r = check(twice->call({v}), "call")[0];
        check(s->setValue(r, false), "set_value");
      },
      true);
  bench.measure(
      "set_value(f(get_value()))",
      "set_value(twice_inout(get_value(borrow)), borrow)", runtime, [] {},
      [&] {
        Array v = check(s->getArray(true), "get_value");
        Array r = check(twiceInOut->call({v}), "call")[0];
        check(s->setValue(r, true), "set_value");
      });
  (void)store.erase("s");

  // y = 2 * x, each variant in a runtime of its own so that the managed
  // space holds only its own buffers.
  struct Variant {
    const char *name, *function;
  };
  for (Variant v :
       {Variant{"y = 2*x: In(x), Out(y)", "twice"},
        Variant{"y = 2*x: In(x, borrow), Out(y)", "twice_in"},
        Variant{"y = 2*x: In(x), Out(y, borrow)", "twice_out"},
        Variant{"y = 2*x: In(x, borrow), Out(y, borrow)", "twice_inout"}}) {
    Runtime own;
    check(own.load(program), "load");
    Function *f = check(own.function(v.function), "function");
    Array x = filled(n, 1.5f);
    (void)check(f->call({x}), "warm-up call"); // borrowed buffers exist
    Array y;
    bench.measure(
        "y = 2*x", v.name, own, [&] { y = Array(); },
        [&] { y = check(f->call({x}), "call")[0]; },
        std::string(v.function) == "twice");
  }
  user = Array();

  // Call overhead.
  Array scalar = check(Array::full(DType::F32, {}, 1.0), "scalar");
  bench.callOverhead("tiny: In(x), Out(y)",
                     *check(runtime.function("tiny"), "function"), scalar,
                     calls);
  bench.callOverhead("tiny: In(x), Out(y, borrow)",
                     *check(runtime.function("tiny_out"), "function"), scalar,
                     calls);
  bench.callOverhead("tiny: In(x, borrow), Out(y, borrow)",
                     *check(runtime.function("tiny_inout"), "function"), scalar,
                     calls);
  runtime.setDebug(true);
  bench.callOverhead("tiny: In(x), Out(y), debug mode",
                     *check(runtime.function("tiny"), "function"), scalar,
                     calls / 10);
  runtime.setDebug(false);

  bench.print();
  return 0;
}
