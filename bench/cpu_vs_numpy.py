#!/usr/bin/env python3
"""CPU benchmark: tcc against numpy (and OpenBLAS through numpy) in one run.

Each workload is a .tg function; tcc runs it through `tcc run --repeat=N`
(which reports the time per call, compile time excluded) and numpy computes
the same thing in this process, timed the same way (best of 3 batches).
The table prints tcc's time, numpy's, and the ratio numpy/tcc (>1: tcc is
faster). Not a test: timings depend on the machine and its load.

    /usr/bin/python3 bench/cpu_vs_numpy.py [--tcc build/bin/tcc] [--quick]
"""
import argparse
import os
import re
import subprocess
import tempfile
import time

import numpy as np

GRAPH = """tg 1
func chain(x : f32[N], a : f32[], b : f32[], c : f32[]) -> (y : f32[N]) {
  y = tanh(a * x + b) * c + x
}
func softmax_rows(x : f32[N, M]) -> (y : f32[N, M]) {
  y = softmax(x, axis=1)
}
func row_sum(x : f32[N, M]) -> (y : f32[N]) {
  y = sum(x, axis=1)
}
func matmul_bias_relu(x : f32[N, K], w : f32[K, M], b : f32[M]) -> (y : f32[N, M]) {
  y = relu(matmul(x, w) + b)
}
func mlp(x : f32[N, 784], w1 : f32[784, 256], b1 : f32[256],
         w2 : f32[256, 10], b2 : f32[10]) -> (p : f32[N, 10]) {
  p = softmax(matmul(relu(matmul(x, w1) + b1), w2) + b2, axis=1)
}
"""


def numpy_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def workloads(quick):
    rng = np.random.default_rng(0)
    n = 1 << (20 if quick else 24)
    f32 = np.float32
    x = rng.random(n, dtype=f32)
    a, b, c = f32(0.5), f32(0.1), f32(2.0)
    m = rng.random((1024 if quick else 4096, 1024), dtype=f32)
    xs, w, bias = (rng.random((512, 512), dtype=f32),
                   rng.random((512, 512), dtype=f32),
                   rng.random(512, dtype=f32))
    batch = rng.random((256, 784), dtype=f32)
    w1, b1 = rng.standard_normal((784, 256), dtype=f32) * 0.05, np.zeros(256, f32)
    w2, b2 = rng.standard_normal((256, 10), dtype=f32) * 0.05, np.zeros(10, f32)
    return [
        ("chain", "tanh(a*x+b)*c+x, %d" % n,
         dict(x=x, a=np.array(a), b=np.array(b), c=np.array(c)),
         lambda: np.tanh(a * x + b) * c + x),
        ("softmax_rows", "softmax %dx1024" % m.shape[0], dict(x=m),
         lambda: numpy_softmax(m)),
        ("row_sum", "sum axis=1 %dx1024" % m.shape[0], dict(x=m),
         lambda: m.sum(axis=1)),
        ("matmul_bias_relu", "relu(x@w+b) 512^3", dict(x=xs, w=w, b=bias),
         lambda: np.maximum(xs @ w + bias, 0)),
        ("mlp", "MLP 256x784->256->10", dict(x=batch, w1=w1, b1=b1, w2=w2, b2=b2),
         lambda: numpy_softmax(np.maximum(batch @ w1 + b1, 0) @ w2 + b2)),
    ]


def time_numpy(fn, repeat):
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e3


def time_tcc(tcc, graph, name, inputs, repeat, folder):
    args = [tcc, "run", graph, "--function=" + name, "--repeat=%d" % repeat,
            "--output-dir=" + folder]
    for key, value in inputs.items():
        path = os.path.join(folder, "%s_%s.npy" % (name, key))
        np.save(path, value)
        args.append("--input=%s=%s" % (key, path))
    best = float("inf")
    for _ in range(3):
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        best = min(best, float(re.search(r"([0-9.]+) ms per call", out).group(1)))
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcc", default=os.path.join(
        os.path.dirname(__file__), "..", "build", "bin", "tcc"))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 3 if args.quick else 10
    with tempfile.TemporaryDirectory() as folder:
        graph = os.path.join(folder, "bench.tg")
        with open(graph, "w") as f:
            f.write(GRAPH)
        print("%-18s %-28s %10s %10s %9s" % ("function", "workload", "tcc ms",
                                              "numpy ms", "numpy/tcc"))
        for name, what, inputs, reference in workloads(args.quick):
            ours = time_tcc(args.tcc, graph, name, inputs, repeat, folder)
            theirs = time_numpy(reference, repeat)
            print("%-18s %-28s %10.3f %10.3f %9.2f" % (name, what, ours, theirs,
                                                      theirs / ours))


if __name__ == "__main__":
    main()
