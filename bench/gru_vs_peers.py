#!/usr/bin/env python3
"""GRU benchmark: forward and backward through time, tcc against JAX's
`lax.scan` and PyTensor's `scan`, in one run.

A GRU layer over T=100 steps, batch 32, 256 inputs, 256 hidden units, f32:
the inputs' share of the three gates for all steps in one product, then a
loop whose step is `gh = h @ Wh`, the update and reset gates, the candidate
and the new state; the loss is `sum(hs * ys)` over the stacked states, and
each side computes it and its gradients with respect to Wx, Wh, b and h0
(tcc: `grad` through `scan`; JAX: `jit(value_and_grad)` of `lax.scan`;
PyTensor: `pytensor.grad` through `scan`, compiled by its C backend). The
three sides' loss and gradients are checked against each other.

Every side runs on one thread (TCC_NUM_THREADS=1, XLA's single-threaded
Eigen, OMP/OPENBLAS/MKL_NUM_THREADS=1) pinned to one CPU with `taskset`,
and the sides take turns, batch after batch, so that the machine's load
falls on all of them alike. Prints each side's median ms per call and the
ratio tcc / peer (below 1: tcc is faster). JAX and PyTensor are optional:
`--peers-python` (or TCC_PEERS_PYTHON) names a Python that imports them
(`python3 -m venv V && V/bin/pip install numpy jax pytensor`); a library it
cannot import prints "not installed". Not a test: timings depend on the
machine and its load.

    /usr/bin/python3 bench/gru_vs_peers.py [--tcc build/bin/tcc]
        [--peers-python V/bin/python] [--quick]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

import numpy as np

T, B, I, H = 100, 32, 256, 256

GRAPH = """tg 1
func gru_grad(xs : f32[T, B, {I}], h0 : f32[B, {H}], ys : f32[T, B, {H}],
              Wx : f32[{I}, {H3}], Wh : f32[{H}, {H3}], b : f32[{H3}])
    -> (loss : f32[], gWx : f32[{I}, {H3}], gWh : f32[{H}, {H3}],
        gb : f32[{H3}], gh0 : f32[B, {H}]) {{
  gxs = reshape(matmul(reshape(xs, shape=[T * B, {I}]), Wx) + b,
                shape=[T, B, {H3}])
  hT, hs = scan(h = h0, gx in gxs) {{
    gh = matmul(h, Wh)
    z = sigmoid(gx[:, 0:{H}] + gh[:, 0:{H}])
    r = sigmoid(gx[:, {H}:{H2}] + gh[:, {H}:{H2}])
    n = tanh(gx[:, {H2}:{H3}] + r * gh[:, {H2}:{H3}])
    h1 = (1 - z) * n + z * h
    return h1, h1
  }}
  loss = sum(hs * ys)
  gWx, gWh, gb, gh0 = grad(loss, [Wx, Wh, b, h0])
}}
"""

# The peers: `python PEERS.py FOLDER REPEAT` prints one line per library,
# "NAME MS VERSION" or "NAME missing WHY", and saves its loss and gradients
# as FOLDER/NAME_*.npy.
PEERS = r"""
import os, statistics, sys, time
import numpy as np
folder, repeat, which = sys.argv[1], int(sys.argv[2]), sys.argv[3]
L = lambda n: np.load(os.path.join(folder, n + ".npy"))
xs, h0, ys, Wx, Wh, b = [L(n) for n in ("xs", "h0", "ys", "Wx", "Wh", "b")]
H = h0.shape[1]
NAMES = ("loss", "gWx", "gWh", "gb", "gh0")

def timed(f):
    f()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)

def save(name, values):
    for n, v in zip(NAMES, values):
        np.save(os.path.join(folder, "%s_%s.npy" % (name, n)), np.asarray(v))

