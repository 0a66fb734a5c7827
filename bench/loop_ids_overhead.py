#!/usr/bin/env python3
"""What checking ids inside loop bodies costs per step (issue 24): two tcc
builds, interleaved, on the same graphs.

- `gru_grad`: bench/gru_vs_peers.py's GRU (T=100, batch 32, 256 inputs and
  hidden units, forward and backward), whose body gathers nothing: the
  compiled code should be the same with and without the checks.
- `embed_gru`: the same GRU whose input at each step is an embedding row
  per token, `take(E, tokens[t])`, forward and backward: here each step
  scans its 32 ids and updates the loop's check record (one build checks
  them, a build before the checks clamps them).

Each build runs `tcc run --repeat=R` on one thread pinned to one CPU, the
builds taking turns batch after batch; prints the median ms per call and
per step of each. Not a test: timings depend on the machine and its load.

    /usr/bin/python3 bench/loop_ids_overhead.py --before OLD/bin/tcc \
        [--after build/bin/tcc] [--batches 7] [--repeat 5]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

import numpy as np

from gru_vs_peers import B, GRAPH, H, I, T, one_thread_env, pinned


def embed_graph():
    """GRAPH whose input at each step is an embedding row per token."""
    text = GRAPH
    for old, new in (
            ("func gru_grad(xs : f32[T, B, {I}],",
             "func embed_gru(tokens : i32[T, B], E : f32[{V}, {I}],"),
            ("-> (loss : f32[], gWx : f32[{I}, {H3}],",
             "-> (loss : f32[], gE : f32[{V}, {I}],"),
            ("  gxs = reshape(matmul(reshape(xs, shape=[T * B, {I}]), Wx) + b,\n"
             "                shape=[T, B, {H3}])\n", ""),
            ("gx in gxs) {{\n",
             "tok in tokens) {{\n    gx = matmul(take(E, tok), Wx) + b\n"),
            ("gWx, gWh, gb, gh0 = grad(loss, [Wx, Wh, b, h0])",
             "gE, gWh, gb, gh0 = grad(loss, [E, Wh, b, h0])")):
        assert old in text, old
        text = text.replace(old, new)
    return text


VOCAB = 1000


def time_call(tcc, graph, function, inputs, folder, repeat):
    args = [tcc, "run", graph, "--function=" + function, "--no-cache",
            "--repeat=%d" % repeat, "--output-dir=" + folder]
    args += ["--input=%s=%s" % (k, v) for k, v in inputs.items()]
    out = subprocess.run(pinned(args), check=True, capture_output=True,
                         text=True, env=one_thread_env()).stdout
    return float(re.search(r"([0-9.]+) ms per call", out).group(1))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True, help="tcc without checks")
    parser.add_argument("--after", default=os.path.join(
        here, "..", "build", "bin", "tcc"))
    parser.add_argument("--batches", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    data = dict(
        xs=rng.standard_normal((T, B, I), dtype=np.float32),
        tokens=rng.integers(0, VOCAB, (T, B), dtype=np.int32),
        E=rng.standard_normal((VOCAB, I), dtype=np.float32),
        h0=rng.standard_normal((B, H), dtype=np.float32) * 0.1,
        ys=rng.standard_normal((T, B, H), dtype=np.float32),
        Wx=rng.standard_normal((I, 3 * H), dtype=np.float32) / 16,
        Wh=rng.standard_normal((H, 3 * H), dtype=np.float32) / 16,
        b=rng.standard_normal(3 * H, dtype=np.float32) * 0.1)
    sizes = dict(I=I, H=H, H2=2 * H, H3=3 * H, V=VOCAB)
    with tempfile.TemporaryDirectory() as folder:
        files = {}
        for name, value in data.items():
            files[name] = os.path.join(folder, name + ".npy")
            np.save(files[name], value)
        cases = []
        for function, text, names in (
                ("gru_grad", GRAPH, ("xs", "h0", "ys", "Wx", "Wh", "b")),
                ("embed_gru", embed_graph(),
                 ("tokens", "E", "h0", "ys", "Wx", "Wh", "b"))):
            graph = os.path.join(folder, function + ".tg")
            with open(graph, "w") as f:
                f.write(text.format(**sizes))
            cases.append((function, graph, {n: files[n] for n in names}))
        builds = {"before": args.before, "after": args.after}
        samples = {(c[0], b): [] for c in cases for b in builds}
        for _ in range(args.batches):
            for function, graph, inputs in cases:
                for build, tcc in builds.items():
                    samples[(function, build)].append(time_call(
                        tcc, graph, function, inputs,
                        os.path.join(folder, "out"), args.repeat))
        print("T=%d B=%d inputs %d hidden %d f32, forward and backward, "
              "1 thread; medians of %d batches of %d calls" % (
                  T, B, I, H, args.batches, args.repeat))
        print("%-10s %-7s %10s %12s" % ("graph", "build", "ms/call",
                                        "us/step"))
        for (function, build), v in samples.items():
            ms = statistics.median(v)
            print("%-10s %-7s %10.3f %12.2f" % (function, build, ms,
                                                 ms * 1000 / T))


if __name__ == "__main__":
    main()
