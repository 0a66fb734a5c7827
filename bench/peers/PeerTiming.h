//===- PeerTiming.h - how the C++ peers time a workload and report it -----===//
//
// Every program of bench/peers times the same way and prints its results as
// tab-separated lines that bench/peers/table.py gathers into one table:
//   RESULT <workload> <peer> <threads> <seconds>
//   NOTE <text>
// At 1 thread the times are the process's CPU time, user and system, every
// thread's (CLOCK_PROCESS_CPUTIME_ID): on a shared machine, time spent
// waiting for a CPU is not the workload's. At more threads they are
// wall-clock (steady_clock): what matters there is the elapsed time.
//===----------------------------------------------------------------------===//

#ifndef TCC_BENCH_PEERS_PEERTIMING_H
#define TCC_BENCH_PEERS_PEERTIMING_H

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <time.h>
#include <vector>

namespace bench {

/// Whether seconds() reads the process's CPU time (1 thread) rather than
/// the wall clock; main() sets it from --threads.
inline bool cpuClock = false;

inline double seconds() {
  if (cpuClock) {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
  }
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// The median of `reps` timed runs of `body`, after one untimed run (it
/// loads libraries, starts threads and takes the first page faults).
template <class Body> double medianSeconds(int reps, Body body) {
  body();
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    double start = seconds();
    body();
    times.push_back(seconds() - start);
  }
  return median(times);
}

/// Seconds per call of a cheap `body`: the median over `reps` batches of
/// `calls` calls of each batch's mean, after 1000 untimed calls.
template <class Body> double perCallSeconds(int reps, int calls, Body body) {
  for (int i = 0; i < 1000; ++i)
    body();
  std::vector<double> means;
  for (int r = 0; r < reps; ++r) {
    double start = seconds();
    for (int i = 0; i < calls; ++i)
      body();
    means.push_back((seconds() - start) / calls);
  }
  return median(means);
}

inline void printResult(const char *workload, const char *peer, int threads,
                        double time) {
  std::printf("RESULT\t%s\t%s\t%d\t%.9g\n", workload, peer, threads, time);
  std::fflush(stdout);
}

inline void printNote(const std::string &text) {
  std::printf("NOTE\t%s\n", text.c_str());
}

/// The largest |got - want| over n floats, relative to the largest |want|
/// (at least 1); a peer that computes something else stops the benchmark.
inline void checkSame(const char *tool, const char *workload, const float *got,
                      const float *want, long long n, double tolerance) {
  double worst = 0, scale = 1;
  for (long long i = 0; i < n; ++i) {
    worst = std::max(worst, double(std::abs(got[i] - want[i])));
    scale = std::max(scale, double(std::abs(want[i])));
  }
  if (!(worst <= tolerance * scale)) {
    std::fprintf(stderr,
                 "%s: %s: the results differ from hand C's by %g (scale %g, "
                 "tolerance %g)\n",
                 tool, workload, worst, scale, tolerance);
    std::exit(1);
  }
}

} // namespace bench

#endif // TCC_BENCH_PEERS_PEERTIMING_H
