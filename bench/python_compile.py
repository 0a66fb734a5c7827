"""Compile time of the digits MLP (examples/python/train_digits.py) from
Python: its training step and its prediction, each a tcc.function.

    TCC_CACHE=0 PYTHONPATH=build/python .venv/bin/python bench/python_compile.py

Prints, for each, the median over --reps compiles of a fresh graph: the wall
time and the CPU time of this process and its children. With the compile
cache on (the default) every compile after the first is a hit.
"""

import argparse
import resource
import statistics
import time

import numpy as np

import tcc as pytensor
import tcc.tensor as pt


def cpu_seconds():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def mlp_functions():
    """The graphs of train_digits.py, built anew."""
    rng = np.random.default_rng(1)
    W1 = pytensor.shared((rng.normal(size=(64, 64)) * 0.125).astype("float32"))
    b1 = pytensor.shared(np.zeros(64, dtype="float32"))
    W2 = pytensor.shared((rng.normal(size=(64, 10)) * 0.125).astype("float32"))
    b2 = pytensor.shared(np.zeros(10, dtype="float32"))
    params = [W1, b1, W2, b2]
    velocities = [pytensor.shared(np.zeros_like(p.get_value())) for p in params]
    x, y, lr = pt.fmatrix("x"), pt.ivector("y"), pt.fscalar("lr")
    logits = pt.tanh(x @ W1 + b1) @ W2 + b2
    loss = -(pt.one_hot(y, 10, dtype="float32")
             * pt.special.log_softmax(logits, axis=1)).sum(axis=1).mean()
    grads = pytensor.grad(loss, params)
    updates = []
    for p, v, g in zip(params, velocities, grads):
        updates.append((v, 0.9 * v - lr * g))
        updates.append((p, p + 0.9 * v - lr * g))
    return {
        "train_step": lambda: pytensor.function([x, y, lr], loss, updates=updates),
        "predict": lambda: pytensor.function([x], logits.argmax(axis=1)),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    for name in ("train_step", "predict"):
        walls, cpus = [], []
        for _ in range(args.reps):
            make = mlp_functions()[name]
            wall, cpu = time.perf_counter(), cpu_seconds()
            make()
            walls.append(time.perf_counter() - wall)
            cpus.append(cpu_seconds() - cpu)
        print(f"{name}: {1e3 * statistics.median(walls):.0f} ms wall, "
              f"{1e3 * statistics.median(cpus):.0f} ms CPU (median of {args.reps})")


if __name__ == "__main__":
    main()
