#!/usr/bin/env python3
"""conv2d benchmark: tcc against the CPU peers installed here, in one run.

A ResNet-style layer: N=32, 64 -> 64 channels, 56x56, 3x3, stride 1,
padding 1, f32 (7.4 GFLOP per call). tcc runs it through `tcc run
--repeat=R` (compile time excluded) in NCHW and NHWC; the peers compute the
same convolution:
  - oneDNN (libdnnl-dev 2.6 from Debian): bench/conv2d_onednn.cpp, compiled
    here with g++; in the layouts oneDNN prefers (blocked, reorders not
    timed) and on plain NCHW tensors;
  - PyTorch (torch.nn.functional.conv2d), when `--torch-python` names a
    Python that imports torch (a virtualenv).
A peer that is missing prints "not installed". `--setup` installs oneDNN
with apt-get (this benchmark's own setup; never a dependency of tcc or its
tests).

For each thread count of `--threads` (default 1,2), every side gets that
many threads (TCC_NUM_THREADS for tcc, OMP_NUM_THREADS for oneDNN, torch's
set_num_threads) and the sides take turns, batch after batch, so that the
machine's load falls on all of them alike. Prints each side's median time
per call over the batches, and the speed of the best tcc layout relative to
each peer and to the best peer (peer ms / tcc ms: > 1 means tcc is faster).
Not a test: timings depend on the machine and its load.

    /usr/bin/python3 bench/conv2d_vs_peers.py [--tcc build/bin/tcc]
        [--setup] [--threads 1,2] [--torch-python VENV/bin/python] [--quick]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile

import numpy as np

N, C, O, H, W, K, PAD = 32, 64, 64, 56, 56, 3, 1

GRAPH = """tg 1
func nchw(x : f32[N, {C}, {H}, {W}], w : f32[{O}, {C}, {K}, {K}]) -> (y : f32[N, {O}, {H}, {W}]) {{
  y = conv2d(x, w, padding={PAD})
}}
func nhwc(x : f32[N, {H}, {W}, {C}], w : f32[{K}, {K}, {C}, {O}]) -> (y : f32[N, {H}, {W}, {O}]) {{
  y = conv2d(x, w, layout="NHWC", padding={PAD})
}}
""".format(C=C, O=O, H=H, W=W, K=K, PAD=PAD)

TORCH = """
import statistics, sys, time, torch
n, c, o, h, w, k, pad, repeat, threads = map(int, sys.argv[1:])
torch.set_num_threads(threads)
x = torch.rand(n, c, h, w); wt = torch.rand(o, c, k, k)
with torch.no_grad():
    torch.nn.functional.conv2d(x, wt, padding=pad)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        torch.nn.functional.conv2d(x, wt, padding=pad)
        times.append((time.perf_counter() - start) * 1e3)
print("torch %.3f %s threads=%d" % (statistics.median(times), torch.__version__,
                                    torch.get_num_threads()))
"""


def time_tcc(tcc, graph, name, inputs, repeat, folder, env):
    """The median ms per call of `repeat` calls in one process."""
    args = [tcc, "run", graph, "--function=" + name, "--repeat=%d" % repeat,
            "--output-dir=" + folder]
    for key, value in inputs.items():
        path = os.path.join(folder, "%s_%s.npy" % (name, key))
        if not os.path.exists(path):
            np.save(path, value)
        args.append("--input=%s=%s" % (key, path))
    out = subprocess.run(args, check=True, capture_output=True, text=True,
                         env=env).stdout
    return {"tcc " + name.upper(): (float(re.search(
        r"([0-9.]+) ms per call", out).group(1)), "")}


def build_onednn(folder):
    """The peer's executable, or None when oneDNN is not installed."""
    if not os.path.exists("/usr/include/dnnl.hpp") or not shutil.which("g++"):
        return None
    exe = os.path.join(folder, "conv2d_onednn")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "conv2d_onednn.cpp")
    subprocess.run(["g++", "-O2", "-std=c++17", source, "-o", exe, "-ldnnl"],
                   check=True)
    return exe


