#!/usr/bin/env python3
"""Gathers: tcc's take/one_hot/scatter_add against numpy in one run.

The embedding lookup is the workload that motivated `take`: before it, a
graph file had to multiply a one-hot matrix by the table, at O(N*V*D)
instead of O(N*D). Each function runs through `tcc run --repeat=N` (time per
call, compile time excluded, ids checked in every call) and numpy computes
the same in this process (best of 3 batches). Not a test: timings depend on
the machine and its load.

    /usr/bin/python3 bench/indexing_vs_numpy.py [--tcc build/bin/tcc] [--quick]
"""
import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from cpu_vs_numpy import time_numpy, time_tcc  # noqa: E402

GRAPH = """tg 1
func embed(E : f32[V, D], ids : i32[B, T]) -> (h : f32[B, T, D]) {
  h = take(E, ids)
}
func embed_onehot(E : f32[%(V)d, D], ids : i32[B, T]) -> (h : f32[B, T, D]) {
  h = matmul(one_hot(ids, %(V)d), E)
}
func embed_grad(E : f32[V, D], ids : i32[B, T], g : f32[B, T, D]) -> (d : f32[V, D]) {
  d = scatter_add(E, ids, g)
}
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcc", default=os.path.join(
        os.path.dirname(__file__), "..", "build", "bin", "tcc"))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 3 if args.quick else 10
    rng = np.random.default_rng(0)
    v, d, b, t = (2000, 256, 8, 128) if args.quick else (8000, 512, 16, 256)
    E = rng.standard_normal((v, d), dtype=np.float32)
    ids = rng.integers(0, v, (b, t), dtype=np.int32)
    g = rng.standard_normal((b, t, d), dtype=np.float32)

    def add_at():
        out = E.copy()
        np.add.at(out, ids, g)
        return out

    work = [
        ("embed", "take %dx%d at %dx%d ids" % (v, d, b, t),
         dict(E=E, ids=ids), lambda: E[ids]),
        ("embed_onehot", "one_hot(ids) @ E (the old way)",
         dict(E=E, ids=ids), lambda: np.eye(v, dtype=np.float32)[ids] @ E),
        ("embed_grad", "scatter_add (np.add.at)", dict(E=E, ids=ids, g=g),
         add_at),
    ]
    with tempfile.TemporaryDirectory() as folder:
        graph = os.path.join(folder, "bench.tg")
        with open(graph, "w") as f:
            f.write(GRAPH % dict(V=v))
        print("%-14s %-34s %10s %10s %9s" % ("function", "workload", "tcc ms",
                                              "numpy ms", "numpy/tcc"))
        for name, what, inputs, reference in work:
            ours = time_tcc(args.tcc, graph, name, inputs, repeat, folder)
            theirs = time_numpy(reference, repeat)
            print("%-14s %-34s %10.3f %10.3f %9.2f" % (name, what, ours, theirs,
                                                      theirs / ours))


if __name__ == "__main__":
    main()
