#!/usr/bin/env python3
"""numpy, JAX and PyTensor on the workloads of the peers table.

    python_peers.py --threads=T [--reps=11] [--quick]

Run by bench/peers/run, which pins the thread pools first (README.md).
Prints the same tab-separated lines as the C++ peers (PeerTiming.h):
RESULT <workload> <peer> <threads> <seconds>, NOTE <text>, and
MISSING <peer> <why> for a library this Python cannot import, so that the
table says "not installed". Each library's results are checked against
numpy's. Optional peers: never a dependency of tcc or of its tests.
"""
import argparse
import statistics
import sys
import time

# The sizes of bench/peers/PeerOptions.h.
FULL = dict(chain=1 << 24, squares=1 << 24, softmax=4096, gemm=1024,
            dense=512, mlp=1024, twice=64 << 20, calls=20000, compiles=5)
QUICK = dict(chain=1 << 16, squares=1 << 16, softmax=256, gemm=128, dense=64,
             mlp=128, twice=1 << 18, calls=1000, compiles=1)


def result(workload, peer, threads, seconds):
    print("RESULT\t%s\t%s\t%d\t%.9g" % (workload, peer, threads, seconds),
          flush=True)


def note(text):
    print("NOTE\t" + text, flush=True)


# At 1 thread, the process's CPU time (every thread's, as the C++ peers);
# at more, the wall clock (PeerTiming.h).
clock = time.perf_counter


def numpy_blas(np):
    """The OpenBLAS kernel numpy's wheel runs (it bundles its own OpenBLAS,
    scipy-openblas, with prefixed symbols), or what numpy says it links."""
    import ctypes
    import glob
    import os
    folder = os.path.join(os.path.dirname(np.__file__), os.pardir,
                          "numpy.libs")
    for path in glob.glob(os.path.join(folder, "libscipy_openblas*.so")):
        lib = ctypes.CDLL(path)
        for suffix in ("64_", ""):
            name = getattr(lib, "scipy_openblas_get_corename" + suffix, None)
            config = getattr(lib, "scipy_openblas_get_config" + suffix, None)
            if name and config:
                name.restype = config.restype = ctypes.c_char_p
                return "OpenBLAS %s (%s)" % (name().decode(),
                                             config().decode())
    return "BLAS not identified"


def median_seconds(reps, body):
    """The median of `reps` timed runs after one untimed run."""
    body()
    times = []
    for _ in range(reps):
        start = clock()
        body()
        times.append(clock() - start)
    return statistics.median(times)


def per_call_seconds(reps, calls, body):
    """The median over `reps` batches of `calls` calls of the mean."""
    for _ in range(1000):
        body()
    means = []
    for _ in range(reps):
        start = clock()
        for _ in range(calls):
            body()
        means.append((clock() - start) / calls)
    return statistics.median(means)


class Inputs:
    """The workloads' inputs, normal(0, 1) f32 (weights scaled by 1/sqrt(d)),
    and numpy's results, which the other libraries are checked against."""

    def __init__(self, np, sizes):
        rng = np.random.default_rng(0)
        f32 = np.float32

        def normal(*shape, scale=1.0):
            return (rng.standard_normal(shape, dtype=f32) * f32(scale))

        n = sizes["chain"]
        self.chain = [normal(n) for _ in range(4)]  # x, a, b, c
        self.squares = normal(sizes["squares"])
        self.softmax = normal(sizes["softmax"], sizes["softmax"])
        g = sizes["gemm"]
        self.gemm = [normal(g, g), normal(g, g)]
        d = sizes["dense"]
        self.dense = [normal(d, d), normal(d, d), normal(d)]
        m = sizes["mlp"]
        self.mlp = [normal(m, m), normal(m, m, scale=m ** -0.5), normal(m),
                    normal(m, m, scale=m ** -0.5), normal(m)]
        self.twice = normal(sizes["twice"])
        self.one = np.ones(1, f32)


def numpy_softmax(np, x, overwrite):
    """Row softmax of x, into x itself when `overwrite`."""
    z = np.subtract(x, x.max(axis=1, keepdims=True),
                    out=x if overwrite else None)
    np.exp(z, out=z)
    z /= z.sum(axis=1, keepdims=True)
    return z


