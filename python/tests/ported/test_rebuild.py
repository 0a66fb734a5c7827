# Ported from PyTensor's tests/compile/test_rebuild.py
# (https://github.com/pymc-devs/pytensor, BSD-3-Clause; see README.md here).
# PyTensor checks that its graph cloning (rebuild_collect_shared, an
# internal) does not recurse; tcc's counterpart is everything `function`
# walks: the same deep graph must compile and run.

import sys

import tcc.tensor as pt
from tcc.compile.function import function


def test_rebuild_collect_shared_deep_graph():
    x = pt.dscalar("x")
    out = x
    depth = sys.getrecursionlimit() + 500
    for i in range(depth):
        out = out + i
    assert function([x], out)(1.0) == 1.0 + depth * (depth - 1) // 2
