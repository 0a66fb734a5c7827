"""function(..., data_parallel=True) (docs/distributed.md, "From Python"):
N ranks with batch B/N match one process with batch B; every rank starts
from rank 0's updated variables and keeps the ones it only reads; DebugMode
catches replicas that drift apart. The jobs run under scripts/mpirun-local
(shared memory and loopback only) and are skipped without mpirun."""

import os
import subprocess
import sys

import numpy as np
import pytest

import tcc

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)
import data_parallel_job as job  # noqa: E402

MPIRUN = os.path.join(HERE, "..", "..", "scripts", "mpirun-local")

# The sanitizer build (scripts/test-sanitized) runs Python with ASan
# preloaded; MPI's jobs are not run there, as the dist/ tests are not.
pytestmark = pytest.mark.skipif("ASAN_OPTIONS" in os.environ,
                                reason="MPI jobs are not run under the sanitizers")


def one_process():
    """The reference: one process, the whole batch, no data parallelism."""
    w, b, x, y, loss, updates = job.model(0)
    step = tcc.function([x, y], loss, updates=updates)
    xs, ys = job.data()
    job.train(step, xs, ys, 0, 1)
    return w.get_value(), b.get_value()


def run_job(ranks, tmp_path):
    out = str(tmp_path / f"np{ranks}.npz")
    proc = subprocess.run(
        [MPIRUN, "-np", str(ranks), sys.executable,
         os.path.join(HERE, "data_parallel_job.py"), out],
        capture_output=True, text=True, timeout=240,
        env=dict(os.environ, TCC_DIST_TIMEOUT="60"))
    if proc.returncode == 77:
        pytest.skip(proc.stdout.strip())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return np.load(out), proc.stdout


def test_one_rank_without_mpirun_is_the_plain_function():
    # A process not started by mpirun is rank 0 of 1: the same bits.
    assert (tcc.dist.rank(), tcc.dist.size()) == (0, 1)
    w, b, x, y, loss, updates = job.model(0)
    step = tcc.function([x, y], loss, updates=updates, data_parallel=True)
    xs, ys = job.data()
    job.train(step, xs, ys, 0, 1)
    w0, b0 = one_process()
    assert np.array_equal(w.get_value(), w0) and b.get_value() == b0


def test_data_parallel_must_be_a_bool():
    v = tcc.tensor.dvector("v")
    with pytest.raises(TypeError, match="data_parallel must be True or False"):
        tcc.function([v], v * 2, data_parallel="yes")


@pytest.mark.parametrize("ranks", [2, 4])
def test_ranks_match_one_process(ranks, tmp_path):
    got, out = run_job(ranks, tmp_path)
    w0, b0 = one_process()
    assert np.abs(got["w"] - w0).max() <= 1e-12 * np.abs(w0).max()
    assert abs(float(got["b"]) - b0) <= 1e-12 * max(abs(b0), 1.0)
    for r in range(ranks):
        # Rank 0's start everywhere, though rank r made its own.
        assert f"rank {r}: start w [0.0, 0.0, 0.0, 0.0, 0.0] b 0.0" in out
        # The variable it only reads is its own.
        assert f"rank {r}: own [{float(r)}, {float(r)}, {float(r)}]" in out
        # DebugMode: every rank fails the call, naming the variable.
        assert (f"rank {r}: caught ValueError: after call 1 of " in out
                and "the replicas differ in shared variable 's_c_" in out), out


def test_the_documented_example(tmp_path):
    # docs/distributed.md, "From Python": its script on 2 ranks.
    doc = open(os.path.join(HERE, "..", "..", "docs", "distributed.md")).read()
    section = doc[doc.index("## From Python"):doc.index("## From C++")]
    script = section.split("```python\n")[1].split("```")[0]
    path = tmp_path / "train.py"
    path.write_text(script)
    proc = subprocess.run([MPIRUN, "-np", "2", sys.executable, str(path)],
                          capture_output=True, text=True, timeout=240,
                          env=dict(os.environ, TCC_DIST_TIMEOUT="60"))
    if proc.returncode == 77:
        pytest.skip(proc.stdout.strip())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    accuracy = float(proc.stdout.split("2 ranks: accuracy ")[1].split()[0])
    assert accuracy >= 0.95, proc.stdout
