#!/usr/bin/env python3
"""Data parallelism end to end: N ranks with batch B/N match 1 rank with B.

Trains a small MLP (momentum SGD, the gradients from `grad`) for K steps
with `tcc run --batches`, once in one process with batch size B, then under
scripts/mpirun-local with `--data-parallel` on 1, 2 and 4 ranks (each rank
takes B/N rows of every batch, shuffled alike). The shared variables that
rank 0 saves must match the single process's: f64 to 1e-12 and f32 to 1e-5,
relative to each variable's largest value. `tcc run --data-parallel` itself
compares a hash of every replica across ranks after every step and fails
when they differ, which a second graph (updates that depend on the rank)
must trigger. Exits 77 (skipped) without mpirun.

With `buckets` instead of the rank counts, runs 2 and 4 ranks once per gradient
bucket size (--bucket-bytes: 0, one blocking all_reduce per gradient; 600,
three gradients in one bucket and W1's in another; 25 MiB, one bucket) and
requires the same bits from each: where the gradients sit and when their
reductions start must not change what they sum to.

Usage: data_parallel.py TCC MPIRUN_LOCAL DTYPE NP...
       data_parallel.py TCC MPIRUN_LOCAL DTYPE buckets
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

GRAPH = """tg 1
shared W1 : {t}[8, 16] = normal(seed=1, std=0.4)
shared b1 : {t}[16] = zeros
shared W2 : {t}[16, 3] = normal(seed=2, std=0.4)
shared b2 : {t}[3] = zeros
shared vW1 : {t}[8, 16] = zeros
shared vW2 : {t}[16, 3] = zeros

