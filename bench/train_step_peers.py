#!/usr/bin/env python3
"""One training step of the digits MLP (examples/train/digits.tg), batch 128:
tcc (from C++ and from Python) against JAX and PyTensor, measured in one run.

The step is the same everywhere: 64 -> 64 (tanh) -> 10, softmax
cross-entropy, gradients by automatic differentiation, SGD with momentum,
parameters kept in the framework's own memory (tcc's shared variables,
PyTensor's shared variables, JAX arrays donated to a jitted step). tcc runs
through `tcc run --batches --repeat` (median per call after a warm-up call);
tcc's Python package (examples/python/train_digits.py's step, called with
trust_input) and the peers are timed in this process as the median of
batches of steps.
JAX and PyTensor are optional: the table says "not installed" without them.
They are never a dependency of tcc or of its tests:

    python3 -m venv /tmp/peers && /tmp/peers/bin/pip install numpy jax pytensor
    /tmp/peers/bin/python bench/train_step_peers.py [--tcc build/bin/tcc]

Not a test: timings depend on the machine and its load.
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BATCH = 128
LR = 0.05
MOMENTUM = 0.9


def make_data(n=1437):
    """Digit-like data: random pixels and labels (timing does not need the
    real images; the shapes and dtypes are those of examples/train)."""
    rng = np.random.default_rng(0)
    x = rng.random((n, 64), dtype=np.float32)
    y = rng.integers(0, 10, n).astype(np.int32)
    return x, y


def init_params():
    rng = np.random.default_rng(1)
    return [(rng.standard_normal((64, 64)) * 0.125).astype(np.float32),
            np.zeros(64, np.float32),
            (rng.standard_normal((64, 10)) * 0.125).astype(np.float32),
            np.zeros(10, np.float32)]


def median_per_step(step, batches, steps, blocks=7):
    """Median over `blocks` blocks of `steps` steps, in microseconds."""
    for i in range(20):  # warm-up: compilation, first allocations
        step(*batches[i % len(batches)])
    times = []
    for _ in range(blocks):
        start = time.perf_counter()
        for i in range(steps):
            step(*batches[i % len(batches)])
        times.append((time.perf_counter() - start) / steps * 1e6)
    return statistics.median(times)


def time_tcc(tcc, x, y, steps):
    with tempfile.TemporaryDirectory() as d:
        np.savez(os.path.join(d, "train.npz"), x=x, y=y)
        np.save(os.path.join(d, "lr.npy"), np.float32(LR))
        out = subprocess.run(
            [tcc, "run", os.path.join(ROOT, "examples/train/digits.tg"),
             "--function=train_step", "--batches=" + os.path.join(d, "train.npz"),
             "--batch-size=%d" % BATCH, "--input=lr=" + os.path.join(d, "lr.npy"),
             "--repeat=%d" % steps, "--output-dir=" + d, "--no-cache"],
            check=True, capture_output=True, text=True).stdout
    ms = float(re.search(r"([0-9.]+) ms per call", out).group(1))
    return ms * 1e3


def time_tcc_python(batches, steps):
    """The same step from Python: examples/python/train_digits.py's graph
    (digits.tg's, written with tcc's PyTensor API), called with
    trust_input, from the build's build/python (or an installed tcc)."""
    import sys
    sys.path.insert(0, os.path.join(ROOT, "build", "python"))
    try:
        import tcc as pytensor
        import tcc.tensor as pt
    except ImportError:
        return None
    params = [pytensor.shared(p) for p in init_params()]
    velocity = [pytensor.shared(np.zeros_like(p)) for p in init_params()]
    x, y, lr = pt.fmatrix("x"), pt.ivector("y"), pt.fscalar("lr")
    w1, b1, w2, b2 = params
    z = pt.tanh(x @ w1 + b1) @ w2 + b2
    loss = -(pt.one_hot(y, 10, dtype="float32")
             * pt.special.log_softmax(z, axis=1)).sum(axis=1).mean()
    grads = pytensor.grad(loss, params)
    updates = []
    for p, v, g in zip(params, velocity, grads):
        updates.append((v, MOMENTUM * v - lr * g))
        updates.append((p, p + MOMENTUM * v - lr * g))
    fn = pytensor.function([x, y, lr], loss, updates=updates)
    fn.trust_input = True
    rate = np.array(LR, dtype=np.float32)  # trust_input: arrays only
    # Contiguous batches, as `tcc run --batches` hands them to the step.
    own = [(np.ascontiguousarray(bx), np.ascontiguousarray(by))
           for bx, by in batches]
    # The statistic of the "tcc" row (`tcc run --repeat`): the median of
    # the calls after a warm-up call, each timed alone, so that the two
    # compare the call and not how often the loaded machine preempted them.
    fn(*own[0], rate)
    clock = time.perf_counter
    times = []
    for i in range(steps):
        bx, by = own[i % len(own)]
        start = clock()
        fn(bx, by, rate)
        times.append(clock() - start)
    return statistics.median(times) * 1e6


