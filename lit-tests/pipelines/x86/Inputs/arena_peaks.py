"""Writes the inputs of a training step (those of bench/compile_peers.py),
or checks the call peaks that `tcc run --stats` printed with and without
the arena plan (lit-tests/pipelines/x86/arena-peaks.test).

    arena_peaks.py inputs MODEL DIR
    arena_peaks.py check PLANNED.txt UNPLANNED.txt TARGET_BYTES [--smaller]
"""
import re
import sys


def inputs(model, out):
    import numpy as np
    rng = np.random.default_rng(0)
    if model == "transformer":
        values = {"ids": rng.integers(0, 64, (16, 8)).astype(np.int32),
                  "targets": rng.integers(0, 64, (16, 8)).astype(np.int32)}
    else:
        x = rng.random((128, 64), dtype=np.float32)
        labels = rng.integers(0, 10, 128).astype(np.int32)
        y = (np.eye(10, dtype=np.float32)[labels] if model == "mlp_train"
             else labels)
        values = {"x": x, "y": y, "lr": np.array(0.1, np.float32)}
    for name, value in values.items():
        np.save("%s/%s.npy" % (out, name), value)
    print(" ".join("--input=%s=%s/%s.npy" % (n, out, n) for n in values))


def stats(path):
    """The function's own counters: call peak as run, and the arena."""
    text = open(path).read()
    text = text[text.index("function train_step:"):text.index("runtime:")]
    peak = int(re.search(r"call peak\s+[^(]*\((\d+) B\) as run", text)
               .group(1))
    arena = re.search(r"arena plan\s+[^(]*?\(?(\d+) B\)? per call", text)
    return peak, int(arena.group(1)) if arena else 0


def check(planned, unplanned, target, smaller):
    peak, arena = stats(planned)
    alone, none = stats(unplanned)
    assert none == 0, "--no-arena-plan still planned an arena"
    # No call holds more than its plan: the arena, and at most what the
    # temporaries it does not hold took when each was freed at its last use.
    assert peak <= arena + alone, (peak, arena, alone)
    assert peak <= target, "peak %d B over the target %d B" % (peak, target)
    if smaller:
        assert peak < alone, (peak, alone)
    print("peak %d B <= arena %d B + %d B, <= %d B" % (peak, arena, alone,
                                                       target))


if __name__ == "__main__":
    if sys.argv[1] == "inputs":
        inputs(sys.argv[2], sys.argv[3])
    else:
        check(sys.argv[2], sys.argv[3], int(sys.argv[4]),
              "--smaller" in sys.argv)
