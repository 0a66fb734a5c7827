"""10^5 calls and get/set cycles leave the process's memory where it was:
no buffer, Python object or numpy view is leaked on any path."""

import gc
import os

import numpy as np

import tcc
import tcc.tensor as pt


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_calls_and_get_set_cycles_do_not_grow_memory():
    x = pt.vector()
    s = tcc.shared(np.zeros(256), name="acc")
    f = tcc.function([x], [x * 2, tcc.Out(x + s, borrow=True)],
                     updates=[(s, s * 0.5 + x)])
    g = tcc.function([tcc.In(x, borrow=True)], tcc.Out(x * 3, borrow=True))
    a = np.ones(256)

    def cycle(n):
        for _ in range(n):
            f(a)
            g(np.ones(256))
            v = s.get_value(borrow=True)
            s.set_value(v, borrow=True)
            s.set_value(s.get_value())
            s.set_value(np.full(256, 0.5), borrow=True)

    cycle(2000)  # warm: caches, plans, the allocator's pools
    gc.collect()
    before = rss_bytes()
    cycle(25000)  # 10^5 calls and 10^5 get/set cycles in all
    gc.collect()
    grown = rss_bytes() - before
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        # AddressSanitizer keeps freed memory in quarantine (256 MB): the
        # cycles above ran for its use-after-free checks; RSS says nothing.
        return
    # A leak of one 2 KiB buffer per call would be 200 MB.
    assert grown < 4 * 2**20, f"RSS grew by {grown} bytes"
