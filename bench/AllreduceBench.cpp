//===- AllreduceBench.cpp - tcc's all_reduce against raw MPI_Allreduce ----===//
//
// tcc-bench-allreduce, run under mpirun (scripts/mpirun-local -np N): for
// f32 sums of 1 KiB to 64 MiB per rank, the median time of MPI_Allreduce
// called directly and of tcc's Communicator::allReduce (libtcc_mpi.so:
// MPI_Iallreduce polled with a timeout), called in turn, with the bus
// bandwidth 2 (N-1)/N * bytes / time that NCCL's tests report, and their
// ratio.
// Rank 0 prints one row per size.
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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Result<Communicator *> world = mpiWorld();
  if (!world.ok()) {
    std::fprintf(stderr, "%s\n", world.status().toString().c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  Communicator &comm = **world;
  if (rank == 0)
    std::printf("ranks %d, f32 sum\n%10s %12s %12s %12s %12s %7s\n", size,
                "bytes", "MPI us", "tcc us", "MPI GB/s", "tcc GB/s", "ratio");
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
          Status s = comm.allReduce(send.data(), recv.data(), count, DType::F32,
                                    ReduceOp::Sum);
          if (!s.ok()) {
            std::fprintf(stderr, "%s\n", s.toString().c_str());
            MPI_Abort(MPI_COMM_WORLD, 1);
          }
        });
    double bus = size > 1 ? 2.0 * (size - 1) / size * double(bytes) : bytes;
    if (rank == 0)
      std::printf("%10zu %12.1f %12.1f %12.2f %12.2f %7.2f\n", bytes, mpi * 1e6,
                  ours * 1e6, bus / mpi / 1e9, bus / ours / 1e9, mpi / ours);
  }
  MPI_Finalize();
  return 0;
}
