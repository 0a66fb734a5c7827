"""The digits MLP of examples/train, written as PyTensor code on tcc.

    /usr/bin/python3 examples/train/make_digits.py digits.npz
    PYTHONPATH=build/python .venv/bin/python examples/python/train_digits.py digits.npz

64 -> 64 -> 10, mini-batch SGD with momentum: the parameters and their
velocities are shared variables that each step updates in place; the
gradients come from tcc.grad. Exits with 1 below --min-accuracy.

With --data-parallel, run under mpirun, each rank takes its share of every
batch and the gradients are averaged across the ranks (docs/distributed.md,
"From Python"):

    scripts/mpirun-local -np 4 .venv/bin/python examples/python/train_digits.py digits.npz --data-parallel
"""

import argparse
import sys
import time

import numpy as np

import tcc as pytensor
import tcc.tensor as pt


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--min-accuracy", type=float, default=0.0)
    parser.add_argument("--data-parallel", action="store_true",
                        help="one rank of a job run under mpirun")
    args = parser.parse_args()
    rank, size = ((pytensor.dist.rank(), pytensor.dist.size())
                  if args.data_parallel else (0, 1))
    data = np.load(args.data)
    x_train, y_train = data["x_train"], data["y_train"]
    x_test, y_test = data["x_test"], data["y_test"]

    start = time.perf_counter()
    rng = np.random.default_rng(1)
    W1 = pytensor.shared((rng.normal(size=(64, 64)) * 0.125).astype("float32"), name="W1")
    b1 = pytensor.shared(np.zeros(64, dtype="float32"), name="b1")
    W2 = pytensor.shared((rng.normal(size=(64, 10)) * 0.125).astype("float32"), name="W2")
    b2 = pytensor.shared(np.zeros(10, dtype="float32"), name="b2")
    params = [W1, b1, W2, b2]
    velocities = [pytensor.shared(np.zeros_like(p.get_value()), name="v" + p.name)
                  for p in params]

    x = pt.fmatrix("x")
    y = pt.ivector("y")
    lr = pt.fscalar("lr")
    logits = pt.tanh(x @ W1 + b1) @ W2 + b2
    loss = -(pt.one_hot(y, 10, dtype="float32") * pt.special.log_softmax(logits, axis=1)).sum(axis=1).mean()
    grads = pytensor.grad(loss, params)
    updates = []
    for p, v, g in zip(params, velocities, grads):
        updates.append((v, 0.9 * v - lr * g))
        updates.append((p, p + 0.9 * v - lr * g))
    train_step = pytensor.function([x, y, lr], loss, updates=updates,
                                   data_parallel=args.data_parallel)
    predict = pytensor.function([x], logits.argmax(axis=1))

    accuracy = 0.0
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(x_train))
        losses = []
        for k in range(0, len(order), args.batch):
            rows = order[k:k + args.batch]
            rows = rows[rank * len(rows) // size:(rank + 1) * len(rows) // size]
            losses.append(train_step(x_train[rows], y_train[rows], np.float32(0.05)))
        train_acc = (predict(x_train) == y_train).mean()
        accuracy = (predict(x_test) == y_test).mean()
        if rank == 0:
            print(f"epoch {epoch:2d}  loss {np.mean(losses):.4f}  train {100 * train_acc:5.1f}%  "
                  f"test {100 * accuracy:5.1f}%")
    if rank == 0:
        ranks = f" on {size} ranks" if args.data_parallel else ""
        print(f"test accuracy {100 * accuracy:.1f}% after {args.epochs} epochs{ranks} "
              f"({time.perf_counter() - start:.2f} s in all, the compiles included)")
    return 0 if 100 * accuracy >= args.min_accuracy else 1


if __name__ == "__main__":
    sys.exit(main())