if which == "jax":
    try:
        import jax, jax.numpy as jnp
    except Exception as e:
        print("jax missing %s" % type(e).__name__); sys.exit()
    def loss(Wx, Wh, b, h0, xs, ys):
        T, B, _ = xs.shape
        gxs = (xs.reshape(T * B, -1) @ Wx + b).reshape(T, B, 3 * H)
        def step(h, gx):
            gh = h @ Wh
            z = jax.nn.sigmoid(gx[:, :H] + gh[:, :H])
            r = jax.nn.sigmoid(gx[:, H:2 * H] + gh[:, H:2 * H])
            n = jnp.tanh(gx[:, 2 * H:] + r * gh[:, 2 * H:])
            h1 = (1 - z) * n + z * h
            return h1, h1
        hT, hs = jax.lax.scan(step, h0, gxs)
        return jnp.sum(hs * ys)
    f = jax.jit(jax.value_and_grad(loss, argnums=(0, 1, 2, 3)))
    args = [jnp.asarray(a) for a in (Wx, Wh, b, h0, xs, ys)]
    run = lambda: jax.block_until_ready(f(*args))
    ms = timed(run)
    value, grads = run()
    save("jax", [value] + list(grads))
    print("jax %.3f jax-%s" % (ms, jax.__version__))

if which == "pytensor":
    try:
        import pytensor, pytensor.tensor as pt
    except Exception as e:
        print("pytensor missing %s" % type(e).__name__); sys.exit()
    pytensor.config.floatX = "float32"
    f32 = dict(dtype="float32")
    tWx, tWh, tb = pt.matrix("Wx", **f32), pt.matrix("Wh", **f32), pt.vector(
        "b", **f32)
    th0, txs, tys = pt.matrix("h0", **f32), pt.tensor3(
        "xs", **f32), pt.tensor3("ys", **f32)
    T, B, _ = xs.shape
    gxs = (txs.reshape((T * B, -1)) @ tWx + tb).reshape((T, B, 3 * H))
    def step(gx, h, Wh):
        gh = h @ Wh
        z = pt.sigmoid(gx[:, :H] + gh[:, :H])
        r = pt.sigmoid(gx[:, H:2 * H] + gh[:, H:2 * H])
        n = pt.tanh(gx[:, 2 * H:] + r * gh[:, 2 * H:])
        return (1 - z) * n + z * h
    hs = pytensor.scan(step, sequences=[gxs], outputs_info=[th0],
                       non_sequences=[tWh], strict=True, return_updates=False)
    loss = pt.sum(hs * tys)
    grads = pytensor.grad(loss, [tWx, tWh, tb, th0])
    # The C backend (PyTensor 3 defaults to numba).
    mode = pytensor.compile.mode.Mode(linker="cvm", optimizer="fast_run")
    f = pytensor.function([tWx, tWh, tb, th0, txs, tys], [loss] + grads,
                          mode=mode, trust_input=True)
    args = (Wx, Wh, b, h0, xs, ys)
    run = lambda: f(*args)
    ms = timed(run)
    save("pytensor", run())
    print("pytensor %.3f pytensor-%s cvm, blas__ldflags='%s'" % (
        ms, pytensor.__version__, pytensor.config.blas__ldflags))
