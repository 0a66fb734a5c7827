#!/usr/bin/env python3
"""ZeRO stage 1 end to end: sharded Adam moments train as whole ones.

Trains a small MLP with Adam (bias-corrected, its step count a replicated
scalar) for K steps with `tcc run --batches`, once in one process with batch
B and the moments whole, then under scripts/mpirun-local with
`--data-parallel` on each given number of ranks with the eight moments
marked `sharded` (each rank holds ceil(d/N) of their d rows; the gradients
are reduce_scattered and the weights all_gathered). Rows that do not divide
by N are padded: on 3 ranks every moment is (8 rows as 3 + 3 + 2 and a
padding row), and the output layer's 2 rows leave ranks 2 and 3 of 4 only
padding. The shared variables rank 0 saves (the sharded ones gathered whole,
without padding) must match the single process's: f64 to 1e-12 and f32 to
1e-5, relative to each variable's largest value. `tcc run --data-parallel`
compares the replicated variables across ranks after every step and fails
when they differ. `--stats` must show each rank holding ceil(d/N) rows of
the moments and what the padding costs. Then the round trip: every job
size resumes from the file another job size saved (`--shared`, whole values
split into padded blocks) for K more steps, against one process resuming
from the same file. Exits 77 (skipped) without mpirun.

Usage: zero_sharded.py TCC MPIRUN_LOCAL DTYPE NP...
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

GRAPH = """tg 1
shared W1 : {t}[8, 16] = normal(seed=1, std=0.4)
shared b1 : {t}[16] = zeros
shared W2 : {t}[16, 2] = normal(seed=2, std=0.4)
shared b2 : {t}[2] = zeros
shared t : {t}[] = zeros
shared mW1 : {t}[8, 16] = zeros{s}
shared vW1 : {t}[8, 16] = zeros{s}
shared mb1 : {t}[16] = zeros{s}
shared vb1 : {t}[16] = zeros{s}
shared mW2 : {t}[16, 2] = zeros{s}
shared vW2 : {t}[16, 2] = zeros{s}
shared mb2 : {t}[2] = zeros{s}
shared vb2 : {t}[2] = zeros{s}

