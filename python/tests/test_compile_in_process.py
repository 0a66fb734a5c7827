"""tcc.function compiles in this process, through tcc's compile cache: a
second process that compiles the same graph loads it from the cache."""

import os
import subprocess
import sys

import numpy as np

import tcc as pytensor
import tcc.tensor as pt
from tcc import _tcc

SCRIPT = """
import numpy as np
import tcc as pytensor
import tcc.tensor as pt
x = pt.dmatrix("x")
W = pytensor.shared(np.full((3, 2), 0.5), name="W")
f = pytensor.function([x], pt.tanh(x @ W).sum(axis=1))
assert np.allclose(f(np.ones((4, 3))), np.tanh(1.5) * 2)
print(f._compile_cache)
"""


def run_script(cache_dir):
    env = dict(os.environ, TCC_CACHE_DIR=str(cache_dir))
    env.pop("TCC_CACHE", None)
    proc = subprocess.run([sys.executable, "-c", SCRIPT], env=env,
                          capture_output=True, text=True, check=True)
    return proc.stdout.strip()


def test_a_second_process_loads_the_function_from_the_cache(tmp_path):
    first = run_script(tmp_path)
    assert first.startswith("miss"), first
    assert os.listdir(tmp_path)
    second = run_script(tmp_path)
    assert second.startswith("hit"), second


def test_no_child_process_compiles():
    # The tool is not needed: a missing TCC_TOOL changes nothing.
    old = os.environ.get("TCC_TOOL")
    os.environ["TCC_TOOL"] = "/nonexistent/tcc"
    try:
        v = pt.fvector("v")
        f = pytensor.function([v], v * 3)
        assert f(np.ones(2, dtype="float32")).tolist() == [3.0, 3.0]
    finally:
        if old is None:
            del os.environ["TCC_TOOL"]
        else:
            os.environ["TCC_TOOL"] = old


def test_compile_rejects_bad_text_with_its_diagnostics():
    fn, diagnostics, cache = _tcc.compile("tg 1\nfunc f(x : f32[3]) -> (y : f32[4]) {\n  y = x\n}\n",
                                          "bad.tg", "f")
    assert fn is None and cache == ""
    assert diagnostics.startswith("bad.tg:"), diagnostics
    assert "error:" in diagnostics
