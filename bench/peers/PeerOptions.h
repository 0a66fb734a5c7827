//===- PeerOptions.h - the command line and sizes of the C++ peers --------===//
//
//   PROGRAM --threads=T [--reps=11] [--quick]
//
// T is the thread count the program uses and reports (its own threads,
// OpenBLAS's, Eigen's); the environment that pins the other pools is set by
// bench/peers/run. --quick shrinks every workload, for a smoke test.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_BENCH_PEERS_PEEROPTIONS_H
#define TCC_BENCH_PEERS_PEEROPTIONS_H

#include "PeerTiming.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace bench {

/// The workloads' sizes (bench/peers/python_peers.py uses the same).
struct PeerOptions {
  int threads = 1;
  int reps = 11;           ///< timed runs per workload, after a warm-up
  int64_t chain = 1 << 24; ///< elements of the tanh chain
  int64_t squares = 1 << 24;
  int64_t softmax = 4096;   ///< rows and columns
  int64_t gemm = 1024;      ///< m = k = n of sgemm
  int64_t dense = 512;      ///< m = k = n of relu(x @ w + b)
  int64_t mlp = 1024;       ///< every dimension of the MLP
  int64_t twice = 64 << 20; ///< elements of y = 2 * x (256 MiB of f32)
  int calls = 20000;        ///< calls per batch for the call overhead
  int compileReps = 5;      ///< cold compiles
};

inline PeerOptions parsePeerOptions(int argc, char **argv, const char *tool) {
  PeerOptions o;
  bool threadsGiven = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--threads=", 0) == 0) {
      o.threads = std::atoi(a.c_str() + 10);
      threadsGiven = true;
    } else if (a.rfind("--reps=", 0) == 0) {
      o.reps = std::atoi(a.c_str() + 7);
    } else if (a == "--quick") {
      o.chain = o.squares = 1 << 16;
      o.softmax = 256;
      o.gemm = 128;
      o.dense = 64;
      o.mlp = 128;
      o.twice = 1 << 18;
      o.calls = 1000;
      o.compileReps = 1;
    } else {
      threadsGiven = false;
      break;
    }
  }
  if (!threadsGiven || o.threads < 1 || o.reps < 1) {
    std::fprintf(stderr, "usage: %s --threads=T [--reps=11] [--quick]\n", tool);
    std::exit(2);
  }
  cpuClock = o.threads == 1;
  return o;
}

} // namespace bench

#endif // TCC_BENCH_PEERS_PEEROPTIONS_H
