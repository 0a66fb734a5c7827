"""Cost of one Python call of a compiled function on a 1-element input:
PYTHONPATH=build/python .venv/bin/python bench/python_call.py"""

import time

import numpy as np

import tcc
import tcc.tensor as pt

x = pt.dvector("x")
for trust in (False, True):
    f = tcc.function([x], x + 1, trust_input=trust)
    a = np.ones(1)
    for _ in range(1000):
        f(a)
    n = 200000
    t = time.perf_counter()
    for _ in range(n):
        f(a)
    dt = (time.perf_counter() - t) / n
    print(f"trust_input={trust}: {dt * 1e6:.2f} us per call")
