#!/usr/bin/env python3
"""GEMM epilogues: tcc against OpenBLAS + a hand-fused epilogue and JAX, at 1
and 2 threads, in one run.

For each thread count T it runs `tcc-bench-epilogue` (tcc and the hand C,
interleaved in one process; TCC_NUM_THREADS=T, OPENBLAS_NUM_THREADS=T) and
then the same workloads in JAX, in a child process pinned to T CPUs
(sched_setaffinity before JAX starts, so XLA's thread pool has T threads),
and prints one table of medians (wall) with tcc / hand C and tcc / JAX, in
wall time and in the process's CPU time (all its threads). JAX is
optional: the column says "not installed" without it. Never a dependency
of tcc or of its tests:

    /usr/bin/python3 -m venv /tmp/peers && /tmp/peers/bin/pip install numpy jax
    /tmp/peers/bin/python bench/epilogue_vs_peers.py [--build build] [--reps 15]

The benchmark's own command unsets OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE,
so OpenBLAS picks its kernel for this CPU (the bench prints which one).
Not a test: timings depend on the machine and its load.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

JAX_CHILD = r'''
import json, os, statistics, sys, time
threads, reps = int(sys.argv[1]), int(sys.argv[2])
os.sched_setaffinity(0, list(sorted(os.sched_getaffinity(0)))[:threads])
try:
    import jax, jax.numpy as jnp
    import numpy as np
except ImportError:
    print(json.dumps(None)); sys.exit(0)
rng = np.random.default_rng(0)
def arr(*shape, scale=1.0):
    return jnp.asarray((rng.standard_normal(shape) * scale).astype(np.float32))
def median(f, *args):
    f(*args).block_until_ready()
    wall, cpu = [], []
    for _ in range(reps):
        w, c = time.perf_counter(), time.process_time()
        f(*args).block_until_ready()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(wall), statistics.median(cpu)
dense = jax.jit(lambda x, w, b: jax.nn.relu(x @ w + b))
mlp = jax.jit(lambda x, w1, b1, w2, b2: jax.nn.relu(x @ w1 + b1) @ w2 + b2)
n = 512
out = {"relu(x@w+b) 512^3": median(dense, arr(n, n), arr(n, n, scale=0.05), arr(n))}
n = 1024
out["MLP 1024 (2 layers)"] = median(mlp, arr(n, n), arr(n, n, scale=0.03), arr(n),
                                    arr(n, n, scale=0.03), arr(n))
print(json.dumps(out))
'''


def run_tcc(bench, threads, reps):
    env = dict(os.environ, TCC_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads))
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    text = subprocess.run([bench, "--reps=%d" % reps], env=env, check=True,
                          capture_output=True, text=True).stdout
    header = text.splitlines()[0]
    rows = {}
    for line in text.splitlines()[2:]:
        m = re.match(r"(.+?)\s+([\d.]+) ms\s+([\d.]+) ms\s+[\d.]+x\s+"
                     r"([\d.]+) ms\s+([\d.]+) ms", line)
        if m:
            rows[m.group(1).strip()] = [float(g) / 1e3 for g in m.groups()[1:]]
    return header, rows


def run_jax(threads, reps):
    try:
        text = subprocess.run([sys.executable, "-c", JAX_CHILD, str(threads),
                               str(reps)], check=True, capture_output=True,
                              text=True).stdout
        return json.loads(text.strip().splitlines()[-1])
    except (subprocess.CalledProcessError, ValueError, IndexError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--reps", type=int, default=15)
    args = parser.parse_args()
    bench = os.path.join(args.build, "bin", "tcc-bench-epilogue")
    print("%-20s %2s %9s %9s %9s | %8s %8s | %8s %8s" % (
        "case", "T", "tcc ms", "hand ms", "JAX ms", "tcc/hand", "tcc/JAX",
        "CPU t/h", "CPU t/J"))
    for threads in (1, 2):
        header, rows = run_tcc(bench, threads, args.reps)
        jax = run_jax(threads, args.reps)
        print("# T=%d: %s" % (threads, header))
        for name, (tcc, hand, tcc_cpu, hand_cpu) in rows.items():
            j, j_cpu = jax[name] if jax else (None, None)
            print("%-20s %2d %9.3f %9.3f %9s | %8.3f %8s | %8.3f %8s" % (
                name, threads, tcc * 1e3, hand * 1e3,
                "%.3f" % (j * 1e3) if j else "not inst.", tcc / hand,
                "%.3f" % (tcc / j) if j else "-", tcc_cpu / hand_cpu,
                "%.3f" % (tcc_cpu / j_cpu) if j else "-"))

if __name__ == "__main__":
    main()