func step(x : {t}[N, 8], y : {t}[N, 2], lr : {t}[]) -> (loss : {t}[]) {{
  h = tanh(matmul(x, W1) + b1)
  loss = -mean(sum(y * log_softmax(matmul(h, W2) + b2, axis=1), axis=1))
  gW1, gb1, gW2, gb2 = grad(loss, [W1, b1, W2, b2])
  n = t + 1
  a = lr * sqrt(1 - 0.999 ** n) / (1 - 0.9 ** n)
  nmW1 = 0.9 * mW1 + 0.1 * gW1
  nvW1 = 0.999 * vW1 + 0.001 * gW1 * gW1
  nmb1 = 0.9 * mb1 + 0.1 * gb1
  nvb1 = 0.999 * vb1 + 0.001 * gb1 * gb1
  nmW2 = 0.9 * mW2 + 0.1 * gW2
  nvW2 = 0.999 * vW2 + 0.001 * gW2 * gW2
  nmb2 = 0.9 * mb2 + 0.1 * gb2
  nvb2 = 0.999 * vb2 + 0.001 * gb2 * gb2
  updates {{
    t = n
    mW1 = nmW1
    vW1 = nvW1
    mb1 = nmb1
    vb1 = nvb1
    mW2 = nmW2
    vW2 = nvW2
    mb2 = nmb2
    vb2 = nvb2
    W1 = W1 - a * nmW1 / (sqrt(nvW1) + 1e-3)
    b1 = b1 - a * nmb1 / (sqrt(nvb1) + 1e-3)
    W2 = W2 - a * nmW2 / (sqrt(nvW2) + 1e-3)
    b2 = b2 - a * nmb2 / (sqrt(nvb2) + 1e-3)
  }}
}}
"""

# Batches of 24 rows split evenly over 1, 2, 3 and 4 ranks.
ROWS, BATCH, STEPS = 72, 24, 6
TOLERANCE = {"f64": 1e-12, "f32": 1e-5}
# The moments' (rows, elements per row), each twice (m and v).
MOMENTS = [(8, 16), (16, 1), (16, 2), (2, 1)]


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def main():
    tcc, mpirun, dtype = sys.argv[1], sys.argv[2], sys.argv[3]
    ranks = [int(n) for n in sys.argv[4:]]
    code, out = run([mpirun, "-np", "1", "true"])
    if code == 77:
        print(out.strip())
        return 77
    np_type = np.float64 if dtype == "f64" else np.float32
    work = tempfile.mkdtemp(prefix="tcc-zero-")
    for name, mark in [("whole", ""), ("sharded", " sharded")]:
        with open(os.path.join(work, name + ".tg"), "w") as f:
            f.write(GRAPH.format(t=dtype, s=mark))
    rng = np.random.default_rng(11)
    x = rng.normal(size=(ROWS, 8)).astype(np_type)
    labels = (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype(int)
    y = np.eye(2, dtype=np_type)[labels]
    np.savez(os.path.join(work, "data.npz"), x=x, y=y)
    np.save(os.path.join(work, "lr.npy"), np.array(0.05, dtype=np_type))
    common = ["--function=step", "--batches=" + os.path.join(
        work, "data.npz"), "--batch-size=%d" % BATCH, "--repeat=%d" % STEPS,
        "--shuffle=3", "--input=lr=" + os.path.join(work, "lr.npy"),
        "--no-cache", "--output-dir=" + work]

    def single(saved, *extra):
        code, out = run([tcc, "run", os.path.join(work, "whole.tg")] +
                        common + list(extra) + ["--save-shared=" + saved])
        if code:
            print("the single-process run failed:\n" + out)
        return code

    def compare(label, expected, saved):
        got = np.load(saved)
        failures = 0
        for name in expected.files:
            scale = max(np.abs(expected[name]).max(), 1e-300)
            same_shape = got[name].shape == expected[name].shape
            error = np.abs(got[name].astype(np.float64) -
                           expected[name]).max() / scale if same_shape else 1
            ok = same_shape and error <= TOLERANCE[dtype]
            print("%s %s %s%s: relative error %.3g (bound %g) %s" %
                  (label, dtype, name, list(got[name].shape), error,
                   TOLERANCE[dtype], "ok" if ok else "FAIL"))
            failures += not ok
        return failures

    base = os.path.join(work, "one.npz")
    if single(base):
        return 1
    expected = np.load(base)
    failures = 0
    size = np.dtype(np_type).itemsize
    for n in ranks:
        saved = os.path.join(work, "np%d.npz" % n)
        code, out = run([mpirun, "-np", str(n), tcc, "run",
                         os.path.join(work, "sharded.tg")] + common +
                        ["--data-parallel", "--stats",
                         "--save-shared=" + saved])
        if code:
            print("-np %d failed:\n%s" % (n, out))
            failures += 1
            continue
        failures += compare("-np %d" % n, expected, saved)
        # Each rank holds ceil(d/N) rows of each moment; the padding is what
        # the N blocks hold beyond the whole.
        block = sum(2 * -(-d // n) * row for d, row in MOMENTS) * size
        whole = sum(2 * d * row for d, row in MOMENTS) * size
        held = re.search(r"the 8 sharded ones hold (\d+) bytes of their "
                         r"(\d+) \(1/(\d+)(?:, rows padded to a multiple of "
                         r"\d+: (\d+) bytes of padding across the \d+ "
                         r"ranks)?\)", out)
        want = (block, whole, n, n * block - whole)
        got_memory = tuple(int(g or 0) for g in held.groups()) if held else None
        print("-np %d: moments per rank, whole, 1/N, padding %s, expected %s %s"
              % (n, got_memory, want, "ok" if got_memory == want else "FAIL"))
        failures += got_memory != want

    # The round trip: each job size resumes from the file another one saved
    # (whole values, split into its own padded blocks) for K more steps,
    # against one process resuming from the same file (f32 Adam would
    # amplify the files' own differences past the bound).
    for i, n in enumerate(ranks):
        source = os.path.join(work, "np%d.npz" % ranks[i - 1])
        if not os.path.exists(source):
            continue
        again = os.path.join(work, "one-again%d.npz" % n)
        if single(again, "--shared=" + source):
            return 1
        saved = os.path.join(work, "np%d-again.npz" % n)
        code, out = run([mpirun, "-np", str(n), tcc, "run",
                         os.path.join(work, "sharded.tg")] + common +
                        ["--data-parallel", "--shared=" + source,
                         "--save-shared=" + saved])
        if code:
            print("-np %d resuming failed:\n%s" % (n, out))
            failures += 1
            continue
        failures += compare("-np %d from -np %d's file" % (n, ranks[i - 1]),
                            np.load(again), saved)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