def numpy_workloads(np, d):
    """numpy as a careful numpy user writes it: in place where it can."""
    x, a, b, c = d.chain

    def dense(x, w, bias):
        y = x @ w
        y += bias
        return np.maximum(y, 0, out=y)

    def mlp(x, w1, b1, w2, b2):
        z = dense(x, w1, b1) @ w2
        z += b2
        return numpy_softmax(np, z, overwrite=True)

    twice_out = np.empty_like(d.twice)
    one_out = np.empty_like(d.one)
    return {
        "chain": lambda: np.tanh(a * x + b) * c + x,
        "sum_squares": lambda: np.dot(d.squares, d.squares),
        "softmax": lambda: numpy_softmax(np, d.softmax, overwrite=False),
        "sgemm": lambda: d.gemm[0] @ d.gemm[1],
        "dense_relu": lambda: dense(*d.dense),
        "mlp": lambda: mlp(*d.mlp),
        "twice_fresh": lambda: 2 * d.twice,
        "twice_borrow": lambda: np.multiply(d.twice, 2, out=twice_out),
        "call_fresh": lambda: d.one + 1,
        "call_borrow": lambda: np.add(d.one, 1, out=one_out),
    }


def jax_workloads(jax, d):
    jnp = jax.numpy

    def mlp(x, w1, b1, w2, b2):
        h = jnp.maximum(x @ w1 + b1, 0)
        return jax.nn.softmax(h @ w2 + b2, axis=1)

    functions = {
        "chain": (lambda x, a, b, c: jnp.tanh(a * x + b) * c + x, d.chain),
        "sum_squares": (lambda x: jnp.sum(x * x), [d.squares]),
        "softmax": (lambda x: jax.nn.softmax(x, axis=1), [d.softmax]),
        "sgemm": (lambda a, b: a @ b, d.gemm),
        "dense_relu": (lambda x, w, b: jnp.maximum(x @ w + b, 0), d.dense),
        "mlp": (mlp, d.mlp),
        "twice_fresh": (lambda x: 2 * x, [d.twice]),
        "call_fresh": (lambda x: x + 1, [d.one]),
    }
    workloads = {}
    for name, (fn, args) in functions.items():
        compiled = jax.jit(fn)
        on_device = [jax.device_put(v) for v in args]
        workloads[name] = (lambda f=compiled, v=on_device:
                           f(*v).block_until_ready())

    def compile_mlp():
        # A new function each time, so that nothing is cached: trace, lower
        # and compile, which is the first call of a jitted function without
        # running it.
        def fresh(*args):
            return mlp(*args)
        jax.jit(fresh).lower(*d.mlp).compile()
    return workloads, compile_mlp


def pytensor_workloads(pytensor, d):
    # Also tcc's Python package (`import tcc as pytensor`): the same code.
    pt = pytensor.tensor
    softmax = pt.special.softmax
    In, Out = pytensor.In, pytensor.Out

    def function(inputs, output, borrow=False):
        if borrow:
            f = pytensor.function([In(v, borrow=True) for v in inputs],
                                  Out(output, borrow=True))
        else:
            f = pytensor.function(inputs, output)
        f.trust_input = True
        return f

    def mlp_graph():
        x, w1, w2 = pt.matrix("x"), pt.matrix("w1"), pt.matrix("w2")
        b1, b2 = pt.vector("b1"), pt.vector("b2")
        h = pt.maximum(pt.dot(x, w1) + b1, 0)
        return [x, w1, b1, w2, b2], softmax(pt.dot(h, w2) + b2, axis=1)

    v = [pt.vector(n) for n in "xabc"]
    s = pt.vector("s")
    m = pt.matrix("m")
    ga, gb = pt.matrix("ga"), pt.matrix("gb")
    dx, dw, db = pt.matrix("dx"), pt.matrix("dw"), pt.vector("db")
    t = pt.vector("t")
    o = pt.vector("o")
    x, a, b, c = v
    graphs = {
        "chain": (function(v, pt.tanh(a * x + b) * c + x), d.chain),
        "sum_squares": (function([s], pt.sum(s * s)), [d.squares]),
        "softmax": (function([m], softmax(m, axis=1)), [d.softmax]),
        "sgemm": (function([ga, gb], pt.dot(ga, gb)), d.gemm),
        "dense_relu": (function([dx, dw, db],
                                pt.maximum(pt.dot(dx, dw) + db, 0)),
                       d.dense),
        "mlp": (function(*mlp_graph()), d.mlp),
        "twice_fresh": (function([t], 2 * t), [d.twice]),
        "twice_borrow": (function([t], 2 * t, borrow=True), [d.twice]),
        "call_fresh": (function([o], o + 1), [d.one]),
        "call_borrow": (function([o], o + 1, borrow=True), [d.one]),
    }
    workloads = {name: (lambda f=f, args=args: f(*args))
                 for name, (f, args) in graphs.items()}

    def compile_mlp():
        # A new graph each time: rewrites, linking, and loading the C code of
        # each Op from PyTensor's compiledir cache (filled by the untimed
        # first compile; a cold C compile takes seconds).
        pytensor.function(*mlp_graph())
    return workloads, compile_mlp


