#!/usr/bin/env python3
"""Gathers and scans: tcc's take/one_hot/scatter_add/cumsum/cumprod against
numpy in one run.

The embedding lookup is the workload that motivated `take`: before it, a
graph file had to multiply a one-hot matrix by the table, at O(N*V*D)
instead of O(N*D). The scans are numpy's cumsum/cumprod along either axis.
Each function runs through `tcc run --repeat=N` (time per call, compile
time excluded, ids checked in every call) and numpy computes the same in
this process; the two alternate, batch by batch, and each column is the
median of the batches, so that the ratio compares the same moments of a
shared machine. `tcc/numpy` is how many times slower tcc is (below 1:
faster). Not a test: timings depend on the machine and its load.

    /usr/bin/python3 bench/indexing_vs_numpy.py [--tcc build/bin/tcc] [--quick]
                                                [--only take|scan|...]
"""
import argparse
import os
import statistics
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from cpu_vs_numpy import time_numpy, time_tcc  # noqa: E402

GRAPH = """tg 1
func embed(E : f32[V, D], ids : i32[B, T]) -> (h : f32[B, T, D]) {
  h = take(E, ids)
}
func lookup(E : f32[V, D], ids : i32[N]) -> (h : f32[N, D]) {
  h = take(E, ids)
}
func embed_onehot(E : f32[%(V)d, D], ids : i32[B, T]) -> (h : f32[B, T, D]) {
  h = matmul(one_hot(ids, %(V)d), E)
}
func embed_grad(E : f32[V, D], ids : i32[B, T], g : f32[B, T, D]) -> (d : f32[V, D]) {
  d = scatter_add(E, ids, g)
}
func cumsum0(x : f32[N, M]) -> (y : f32[N, M]) { y = cumsum(x, axis=0) }
func cumsum1(x : f32[N, M]) -> (y : f32[N, M]) { y = cumsum(x, axis=1) }
func cumprod0(x : f32[N, M]) -> (y : f32[N, M]) { y = cumprod(x, axis=0) }
func cumprod1(x : f32[N, M]) -> (y : f32[N, M]) { y = cumprod(x, axis=1) }
"""


def workloads(quick, rng):
    v, d, b, t = (2000, 256, 8, 128) if quick else (8000, 512, 16, 256)
    E = rng.standard_normal((v, d), dtype=np.float32)
    ids = rng.integers(0, v, (b, t), dtype=np.int32)
    g = rng.standard_normal((b, t, d), dtype=np.float32)

    def add_at():
        out = E.copy()
        np.add.at(out, ids, g)
        return out

    work = [
        ("embed", "take", "take %dx%d at %dx%d ids" % (v, d, b, t),
         dict(E=E, ids=ids), lambda: E[ids]),
    ]
    lookups = [(1000, 64, 256)] + ([] if quick else [(50000, 512, 4096)])
    for lv, ld, ln in lookups:
        table = rng.standard_normal((lv, ld), dtype=np.float32)
        rows = rng.integers(0, lv, (ln,), dtype=np.int32)
        work.append(("lookup", "take", "take %dx%d at %d ids" % (lv, ld, ln),
                     dict(E=table, ids=rows),
                     lambda table=table, rows=rows: np.take(table, rows,
                                                            axis=0)))
    work += [
        ("embed_onehot", "onehot", "one_hot(ids) @ E (the old way)",
         dict(E=E, ids=ids), lambda: np.eye(v, dtype=np.float32)[ids] @ E),
        ("embed_grad", "scatter", "scatter_add (np.add.at)",
         dict(E=E, ids=ids, g=g), add_at),
    ]
    for n, m in [(64, 1024)] + ([] if quick else [(1024, 1024)]):
        x = rng.uniform(0.999, 1.001, (n, m)).astype(np.float32)
        for op, fn in (("cumsum", np.cumsum), ("cumprod", np.cumprod)):
            for axis in (0, 1):
                work.append(("%s%d" % (op, axis), "scan",
                             "%s [%d,%d] axis %d" % (op, n, m, axis),
                             dict(x=x),
                             lambda fn=fn, x=x, axis=axis: fn(x, axis=axis)))
    return work


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcc", default=os.path.join(
        os.path.dirname(__file__), "..", "build", "bin", "tcc"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", help="take, onehot, scatter or scan")
    parser.add_argument("--batches", type=int, default=5,
                        help="alternating tcc/numpy batches per workload")
    args = parser.parse_args()
    repeat = 3 if args.quick else 10
    rng = np.random.default_rng(0)
    work = workloads(args.quick, rng)
    v = work[0][3]["E"].shape[0]
    with tempfile.TemporaryDirectory() as folder:
        graph = os.path.join(folder, "bench.tg")
        with open(graph, "w") as f:
            f.write(GRAPH % dict(V=v))
        print("%-14s %-34s %10s %10s %9s" % ("function", "workload", "tcc ms",
                                              "numpy ms", "tcc/numpy"))
        for name, kind, what, inputs, reference in work:
            if args.only and kind != args.only:
                continue
            ours, theirs = [], []
            for _ in range(args.batches):
                ours.append(time_tcc(args.tcc, graph, name, inputs, repeat,
                                     folder))
                theirs.append(time_numpy(reference, repeat))
            a, b = statistics.median(ours), statistics.median(theirs)
            print("%-14s %-34s %10.3f %10.3f %9.2f" % (name, what, a, b, a / b),
                  flush=True)


if __name__ == "__main__":
    main()
