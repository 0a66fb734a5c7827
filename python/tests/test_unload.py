"""A compiled function whose last reference goes takes its code with it:
10^3 compile/free cycles of distinct graphs leave the process's open file
descriptors and its memory where they were (docs/python.md, "Functions").

Each cycle compiles a new graph, through the compile cache (whose programs
are loaded from an in-memory shared object, one descriptor each) or, with
TCC_CACHE=0, through the JIT. The cycles run in a child process: the cache
settings are read once per process, and the counts must not see the rest of
the suite."""

import os
import subprocess
import sys
import textwrap

import pytest

CYCLES = """
import gc, os, sys
import numpy as np
import tcc
import tcc.tensor as pt

def fds():
    return len(os.listdir("/proc/self/fd"))

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

x = pt.dvector("x")
warm, total, n = (int(a) for a in sys.argv[1:4])
a = np.ones(n)

def cycles(start, n):
    for k in range(start, start + n):
        f = tcc.function([x], tcc.Out(x * float(k) + 1.0, borrow=True))
        assert f(a)[0] == k + 1.0
        f.free()
        del f
    gc.collect()

cycles(0, warm)
before = (fds(), rss())
cycles(warm, total - warm)
after = (fds(), rss())
print(before[0], after[0], before[1], after[1])
"""


def run_cycles(tmp_path, cache, warm, total, n=3):
    env = dict(os.environ)
    env["TCC_CACHE"] = "1" if cache else "0"
    env["TCC_CACHE_DIR"] = str(tmp_path / "cache")
    env["TCC_NUM_THREADS"] = "2"
    script = tmp_path / "cycles.py"
    script.write_text(textwrap.dedent(CYCLES))
    out = subprocess.run([sys.executable, str(script), str(warm), str(total), str(n)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    fds_before, fds_after, rss_before, rss_after = map(int, out.stdout.split())
    return fds_after - fds_before, rss_after - rss_before


def sanitized():
    return "libasan" in os.environ.get("LD_PRELOAD", "")


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "jit"])
def test_compile_free_cycles_do_not_grow_fds_or_memory(tmp_path, cache):
    # 10^3 cycles through the JIT, whose kept programs would show in
    # memory; through the cache (each miss is also linked into a shared
    # object: slower) a kept program keeps one descriptor, so 150 cycles
    # tell as surely.
    total = (150 if cache else 1000) // (10 if sanitized() else 1)
    fds, grown = run_cycles(tmp_path, cache, warm=total // 10, total=total)
    assert fds == 0, f"{fds} descriptors more after {total} cycles"
    if sanitized():
        return  # ASan's quarantine keeps freed memory: RSS says nothing
    # A program kept per cycle is at least its code and its engine: tens
    # of KiB each, tens of MiB over the cycles.
    assert grown < 6 * 2**20, f"RSS grew by {grown} bytes over {total} cycles"


def test_unloading_code_whose_parallel_loops_ran(tmp_path):
    # 2^20 elements: the loop runs on the kernels' pool, whose workers each
    # loaded program (a shared object from the cache) carries; unloading it
    # joins them. Every cycle's result is checked, and no descriptor stays.
    fds, _ = run_cycles(tmp_path, cache=True, warm=2, total=12, n=1 << 20)
    assert fds == 0
