//===- SplitRange.h - a loop split over threads, for the peers ------------===//
//
// The hand C and Eigen peers split their loops the same way: [0, n) in
// `threads` equal parts, one per thread, the calling thread taking the
// first. Threads are started per call, as a plain C program would.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_BENCH_PEERS_SPLITRANGE_H
#define TCC_BENCH_PEERS_SPLITRANGE_H

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace bench {

/// Runs body(lo, hi, part) over [0, n) split into `threads` parts.
template <class Body> void splitRange(int64_t n, int threads, Body body) {
  if (threads <= 1) {
    body(int64_t(0), n, 0);
    return;
  }
  std::vector<std::thread> workers;
  int64_t part = (n + threads - 1) / threads;
  for (int t = 1; t < threads; ++t) {
    int64_t lo = std::min(n, t * part), hi = std::min(n, lo + part);
    workers.emplace_back([=] { body(lo, hi, t); });
  }
  body(0, std::min(n, part), 0);
  for (std::thread &w : workers)
    w.join();
}

} // namespace bench

#endif // TCC_BENCH_PEERS_SPLITRANGE_H
