//===- AllreduceBench.cpp - tcc's all_reduce against raw MPI_Allreduce ----===//
//
// tcc-bench-allreduce, run under mpirun (scripts/mpirun-local -np N): for
// f32 sums of 1 KiB to 64 MiB per rank, the median time of MPI_Allreduce
// called directly and of tcc's two all_reduce paths, called in turn:
//   out of place  Communicator::allReduce (a blocking collective of compiled
//                 code: MPI_Iallreduce polled with a timeout);
//   in place      startAllReduce + wait (a bucket of gradients), against
//                 MPI_Allreduce(MPI_IN_PLACE).
// tcc starts MPI here (mpiWorld), so the run has the settings a tcc job has
// (libtcc_mpi.so's default iallreduce algorithm); set
// OMPI_MCA_coll_libnbc_iallreduce_algorithm=0 to see Open MPI's own default.
// Bus bandwidth is 2 (N-1)/N * bytes / time, as NCCL's tests report it; the
// ratio is MPI's time over tcc's. Rank 0 prints one row per size.
//
//===----------------------------------------------------------------------===//

#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include "runtime/dist/Communicator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

using namespace tcc;

namespace {

/// The seconds of one call of `run`, every rank waiting for the slowest.
template <class F> double timeOnce(F run) {
  MPI_Barrier(MPI_COMM_WORLD);
  auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// The median times of `a` and `b` over `reps` repetitions, called in
/// turn (a, b, a, b, ...) so that a shared machine's load falls on both
/// alike.
template <class A, class B>
std::pair<double, double> medianSecondsInTurn(int reps, A a, B b) {
  std::vector<double> times[2];
  for (int i = 0; i < reps; ++i) {
    times[0].push_back(timeOnce(a));
    times[1].push_back(timeOnce(b));
  }
  double medians[2];
  for (int k = 0; k < 2; ++k) {
    // Every rank takes the slowest rank's time of each repetition.
    MPI_Allreduce(MPI_IN_PLACE, times[k].data(), int(times[k].size()),
                  MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    std::sort(times[k].begin(), times[k].end());
    medians[k] = times[k][times[k].size() / 2];
  }
  return {medians[0], medians[1]};
}

} // namespace

/// Fails the job on an error of tcc's communicator.
void check(const Status &s) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.toString().c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

int main() {
  Result<Communicator *> world = mpiWorld(); // starts MPI, as a tcc job does
  if (!world.ok()) {
    std::fprintf(stderr, "%s\n", world.status().toString().c_str());
    return 1;
  }
  Communicator &comm = **world;
  int rank = comm.rank(), size = comm.size();
  if (rank == 0)
    std::printf("ranks %d, f32 (sum out of place, max in place); ratio = MPI "
                "time / tcc time\n"
                "%10s | %9s %9s %8s %6s | %9s %9s %8s %6s\n",
                size, "", "out of", "place", "", "", "in place", "(buckets)",
                "", "");
  if (rank == 0)
    std::printf("%10s | %9s %9s %8s %6s | %9s %9s %8s %6s\n", "bytes", "MPI us",
                "tcc us", "tcc GB/s", "ratio", "MPI us", "tcc us", "tcc GB/s",
                "ratio");
  for (size_t bytes = 1024; bytes <= (size_t(64) << 20); bytes *= 4) {
    size_t count = bytes / sizeof(float);
    std::vector<float> send(count, float(rank + 1)), recv(count);
    int reps = bytes >= (size_t(16) << 20) ? 7 : 25;
    auto [mpi, ours] = medianSecondsInTurn(
        reps,
        [&] {
          MPI_Allreduce(send.data(), recv.data(), int(count), MPI_FLOAT,
                        MPI_SUM, MPI_COMM_WORLD);
        },
        [&] {
          check(comm.allReduce(send.data(), recv.data(), count, DType::F32,
                               ReduceOp::Sum));
        });
    auto [mpiInPlace, oursInPlace] = medianSecondsInTurn(
        reps,
        [&] {
          MPI_Allreduce(MPI_IN_PLACE, recv.data(), int(count), MPI_FLOAT,
                        MPI_MAX, MPI_COMM_WORLD);
        },
        [&] {
          Result<int64_t> request = comm.startAllReduce(
              recv.data(), count, DType::F32, ReduceOp::Max);
          check(request.status());
          check(comm.wait(request.value()));
        });
    double bus = size > 1 ? 2.0 * (size - 1) / size * double(bytes) : bytes;
    if (rank == 0)
      std::printf("%10zu | %9.1f %9.1f %8.2f %6.2f | %9.1f %9.1f %8.2f %6.2f\n",
                  bytes, mpi * 1e6, ours * 1e6, bus / ours / 1e9, mpi / ours,
                  mpiInPlace * 1e6, oursInPlace * 1e6, bus / oursInPlace / 1e9,
                  mpiInPlace / oursInPlace);
  }
  return 0; // libtcc_mpi.so finalizes MPI at exit
}
