"""Data-parallel jobs: this process as one rank of a job run under mpirun.

    mpirun -np 4 python train.py      # scripts/mpirun-local on one machine

Each rank calls the same functions, made with
`function(..., data_parallel=True)`, on its own share of every batch
(`rows[rank()::size()]`, say); the compiled code averages the gradients
across the ranks. docs/distributed.md, "From Python".
"""

from . import _tcc


def rank():
    """This process's rank, 0 <= rank() < size(); starts MPI on first use
    (a process not started by mpirun is rank 0 of 1)."""
    return _tcc.dist_world()[0]


def size():
    """The number of ranks in the job."""
    return _tcc.dist_world()[1]
