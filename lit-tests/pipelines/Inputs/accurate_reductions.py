"""Checks tcc's float reductions against float64 and against numpy.

usage: accurate_reductions.py TCC GRAPH WORKDIR

Calls the functions of GRAPH (accurate-reductions.test) on 10^4 to 10^7
elements and prints, for each result, tcc's error and numpy's against the
float64 value of the same inputs. tcc's error must be numpy's or less, or
within a floor: 2 ulp of the result for f32, 1 ulp of f16 or bf16 (numpy
has no bf16) -- numpy's own error is sometimes below one rounding by luck.
"""
import os
import subprocess
import sys

import numpy as np

tcc, graph, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = []


def run(function, **inputs):
    """Calls FUNCTION of the graph; returns its outputs as float64 arrays."""
    out = os.path.join(work, function)
    args = [tcc, "run", graph, "--function=" + function, "--output-dir=" + out,
            "--cache-dir=" + os.path.join(work, "cache")]
    for name, value in inputs.items():
        path = os.path.join(work, name + ".npy")
        np.save(path, value)
        args.append("--input=%s=%s" % (name, path))
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return lambda name: np.load(os.path.join(out, name + ".npy")).astype(
        np.float64)


def check(what, got, ours, exact, floor):
    """Records tcc's error (ours) and numpy's (got; None: numpy has no such
    dtype) against EXACT."""
    scale = np.max(np.abs(exact))
    err = lambda v: float(np.max(np.abs(np.asarray(v, np.float64) - exact)))
    tcc_err, np_err = err(ours), 0.0 if got is None else err(got)
    ok = tcc_err <= max(np_err, floor * scale)
    print("%-18s tcc %.2e  numpy %.2e  (relative to %.3g)%s" %
          (what, tcc_err / scale, np_err / scale, scale,
           "" if ok else "  WORSE"))
    if not ok:
        failures.append(what)


def to_bf16(x):
    """Rounds f32 values to the nearest bf16, ties to even (as tcc's cast)."""
    bits = x.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


ulp32 = 2.0 ** -23
for n in [10**4, 10**5, 10**6, 10**7]:
    rng = np.random.default_rng(n)
    x = (rng.random(n, dtype=np.float32) + np.float32(0.5))
    x64 = x.astype(np.float64)
    out = run("f32", x=x)
    for name, op in [("sum", np.sum), ("mean", np.mean), ("var", np.var),
                     ("logsumexp",
                      lambda v: np.log(np.exp(v - v.max()).sum()) + v.max()),
                     ("softmax", softmax)]:
        check("f32 %s %d" % (name, n), op(x), out(name), op(x64), 2 * ulp32)

    m = rng.random((n // 1000, 1000), dtype=np.float32) + np.float32(0.5)
    m64 = m.astype(np.float64)
    out = run("rows", m=m)
    check("f32 mean [%d,1000]" % (n // 1000), m.mean(), out("all"),
          m64.mean(), 2 * ulp32)
    check("f32 rows [%d,1000]" % (n // 1000), m.sum(axis=1), out("rows"),
          m64.sum(axis=1), 2 * ulp32)

    h = (rng.random(n, dtype=np.float32) * 2 - 1).astype(np.float16)
    h64 = h.astype(np.float64)
    out = run("f16", h=h)
    for name, op in [("sum", np.sum), ("mean", np.mean)]:
        exact = op(h64)
        floor = np.spacing(np.float16(abs(exact))) / max(abs(exact), 1e-30)
        check("f16 %s %d" % (name, n), op(h), out(name), exact, floor)

    b = rng.random(n, dtype=np.float32) * 2 - 1
    b64 = to_bf16(b).astype(np.float64)
    out = run("bf16", b=b)
    for name, op in [("sum", np.sum), ("mean", np.mean)]:
        exact = op(b64)
        floor = 2.0 ** (np.floor(np.log2(abs(exact))) - 7) / abs(exact)
        check("bf16 %s %d" % (name, n), None, out(name), exact, floor)

if failures:
    sys.exit("tcc is less accurate than numpy in: " + ", ".join(failures))
print("all as accurate as numpy")