def time_onednn(exe, repeat, env):
    """{label: (ms, detail)} for both of oneDNN's setups."""
    out = subprocess.run([exe] + [str(v) for v in (N, C, O, H, W, K, PAD,
                                                  repeat)],
                         check=True, capture_output=True, text=True,
                         env=env).stdout
    result = {}
    for line in out.splitlines():
        label, ms, detail = line.split(" ", 2)
        result[label] = (float(ms), detail)
    return result


def has_torch(python):
    return bool(python) and subprocess.run(
        [python, "-c", "import torch"], capture_output=True).returncode == 0


def time_torch(python, repeat, threads):
    out = subprocess.run([python, "-c", TORCH] + [str(v) for v in (
        N, C, O, H, W, K, PAD, repeat, threads)], check=True,
        capture_output=True, text=True).stdout.split(" ", 2)
    return {"torch": (float(out[1]), out[2].strip())}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcc", default=os.path.join(
        os.path.dirname(__file__), "..", "build", "bin", "tcc"))
    parser.add_argument("--setup", action="store_true",
                        help="apt-get install libdnnl-dev first")
    parser.add_argument("--threads", default="1,2",
                        help="comma-separated thread counts to measure")
    parser.add_argument("--torch-python", default="",
                        help="a Python (virtualenv) that imports torch")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.setup:
        subprocess.run(["apt-get", "install", "-y", "-q", "libdnnl-dev"],
                       check=True)
    repeat, batches = (2, 3) if args.quick else (5, 5)
    rng = np.random.default_rng(0)
    x = rng.random((N, C, H, W), dtype=np.float32)
    w = rng.random((O, C, K, K), dtype=np.float32)
    gflop = 2.0 * N * O * H * W * C * K * K / 1e9
    print("conv2d N=%d %d->%d %dx%d %dx%d pad %d f32: %.2f GFLOP per call"
          % (N, C, O, H, W, K, K, PAD, gflop))
    with tempfile.TemporaryDirectory() as folder:
        graph = os.path.join(folder, "conv.tg")
        with open(graph, "w") as f:
            f.write(GRAPH)
        inputs = {
            "nchw": dict(x=x, w=w),
            "nhwc": dict(x=np.ascontiguousarray(x.transpose(0, 2, 3, 1)),
                         w=np.ascontiguousarray(w.transpose(2, 3, 1, 0))),
        }
        onednn = build_onednn(folder)
        torch = has_torch(args.torch_python)
        if onednn is None:
            print("oneDNN         not installed (--setup installs "
                  "libdnnl-dev)")
        if args.torch_python and not torch:
            print("PyTorch        not installed in %s" % args.torch_python)
        for threads in [int(t) for t in args.threads.split(",")]:
            env = dict(os.environ, TCC_NUM_THREADS=str(threads),
                       OMP_NUM_THREADS=str(threads))
            samples, details = {}, {}
            for _ in range(batches):
                turn = {}
                for name in ("nchw", "nhwc"):
                    turn.update(time_tcc(args.tcc, graph, name, inputs[name],
                                         repeat, folder, env))
                if onednn:
                    turn.update(time_onednn(onednn, repeat, env))
                if torch:
                    turn.update(time_torch(args.torch_python, repeat,
                                           threads))
                for label, (ms, detail) in turn.items():
                    samples.setdefault(label, []).append(ms)
                    details[label] = detail
            ms = {label: statistics.median(v) for label, v in samples.items()}
            ours = min(v for label, v in ms.items() if label.startswith("tcc"))
            peers = {label: v for label, v in ms.items()
                     if not label.startswith("tcc")}
            print("\n%d thread%s, median of %d batches of %d calls"
                  % (threads, "" if threads == 1 else "s", batches, repeat))
            print("%-14s %10s %8s   %s" % ("who", "median ms", "GFLOP/s",
                                           "tcc speed vs this (peer/tcc)"))
            for label, v in ms.items():
                ratio = "" if label.startswith("tcc") else "%.2f" % (v / ours)
                print("%-14s %10.2f %8.1f   %-6s %s" % (
                    label, v, gflop / v * 1e3, ratio, details[label]))
            if peers:
                best = min(peers, key=peers.get)
                print("best tcc vs best peer (%s): %.2fx"
                      % (best, peers[best] / ours))


if __name__ == "__main__":
    main()