def run(peer, workloads, compile_mlp, reference, args, sizes, np):
    for name, body in workloads.items():
        try:
            got = body()
            want = reference.get(name)
            if want is not None:
                got, want = np.asarray(got), np.asarray(want())
                scale = max(1.0, float(np.abs(want).max()))
                tolerance = 1e-3 if name == "sum_squares" else 1e-4
                if not np.allclose(got, want, rtol=tolerance,
                                   atol=tolerance * scale):
                    note("%s: %s differs from numpy's result" % (peer, name))
                    continue
            if name.startswith("call_"):
                t = per_call_seconds(args.reps, sizes["calls"], body)
            else:
                t = median_seconds(args.reps, body)
            result(name, peer, args.threads, t)
        except Exception as e:  # a failed workload leaves its cell empty
            note("%s: %s failed: %s" % (peer, name, str(e).splitlines()[0]
                                          if str(e) else type(e).__name__))
    if compile_mlp:
        compile_mlp()
        times = []
        for _ in range(sizes["compiles"]):
            start = clock()
            compile_mlp()
            times.append(clock() - start)
        result("compile", peer, args.threads, statistics.median(times))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--reps", type=int, default=11)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    global clock
    clock = time.process_time if args.threads == 1 else time.perf_counter
    try:
        import numpy as np
    except ImportError as e:
        for peer in ("numpy", "JAX", "PyTensor"):
            print("MISSING\t%s\t%s" % (peer, e), flush=True)
        return
    note("numpy %s (%s): %s" % (np.__version__, sys.executable,
                                numpy_blas(np)))
    data = Inputs(np, sizes)
    reference = numpy_workloads(np, data)
    run("numpy", reference, None, {}, args, sizes, np)
    try:
        import jax
        jax.config.update("jax_platforms", "cpu")
        note("JAX %s, XLA on %s" % (jax.__version__, jax.devices()[0]))
    except ImportError as e:
        print("MISSING\tJAX\t%s" % e, flush=True)
    else:
        run("JAX", *jax_workloads(jax, data), reference, args, sizes, np)
    try:
        # tcc's Python package, from the build's build/python (bench/peers/run
        # puts it on PYTHONPATH): PyTensor's code above with its import changed.
        import tcc
        tcc.config.floatX = "float32"  # the workloads' data is float32
        note("tcc %s from Python (%s)" % (tcc.__version__, tcc.__file__))
    except ImportError as e:
        print("MISSING\ttcc (Python)\t%s" % e, flush=True)
    else:
        # Its own copy of the inputs: In(x, borrow=True) lets tcc overwrite
        # them (the output is computed in the input's buffer).
        run("tcc (Python)", *pytensor_workloads(tcc, Inputs(np, sizes)),
            reference, args, sizes, np)
    try:
        import pytensor
        note("PyTensor %s (mode %s, blas__ldflags '%s', openmp %s)" % (
            pytensor.__version__, pytensor.config.mode,
            pytensor.config.blas__ldflags, pytensor.config.openmp))
    except ImportError as e:
        print("MISSING\tPyTensor\t%s" % e, flush=True)
    else:
        run("PyTensor", *pytensor_workloads(pytensor, data), reference, args,
            sizes, np)


if __name__ == "__main__":
    main()
