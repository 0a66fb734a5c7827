//===- ProgressBench.cpp - does a started all_reduce move on by itself? ---===//
//
// tcc-bench-progress, run under mpirun (scripts/mpirun-local -np N): for f32
// sums of 256 KiB to 16 MiB per rank, the median time of
//  - a blocking Communicator::allReduce;
//  - a bucket's pattern: startAllReduce, then computation without any MPI
//    call for twice that time (a stand-in for the rest of the backward
//    pass), then wait(): the time spent in wait() is what the computation
//    did not hide.
// If Open MPI moved the reduction on while the rank computes, the wait
// would be near zero; if it only moves inside MPI calls, the wait is about
// the blocking time. Run it with TCC_MPI_PROGRESS_THREAD=1 to see what the
// runtime's progress thread (MpiBackend.cpp) changes. Rank 0 prints a row
// per size. bench/dist/overlap.sh runs both; docs/distributed.md.
//
//===----------------------------------------------------------------------===//

#include "runtime/dist/Communicator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace tcc;
using Clock = std::chrono::steady_clock;

namespace {

/// Stops the bench on a failed collective.
void check(const Status &s) {
  if (s.ok())
    return;
  std::fprintf(stderr, "%s\n", s.toString().c_str());
  std::exit(1);
}

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Arithmetic on `work` for `seconds`, with no MPI call.
float compute(std::vector<float> &work, double seconds) {
  auto start = Clock::now();
  float sum = 0;
  while (since(start) < seconds)
    for (float &w : work) {
      w = w * 0.999f + 0.001f;
      sum += w;
    }
  return sum;
}

/// The slowest rank's time of each repetition, median over repetitions.
double median(Communicator &comm, std::vector<double> times) {
  check(comm.allReduce(times.data(), times.data(), times.size(), DType::F64,
                       ReduceOp::Max));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace

int main() {
  Result<Communicator *> world = mpiWorld();
  if (!world.ok()) {
    std::fprintf(stderr, "%s\n", world.status().toString().c_str());
    return 1;
  }
  Communicator &comm = **world;
  const char *thread = std::getenv("TCC_MPI_PROGRESS_THREAD");
  bool threaded = thread && thread[0] == '1' && thread[1] == 0;
  if (comm.rank() == 0)
    std::printf("ranks %d, f32 sum, progress thread %s\n%10s %12s %12s %12s "
                "%8s\n",
                comm.size(), threaded ? "on" : "off", "bytes", "blocking us",
                "compute us", "exposed us", "hidden");
  std::vector<float> work(4096, 1.0f);
  float sink = 0;
  const int reps = 9;
  for (size_t bytes = 256 << 10; bytes <= (size_t(16) << 20); bytes *= 4) {
    std::vector<float> data(bytes / sizeof(float), 1.0f);
    std::vector<double> blocking, exposed;
    for (int i = 0; i < reps; ++i) {
      check(comm.barrier());
      auto start = Clock::now();
      check(comm.allReduce(data.data(), data.data(), data.size(), DType::F32,
                           ReduceOp::Sum));
      blocking.push_back(since(start));
    }
    double block = median(comm, blocking);
    double busy = 2 * block;
    for (int i = 0; i < reps; ++i) {
      check(comm.barrier());
      Result<int64_t> request = comm.startAllReduce(data.data(), data.size(),
                                                    DType::F32, ReduceOp::Sum);
      check(request.status());
      sink += compute(work, busy);
      auto start = Clock::now();
      check(comm.wait(request.value()));
      exposed.push_back(since(start));
    }
    double wait = median(comm, exposed);
    if (comm.rank() == 0)
      std::printf("%10zu %12.1f %12.1f %12.1f %7.0f%%\n", bytes, block * 1e6,
                  busy * 1e6, wait * 1e6,
                  100 * std::max(0.0, 1 - wait / block));
  }
  return sink == 12345.f; // keeps the computation
}