def time_jax(batches, steps):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None

    def loss_fn(params, x, y):
        w1, b1, w2, b2 = params
        z = jnp.tanh(x @ w1 + b1) @ w2 + b2
        logp = jax.nn.log_softmax(z, axis=1)
        return -jnp.mean(jnp.sum(jax.nn.one_hot(y, 10) * logp, axis=1))

    def step(params, velocity, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        velocity = [MOMENTUM * v - LR * g for v, g in zip(velocity, grads)]
        params = [p + v for p, v in zip(params, velocity)]
        return params, velocity, loss

    jstep = jax.jit(step, donate_argnums=(0, 1))
    state = {"p": [jnp.asarray(p) for p in init_params()],
             "v": [jnp.zeros_like(jnp.asarray(p)) for p in init_params()]}
    jbatches = [(jnp.asarray(x), jnp.asarray(y)) for x, y in batches]

    def run(x, y):
        state["p"], state["v"], loss = jstep(state["p"], state["v"], x, y)
        loss.block_until_ready()

    return median_per_step(run, jbatches, steps)


def time_pytensor(batches, steps):
    try:
        import pytensor
        import pytensor.tensor as pt
    except ImportError:
        return None
    params = [pytensor.shared(p) for p in init_params()]
    velocity = [pytensor.shared(np.zeros_like(p)) for p in init_params()]
    x = pt.matrix("x", dtype="float32")
    y = pt.ivector("y")
    w1, b1, w2, b2 = params
    z = pt.tanh(x @ w1 + b1) @ w2 + b2
    logp = pt.special.log_softmax(z, axis=1)
    loss = -pt.mean(logp[pt.arange(y.shape[0]), y])
    grads = pytensor.grad(loss, params)
    updates = []
    for p, v, g in zip(params, velocity, grads):
        new_v = np.float32(MOMENTUM) * v - np.float32(LR) * g
        updates += [(v, new_v), (p, p + new_v)]
    fn = pytensor.function([x, y], loss, updates=updates)
    fn.trust_input = True
    return median_per_step(fn, batches, steps)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tcc", default=os.path.join(ROOT, "build/bin/tcc"))
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()
    x, y = make_data()
    batches = [(x[i:i + BATCH], y[i:i + BATCH])
               for i in range(0, len(x) - BATCH + 1, BATCH)]
    rows = [("tcc", time_tcc(args.tcc, x[:len(batches) * BATCH],
                             y[:len(batches) * BATCH], args.steps)),
            ("tcc from Python", time_tcc_python(batches, args.steps)),
            ("JAX (jit, donated)", time_jax(batches, args.steps // 4)),
            ("PyTensor (shared, updates)", time_pytensor(batches, args.steps // 4))]
    tcc_us = rows[0][1]
    print("digits MLP 64-64-10, one training step, batch %d (median us/step)"
          % BATCH)
    print("%-28s %12s %14s" % ("", "us/step", "peer/tcc"))
    for name, us in rows:
        if us is None:
            print("%-28s %12s %14s" % (name, "not installed", "-"))
        else:
            print("%-28s %12.1f %14.2f" % (name, us, us / tcc_us))
    if rows[1][1] is not None:
        print("tcc from Python / tcc: %.2f (target <= 1.1)" % (rows[1][1] / tcc_us))
    peers = [us for _, us in rows[2:] if us is not None]
    if peers:
        print("tcc / fastest peer: %.2f (target <= 1.0)" % (tcc_us / min(peers)))


if __name__ == "__main__":
    main()