"""


def one_thread_env():
    env = dict(os.environ, TCC_NUM_THREADS="1", OMP_NUM_THREADS="1",
               OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               XLA_FLAGS="--xla_cpu_multi_thread_eigen=false "
                         "intra_op_parallelism_threads=1")
    return env


def pinned(args):
    """`args` on the first CPU this process may use."""
    if shutil.which("taskset") and hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        return ["taskset", "-c", str(cpu)] + args
    return args


def time_tcc(tcc, graph, folder, repeat):
    args = [tcc, "run", graph, "--function=gru_grad", "--repeat=%d" % repeat,
            "--output-dir=" + os.path.join(folder, "tcc")]
    for name in ("xs", "h0", "ys", "Wx", "Wh", "b"):
        args.append("--input=%s=%s" % (name, os.path.join(folder,
                                                         name + ".npy")))
    out = subprocess.run(pinned(args), check=True, capture_output=True,
                         text=True, env=one_thread_env()).stdout
    return float(re.search(r"([0-9.]+) ms per call", out).group(1))


def time_peer(python, which, folder, repeat):
    """(ms, detail), or (None, why) when the library is missing."""
    script = os.path.join(folder, "peers.py")
    out = subprocess.run(pinned([python, script, folder, str(repeat), which]),
                         check=True, capture_output=True, text=True,
                         env=one_thread_env()).stdout.split()
    if not out:
        return None, "printed nothing"
    if out[1] == "missing":
        return None, " ".join(out[2:])
    return float(out[1]), " ".join(out[2:])


def check(folder, name):
    """The largest relative difference of `name`'s results from tcc's."""
    worst = 0.0
    for result in ("loss", "gWx", "gWh", "gb", "gh0"):
        ours = np.load(os.path.join(folder, "tcc", result + ".npy"))
        theirs = np.load(os.path.join(folder, "%s_%s.npy" % (name, result)))
        scale = max(np.abs(theirs).max(), 1e-30)
        worst = max(worst, float(np.abs(ours - theirs).max() / scale))
    return worst


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcc", default=os.path.join(
        os.path.dirname(__file__), "..", "build", "bin", "tcc"))
    parser.add_argument("--peers-python",
                        default=os.environ.get("TCC_PEERS_PYTHON",
                                               sys.executable),
                        help="a Python (virtualenv) that imports jax and "
                             "pytensor")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat, batches = (2, 2) if args.quick else (5, 5)
    steps = 10 if args.quick else T
    rng = np.random.default_rng(0)
    data = dict(
        xs=rng.standard_normal((steps, B, I), dtype=np.float32),
        h0=rng.standard_normal((B, H), dtype=np.float32) * 0.1,
        ys=rng.standard_normal((steps, B, H), dtype=np.float32),
        Wx=rng.standard_normal((I, 3 * H), dtype=np.float32) / 16,
        Wh=rng.standard_normal((H, 3 * H), dtype=np.float32) / 16,
        b=rng.standard_normal(3 * H, dtype=np.float32) * 0.1)
    print("GRU T=%d B=%d inputs %d hidden %d f32, forward and backward, "
          "1 thread" % (steps, B, I, H))
    with tempfile.TemporaryDirectory() as folder:
        for name, value in data.items():
            np.save(os.path.join(folder, name + ".npy"), value)
        graph = os.path.join(folder, "gru.tg")
        with open(graph, "w") as f:
            f.write(GRAPH.format(I=I, H=H, H2=2 * H, H3=3 * H))
        with open(os.path.join(folder, "peers.py"), "w") as f:
            f.write(PEERS)
        samples, details, missing = {"tcc": []}, {"tcc": ""}, {}
        for _ in range(batches):
            samples["tcc"].append(time_tcc(args.tcc, graph, folder, repeat))
            for which in ("jax", "pytensor"):
                if which in missing:
                    continue
                ms, detail = time_peer(args.peers_python, which, folder,
                                       repeat)
                if ms is None:
                    missing[which] = detail
                    continue
                samples.setdefault(which, []).append(ms)
                details[which] = detail
        ms = {who: statistics.median(v) for who, v in samples.items()}
        print("%-10s %10s   %-14s %-10s %s" % (
            "who", "median ms", "tcc / this", "max diff", "version"))
        for who, v in ms.items():
            ratio = "" if who == "tcc" else "%.2f" % (ms["tcc"] / v)
            diff = "" if who == "tcc" else "%.1e" % check(folder, who)
            print("%-10s %10.2f   %-14s %-10s %s" % (who, v, ratio, diff,
                                                     details[who]))
        for who, why in missing.items():
            print("%-10s not installed in %s (%s)" % (
                who, args.peers_python, why))


if __name__ == "__main__":
    main()
