"""One rank of the data-parallel job of test_data_parallel.py (run under
scripts/mpirun-local): logistic regression in f64, each rank on its share
of every batch, with function(..., data_parallel=True). Rank 0 saves the
trained variables to argv[1]; every rank prints what it checked."""

import sys

import numpy as np

import tcc
import tcc.tensor as pt

BATCH = 16


def data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 5))
    y = (x[:, 0] + 0.5 * x[:, 1] - 0.25 * x[:, 2] > 0).astype(np.float64)
    return x, y


def train(step, x, y, rank, size, epochs=10):
    for _ in range(epochs):
        for start in range(0, len(x), BATCH):
            rows = slice(start + rank * BATCH // size,
                         start + (rank + 1) * BATCH // size)
            step(x[rows], y[rows])


def model(rank):
    # Rank 0's start is the job's: the others start elsewhere on purpose.
    w = tcc.shared(np.zeros(5) if rank == 0 else np.full(5, 7.0), name="w")
    b = tcc.shared(0.0 if rank == 0 else -3.0, name="b")
    x, y = pt.dmatrix("x"), pt.dvector("y")
    p = pt.sigmoid(x @ w + b)
    loss = -(y * pt.log(p) + (1 - y) * pt.log(1 - p)).mean()
    gw, gb = tcc.grad(loss, [w, b])
    return w, b, x, y, loss, [(w, w - 0.5 * gw), (b, b - 0.5 * gb)]


def main():
    out = sys.argv[1]
    rank, size = tcc.dist.rank(), tcc.dist.size()
    w, b, x, y, loss, updates = model(rank)
    # A variable the function only reads stays each rank's own.
    own = tcc.shared(np.full(3, float(rank)), name="own")
    step = tcc.function([x, y], [loss, own.sum()], updates=updates,
                        data_parallel=True, mode="DebugMode")
    print(f"rank {rank}: start w {w.get_value().tolist()} b {b.get_value()}")
    xs, ys = data()
    train(step, xs, ys, rank, size)
    print(f"rank {rank}: own {own.get_value().tolist()}")
    # Replicas that drift apart: an update that no collective averages.
    c = tcc.shared(0.0, name="c")
    v = pt.dvector("v")
    drift = tcc.function([v], [], updates=[(c, c + v.sum())],
                         data_parallel=True, mode="DebugMode")
    try:
        drift(np.full(2, float(rank)))
        print(f"rank {rank}: drift not caught")
    except Exception as err:  # noqa: BLE001 - the message is what counts
        print(f"rank {rank}: caught {type(err).__name__}: {err}")
    if rank == 0:
        np.savez(out, w=w.get_value(), b=b.get_value())


if __name__ == "__main__":
    main()