func step(x : {t}[N, 8], y : {t}[N, 3], lr : {t}[]) -> (loss : {t}[]) {{
  h = tanh(matmul(x, W1) + b1)
  loss = -mean(sum(y * log_softmax(matmul(h, W2) + b2, axis=1), axis=1))
  gW1, gb1, gW2, gb2 = grad(loss, [W1, b1, W2, b2])
  updates {{
    vW1 = 0.9 * vW1 - lr * gW1
    vW2 = 0.9 * vW2 - lr * gW2
    W1 = W1 + 0.9 * vW1 - lr * gW1
    b1 = b1 - lr * gb1
    W2 = W2 + 0.9 * vW2 - lr * gW2
    b2 = b2 - lr * gb2
  }}
}}
"""

# Updates that depend on the rank: the replicas drift apart.
DRIFT = """tg 1
shared c : i64[] = zeros
func step(x : {t}[N, 8], y : {t}[N, 3]) -> (n : i64[]) {{
  n = size(x, 0) + size(y, 0)
  updates {{
    c = c + process_rank()
  }}
}}
"""

ROWS, BATCH, STEPS = 96, 16, 8
TOLERANCE = {"f64": 1e-12, "f32": 1e-5}


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    return result.returncode, result.stdout + result.stderr


def main():
    tcc, mpirun, dtype = sys.argv[1], sys.argv[2], sys.argv[3]
    buckets = sys.argv[4:] == ["buckets"]
    ranks = [] if buckets else [int(n) for n in sys.argv[4:]]
    code, out = run([mpirun, "-np", "1", "true"])
    if code == 77:
        print(out.strip())
        return 77
    np_type = np.float64 if dtype == "f64" else np.float32
    work = tempfile.mkdtemp(prefix="tcc-dp-")
    graph = os.path.join(work, "mlp.tg")
    with open(graph, "w") as f:
        f.write(GRAPH.format(t=dtype))
    rng = np.random.default_rng(7)
    x = rng.normal(size=(ROWS, 8)).astype(np_type)
    labels = (x[:, 0] + x[:, 1] > 0).astype(int) + (x[:, 2] > 0.5)
    y = np.eye(3, dtype=np_type)[labels]
    np.savez(os.path.join(work, "data.npz"), x=x, y=y)
    np.save(os.path.join(work, "lr.npy"), np.array(0.2, dtype=np_type))
    common = [graph, "--function=step", "--batches=" + os.path.join(
        work, "data.npz"), "--batch-size=%d" % BATCH, "--repeat=%d" % STEPS,
        "--shuffle=5", "--input=lr=" + os.path.join(work, "lr.npy"),
        "--no-cache", "--output-dir=" + work]

    base = os.path.join(work, "one.npz")
    code, out = run([tcc, "run"] + common + ["--save-shared=" + base])
    if code:
        print("the single-process run failed:\n" + out)
        return 1
    expected = np.load(base)
    failures = 0
    for n in ranks:
        saved = os.path.join(work, "np%d.npz" % n)
        code, out = run([mpirun, "-np", str(n), tcc, "run"] + common +
                        ["--data-parallel", "--save-shared=" + saved])
        if code:
            print("-np %d failed:\n%s" % (n, out))
            failures += 1
            continue
        got = np.load(saved)
        for name in expected.files:
            scale = max(np.abs(expected[name]).max(), 1e-300)
            error = np.abs(got[name].astype(np.float64) -
                           expected[name]).max() / scale
            ok = error <= TOLERANCE[dtype]
            print("-np %d %s %s: relative error %.3g (bound %g) %s" %
                  (n, dtype, name, error, TOLERANCE[dtype],
                   "ok" if ok else "FAIL"))
            failures += not ok

    if buckets:
        return compare_bucket_sizes(tcc, mpirun, dtype, common, expected, work)

    # Replicas that drift apart are caught after the first step.
    drift = os.path.join(work, "drift.tg")
    with open(drift, "w") as f:
        f.write(DRIFT.format(t=dtype))
    code, out = run([mpirun, "-np", "2", tcc, "run", drift, "--function=step",
                     "--batches=" + os.path.join(work, "data.npz"),
                     "--batch-size=%d" % BATCH, "--repeat=2", "--no-cache",
                     "--data-parallel", "--output-dir=" + work])
    wanted = "step 1 of 2 (epoch 1, batch 1 of 6): the replicas differ in " \
        "shared variable 'c'"
    if code == 0 or wanted not in out:
        print("drifting replicas were not caught:\n" + out)
        failures += 1
    else:
        print("drifting replicas: caught ('%s')" % wanted)
    return 1 if failures else 0


def compare_bucket_sizes(tcc, mpirun, dtype, common, expected, work):
    """2 and 4 ranks, once per bucket size: bit for bit the same results.
    On 4 ranks the order of additions could differ with a gradient's place
    in a bucket (the MPI backend pads short reductions against it)."""
    failures = 0
    for ranks in [2, 4]:
        failures += compare_bucket_sizes_on(tcc, mpirun, dtype, common,
                                            expected, work, ranks)
    return 1 if failures else 0


def compare_bucket_sizes_on(tcc, mpirun, dtype, common, expected, work,
                            ranks):
    failures = 0
    first = None
    for size in [0, 600, 25 << 20]:
        saved = os.path.join(work, "buckets%d.npz" % size)
        code, out = run([mpirun, "-np", str(ranks), tcc, "run"] + common +
                        ["--data-parallel", "--bucket-bytes=%d" % size,
                         "--save-shared=" + saved])
        if code:
            print("--bucket-bytes=%d failed:\n%s" % (size, out))
            failures += 1
            continue
        got = np.load(saved)
        for name in expected.files:
            scale = max(np.abs(expected[name]).max(), 1e-300)
            error = np.abs(got[name].astype(np.float64) -
                           expected[name]).max() / scale
            same = first is None or np.array_equal(got[name], first[name])
            ok = error <= TOLERANCE[dtype] and same
            print("-np %d --bucket-bytes=%d %s %s: relative error %.3g, "
                  "%s %s" % (ranks, size, dtype, name, error,
                   "same bits as --bucket-bytes=0" if same else "DIFFERENT",
                   "ok" if ok else "FAIL"))
            failures += not ok
        if first is None:
            first = got
    return failures


if __name__ == "__main__":
    sys.exit(main())
