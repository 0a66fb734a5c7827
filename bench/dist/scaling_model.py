#!/usr/bin/env python3
"""Predicted data-parallel scaling efficiency from measured step numbers.

Weak scaling: every rank keeps its batch, so a step's compute time T_c stays
what one process measures; N ranks add the time of reducing the gradients
that the backward pass did not hide. Per bucket of b bytes, an all_reduce
over N ranks on a network of bandwidth BW and per-message latency alpha
takes (Rabenseifner's reduce-scatter + all-gather, what MPI and NCCL use
for large messages)

    T(b, N) = 2 (N - 1) / N * b / BW + 2 log2(N) * alpha

Buckets are reduced one after the other, each starting when its last
gradient is written (at fraction f of the step, --bucket BYTES@F) and the
previous one is done; the step ends when compute and the last reduction
are both done. Efficiency = T_c / step time. Without overlap every bucket
waits for the end of compute (f = 1).

Usage: scaling_model.py --compute-ms MS [--gbit 25] [--latency-us 10]
                        [--bucket BYTES@F ...] [--ranks 8,64,512]
"""
import argparse
import math


def step_ms(compute_ms, buckets, ranks, bandwidth, latency):
    done = 0.0
    for size, ready in sorted(buckets, key=lambda b: b[1]):
        start = max(ready * compute_ms, done)
        done = start + 1e3 * (2 * (ranks - 1) / ranks * size / bandwidth +
                              2 * math.log2(ranks) * latency)
    return max(compute_ms, done)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--compute-ms", type=float, required=True)
    p.add_argument("--gbit", type=float, default=25.0)
    p.add_argument("--latency-us", type=float, default=10.0)
    p.add_argument("--bucket", action="append", default=[],
                   help="BYTES@F: a bucket of BYTES ready at fraction F")
    p.add_argument("--ranks", default="8,64,512")
    a = p.parse_args()
    buckets = [(int(b.split("@")[0]), float(b.split("@")[1]))
               for b in a.bucket]
    total = sum(b for b, _ in buckets)
    bandwidth = a.gbit * 1e9 / 8
    latency = a.latency_us * 1e-6
    print("%d bytes per step in %d buckets, compute %.2f ms, %g Gbit/s, "
          "%g us latency" % (total, len(buckets), a.compute_ms, a.gbit,
                             a.latency_us))
    print("%6s %14s %14s %12s %12s" % ("ranks", "no overlap ms",
                                       "overlap ms", "efficiency",
                                       "overlapped"))
    for n in [int(r) for r in a.ranks.split(",")]:
        blocking = step_ms(a.compute_ms, [(total, 1.0)], n, bandwidth,
                           latency)
        overlapped = step_ms(a.compute_ms, buckets, n, bandwidth, latency)
        print("%6d %14.3f %14.3f %11.1f%% %11.1f%%" %
              (n, blocking, overlapped, 100 * a.compute_ms / blocking,
               100 * a.compute_ms / overlapped))


if __name__ == "__main__":
    main()
