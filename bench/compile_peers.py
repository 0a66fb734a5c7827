#!/usr/bin/env python3
"""Compile time, step time and memory of three training steps: tcc beside
JAX and PyTensor, measured in one interleaved run (issue 22's rows).

The models, each ported to JAX and PyTensor with the same math and shapes:

  transformer  bench/graphs/transformer_block.tg's train_step, B=16, T=8:
               token and position embeddings, LayerNorm, 4-head causal
               attention, exact-GELU MLP, cross-entropy, grad, Adam over
               17 parameters
  mlp_train    examples/mlp_train.tg's train_step, N=128: 64 -> 128 (relu)
               -> 10, softmax cross-entropy on one-hot labels, SGD
  digits       examples/train/digits.tg's train_step, N=128: 64 -> 64 (tanh)
               -> 10, cross-entropy on integer labels, SGD with momentum

What is measured, for each model and peer:

  compile, in process   tcc: `tcc run FILE --function=train_step --no-cache
                        --timing --repeat=1`, its "parse and verify" plus "to
                        a callable program" (wall). JAX: trace, lower and
                        compile, `jax.jit(step).lower(...).compile()`, wall
                        and CPU of the process (XLA's threads included).
                        PyTensor: building the graph and its grad, then
                        `pytensor.function(...)`, wall and CPU (the CPU of
                        this process only: not its g++ children's, which the
                        fresh-process CPU counts). tcc prints no CPU time
                        for its compile alone.
  compile, process      the same in a fresh process that compiles, makes one
                        call and exits: its wall time, and its CPU time (user
                        plus system, from getrusage(RUSAGE_CHILDREN)),
                        imports and interpreter start included.
  step                  the median time of a call over 7 * STEPS calls after
                        warm-up calls (tcc: the median call of `tcc run
                        --repeat`), one thread everywhere.
  memory                tcc: `tcc run --stats`, the function's "call peak ...
                        as run" (temporaries measured as allocated and freed;
                        shared variables are updated in place and not
                        counted). JAX: `compiled.memory_analysis()`,
                        temp_size_in_bytes + output_size_in_bytes (the step
                        returns new parameters and optimizer state: they are
                        outputs). PyTensor: its memory profiler's "Max peak
                        memory with current setting" (CPU, the C VM linker).

PyTensor runs with its C backend (`Mode(linker="cvm")`, "PyTensor C"). Its
cold compile uses a fresh compiledir in each process (nothing cached, as tcc's
--no-cache); "PyTensor C, warm" has the C code of its Ops already in a
compiledir (filled by an untimed compile first), so only the graph is new.
PyTensor 3's own default backend is Numba: `--numba` adds it ("PyTensor
numba", a fresh cache per process; its compile includes the first call, when
Numba compiles).

Every child runs with one thread: TCC_NUM_THREADS, OMP_NUM_THREADS,
OPENBLAS_NUM_THREADS, MKL_NUM_THREADS = 1 and XLA_FLAGS=
"--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1". tcc's
compile threads (TCC_COMPILE_THREADS) are left as they are: its CPU time is the
comparable number on a loaded machine.

JAX and PyTensor are optional and never a dependency of tcc or its tests: the
children run on TCC_PEERS_PYTHON (default: this python), and a library it
cannot import reads "not installed".

    python3 -m venv /tmp/peers && /tmp/peers/bin/pip install numpy 'jax[cpu]' pytensor
    TCC_PEERS_PYTHON=/tmp/peers/bin/python python3 bench/compile_peers.py [--tcc build/bin/tcc]
    python3 bench/compile_peers.py --quick     # every cell once, small step counts

Not a test: timings depend on the machine and its load (the table prints the
load average before and after).
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODELS = {
    "transformer": "bench/graphs/transformer_block.tg",
    "mlp_train": "examples/mlp_train.tg",
    "digits": "examples/train/digits.tg",
}
# Timed calls are 7 times these, after 5 warm-up calls.
STEPS = {"transformer": 40, "mlp_train": 200, "digits": 200}
BATCH = 128
B, T = 16, 8
LR = 0.05

ONE_THREAD = {
    "TCC_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false "
                 "intra_op_parallelism_threads=1",
}

# ---------------------------------------------------------------------------
# The models' parameters and inputs, as numpy arrays (the same for every peer).

TRANSFORMER_PARAMS = [  # name, shape, init (as the .tg declares them)
    ("E", (64, 64), ("normal", 1)), ("P", (64, 64), ("normal", 2)),
    ("g1", (64,), "ones"), ("c1", (64,), "zeros"),
    ("Wq", (64, 64), ("normal", 3)), ("Wk", (64, 64), ("normal", 4)),
    ("Wv", (64, 64), ("normal", 5)), ("Wo", (64, 64), ("normal", 6)),
    ("g2", (64,), "ones"), ("c2", (64,), "zeros"),
    ("W1", (64, 256), ("normal", 7)), ("b1", (256,), "zeros"),
    ("W2", (256, 64), ("normal", 8)), ("b2", (64,), "zeros"),
    ("gf", (64,), "ones"), ("cf", (64,), "zeros"),
    ("Wout", (64, 64), ("normal", 9)),
]


def make_array(np, shape, init, std=0.02):
    if init == "ones":
        return np.ones(shape, np.float32)
    if init == "zeros":
        return np.zeros(shape, np.float32)
    rng = np.random.default_rng(init[1])
    return (rng.standard_normal(shape) * std).astype(np.float32)


def make_params(np, model):
    """Name -> initial value, in the .tg's order."""
    if model == "transformer":
        return {n: make_array(np, s, i) for n, s, i in TRANSFORMER_PARAMS}
    hidden = 128 if model == "mlp_train" else 64
    std1, std2 = (0.18, 0.09) if model == "mlp_train" else (0.125, 0.125)
    return {
        "W1": make_array(np, (64, hidden), ("normal", 1), std1),
        "b1": np.zeros(hidden, np.float32),
        "W2": make_array(np, (hidden, 10), ("normal", 2), std2),
        "b2": np.zeros(10, np.float32),
    }


def make_inputs(np, model):
    """Name -> value of train_step's inputs, in its signature's order."""
    rng = np.random.default_rng(0)
    if model == "transformer":
        return {"ids": rng.integers(0, 64, (B, T)).astype(np.int32),
                "targets": rng.integers(0, 64, (B, T)).astype(np.int32)}
    x = rng.random((BATCH, 64), dtype=np.float32)
    labels = rng.integers(0, 10, BATCH).astype(np.int32)
    y = np.eye(10, dtype=np.float32)[labels] if model == "mlp_train" else labels
    return {"x": x, "y": y, "lr": np.array(LR, np.float32)}


# ---------------------------------------------------------------------------
# JAX ports. Each returns step(state, *inputs) -> (state, loss) and its
# initial state; the state is donated, as tcc updates its shared variables in
# place.

def jax_model(model, np):
    import jax
    import jax.numpy as jnp
    from jax.scipy.special import erf

    params = {k: jnp.asarray(v) for k, v in make_params(np, model).items()}

    if model == "transformer":
        def ln(x, g, c):
            mu = jnp.mean(x, axis=2, keepdims=True)
            return (x - mu) / jnp.sqrt(jnp.var(x, axis=2, keepdims=True) +
                                       1e-5) * g + c

        def heads(x):
            b, t, _ = x.shape
            return x.reshape(b, t, 4, 16).transpose(0, 2, 1, 3)

        def loss_fn(p, ids, targets):
            b, t = ids.shape
            x = p["E"][ids] + p["P"][jnp.arange(t)]
            h = ln(x, p["g1"], p["c1"])
            q, k, v = (heads(h @ p[w]) for w in ("Wq", "Wk", "Wv"))
            s = q @ k.transpose(0, 1, 3, 2) / 4
            mask = jnp.tril(jnp.ones((t, t), bool))
            pr = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=3)
            a = (pr @ v).transpose(0, 2, 1, 3).reshape(b, t, 64)
            x2 = x + a @ p["Wo"]
            u = ln(x2, p["g2"], p["c2"]) @ p["W1"] + p["b1"]
            gelu = 0.5 * u * (1 + erf(u * 0.7071067811865476))
            x3 = x2 + gelu @ p["W2"] + p["b2"]
            z = ln(x3, p["gf"], p["cf"]) @ p["Wout"]
            lp = jax.nn.log_softmax(z, axis=2)
            return -jnp.mean(jnp.take_along_axis(lp, targets[..., None],
                                                 axis=2))

        def step(state, ids, targets):
            p, m, v, t0 = state
            loss, g = jax.value_and_grad(loss_fn)(p, ids, targets)
            t = t0 + 1
            r = jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)
            m2 = {k: 0.9 * m[k] + 0.1 * g[k] for k in p}
            v2 = {k: 0.999 * v[k] + 0.001 * g[k] * g[k] for k in p}
            p2 = {k: p[k] - 0.001 * r * m2[k] / (jnp.sqrt(v2[k]) + 1e-8)
                  for k in p}
            return (p2, m2, v2, t), loss

        def zeros():  # a buffer of its own each: all of them are donated
            return {k: jnp.zeros_like(v) for k, v in params.items()}
        state = (params, zeros(), zeros(), jnp.zeros((), jnp.float32))
        return jax.jit(step, donate_argnums=0), state

    act = jax.nn.relu if model == "mlp_train" else jnp.tanh

    def mlp_loss(p, x, y):
        z = act(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
        onehot = y if model == "mlp_train" else jax.nn.one_hot(y, 10)
        return -jnp.mean(jnp.sum(onehot * jax.nn.log_softmax(z, axis=1),
                                 axis=1))

    if model == "mlp_train":
        def step(p, x, y, lr):
            loss, g = jax.value_and_grad(mlp_loss)(p, x, y)
            return {k: p[k] - lr * g[k] for k in p}, loss
        return jax.jit(step, donate_argnums=0), params

    def step(state, x, y, lr):
        p, v = state
        loss, g = jax.value_and_grad(mlp_loss)(p, x, y)
        # As the .tg's updates: every right-hand side reads the old values.
        v2 = {k: 0.9 * v[k] - lr * g[k] for k in p}
        p2 = {k: p[k] + 0.9 * v[k] - lr * g[k] for k in p}
        return (p2, v2), loss
    return jax.jit(step, donate_argnums=0), (
        params, {k: jnp.zeros_like(v) for k, v in params.items()})


def jax_compile(model, np, inputs):
    """Traces, lowers and compiles; returns a callable and what it measured."""
    import jax
    wall, cpu = time.perf_counter(), time.process_time()
    jitted, state = jax_model(model, np)
    args = [jax.numpy.asarray(v) for v in inputs.values()]
    compiled = jitted.lower(state, *args).compile()
    result = {"compile_s": time.perf_counter() - wall,
              "compile_cpu_s": time.process_time() - cpu}
    mem = compiled.memory_analysis()
    if mem is not None:
        result["temp_bytes"] = int(mem.temp_size_in_bytes)
        result["output_bytes"] = int(mem.output_size_in_bytes)
        result["alias_bytes"] = int(mem.alias_size_in_bytes)
        result["memory_bytes"] = result["temp_bytes"] + result["output_bytes"]
    holder = {"state": state}

    def call():
        holder["state"], loss = compiled(holder["state"], *args)
        return loss.block_until_ready()
    return call, result


# ---------------------------------------------------------------------------
# PyTensor ports: shared variables and updates, as tcc's .tg.

def pytensor_graph(model, np):
    """Returns (inputs, loss, updates) of the step's graph."""
    import pytensor
    import pytensor.tensor as pt
    from pytensor.tensor.special import log_softmax, softmax

    params = {k: pytensor.shared(v, name=k)
              for k, v in make_params(np, model).items()}
    names = list(params)
    if model == "transformer":
        ids = pt.matrix("ids", dtype="int32")
        targets = pt.matrix("targets", dtype="int32")
        b, t = ids.shape[0], ids.shape[1]
        p = params

        def ln(x, g, c):
            mu = x.mean(axis=2, keepdims=True)
            return (x - mu) / pt.sqrt(x.var(axis=2, keepdims=True) +
                                      np.float32(1e-5)) * g + c

        def heads(x):
            return x.reshape((b, t, 4, 16)).dimshuffle(0, 2, 1, 3)

        x = p["E"][ids] + p["P"][pt.arange(t)]
        h = ln(x, p["g1"], p["c1"])
        q, k, v = (heads(pt.matmul(h, p[w])) for w in ("Wq", "Wk", "Wv"))
        s = pt.matmul(q, k.dimshuffle(0, 1, 3, 2)) / np.float32(4)
        mask = pt.tril(pt.ones((t, t), dtype="int8"))
        pr = softmax(pt.switch(mask, s, np.float32(-np.inf)), axis=3)
        a = pt.matmul(pr, v).dimshuffle(0, 2, 1, 3).reshape((b, t, 64))
        x2 = x + pt.matmul(a, p["Wo"])
        u = pt.matmul(ln(x2, p["g2"], p["c2"]), p["W1"]) + p["b1"]
        gelu = np.float32(0.5) * u * (
            1 + pt.erf(u * np.float32(0.7071067811865476)))
        x3 = x2 + pt.matmul(gelu, p["W2"]) + p["b2"]
        z = pt.matmul(ln(x3, p["gf"], p["cf"]), p["Wout"])
        lp = log_softmax(z, axis=2)
        loss = -pt.take_along_axis(lp, targets[:, :, None], axis=2).mean()
        grads = pytensor.grad(loss, [p[n] for n in names])
        step = pytensor.shared(np.float32(0), name="step")
        tt = step + 1
        r = pt.sqrt(1 - np.float32(0.999)**tt) / (1 - np.float32(0.9)**tt)
        updates = [(step, tt)]
        for n, g in zip(names, grads):
            m = pytensor.shared(np.zeros_like(p[n].get_value()), "m_" + n)
            vv = pytensor.shared(np.zeros_like(p[n].get_value()), "v_" + n)
            m2 = np.float32(0.9) * m + np.float32(0.1) * g
            v2 = np.float32(0.999) * vv + np.float32(0.001) * g * g
            updates += [(m, m2), (vv, v2),
                        (p[n], p[n] - np.float32(0.001) * r * m2 /
                         (pt.sqrt(v2) + np.float32(1e-8)))]
        return [ids, targets], loss, updates

    x = pt.matrix("x", dtype="float32")
    lr = pt.scalar("lr", dtype="float32")
    p = params
    if model == "mlp_train":
        y = pt.matrix("y", dtype="float32")
        hid = pt.maximum(pt.matmul(x, p["W1"]) + p["b1"], np.float32(0))
        onehot = y
    else:
        y = pt.vector("y", dtype="int32")
        hid = pt.tanh(pt.matmul(x, p["W1"]) + p["b1"])
        onehot = pt.cast(pt.eq(y[:, None], pt.arange(10)), "float32")
    z = pt.matmul(hid, p["W2"]) + p["b2"]
    loss = -pt.mean(pt.sum(onehot * log_softmax(z, axis=1), axis=1))
    grads = pytensor.grad(loss, [p[n] for n in names])
    if model == "mlp_train":
        updates = [(p[n], p[n] - lr * g) for n, g in zip(names, grads)]
    else:
        updates = []
        for n, g in zip(names, grads):
            v = pytensor.shared(np.zeros_like(p[n].get_value()), "v" + n)
            # As the .tg's updates: every right-hand side reads old values.
            updates += [(v, np.float32(0.9) * v - lr * g),
                        (p[n], p[n] + np.float32(0.9) * v - lr * g)]
    return [x, y, lr], loss, updates


def pytensor_mode(peer):
    from pytensor.compile.mode import Mode
    return Mode(linker="numba" if peer == "pytensor-numba" else "cvm",
                optimizer="fast_run")


def pytensor_compile(model, np, inputs, peer, profile=False):
    import pytensor
    wall, cpu = time.perf_counter(), time.process_time()
    ins, loss, updates = pytensor_graph(model, np)
    f = pytensor.function(ins, loss, updates=updates, mode=pytensor_mode(peer),
                          profile=profile)
    f.trust_input = True
    args = list(inputs.values())
    first = None
    if peer == "pytensor-numba":  # Numba compiles on the first call
        first = f(*args)
    result = {"compile_s": time.perf_counter() - wall,
              "compile_cpu_s": time.process_time() - cpu}
    if first is not None:
        result["loss"] = float(first)
    return (lambda: f(*args)), result, f


def pytensor_peak_bytes(model, np, inputs):
    """PyTensor's memory profiler: 'Max peak memory with current setting',
    CPU, of the C VM linker (the first number of its line). It records
    shapes only with the global profile flags set, and then runs the same C
    thunks under its Python VM."""
    import io
    import pytensor
    pytensor.config.profile = True
    pytensor.config.profile_memory = True
    call, _, f = pytensor_compile(model, np, inputs, "pytensor", profile=True)
    for _ in range(3):
        call()
    text = io.StringIO()
    f.profile.summary_memory(text)
    pytensor.config.profile = False  # no profile printed at exit
    found = re.search(r"Max peak memory with current setting\n\s*CPU: (\d+)KB",
                      text.getvalue())
    return int(found.group(1)) * 1024 if found else None


# ---------------------------------------------------------------------------
# A child process: one peer, one model, one job; prints one RESULT line.

def median_step_ms(call, steps, blocks=7):
    """The median of blocks * steps timed calls after 5 warm-up calls: as
    `tcc run --repeat` measures tcc's, so that a preempted call on a loaded
    machine counts the same on both sides."""
    for _ in range(5):
        call()
    times = []
    for _ in range(blocks * steps):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def child(args):
    import numpy as np
    inputs = make_inputs(np, args.model)
    if args.peer == "jax":
        call, result = jax_compile(args.model, np, inputs)
    else:
        call, result, _ = pytensor_compile(args.model, np, inputs, args.peer)
    loss = float(call())  # the first step's: the ports agree
    result.setdefault("loss", loss)
    if args.child == "step":
        result["step_ms"] = median_step_ms(call, args.steps)
        if args.peer == "pytensor":
            result["memory_bytes"] = pytensor_peak_bytes(args.model, np, inputs)
    print("RESULT " + json.dumps(result), flush=True)


# ---------------------------------------------------------------------------
# The parent: runs every cell in fresh processes, interleaved, and prints the
# table.

def run_child(argv, env):
    """Runs a process; returns (stdout, wall s, CPU s of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (
            " ".join(argv), done.returncode, done.stdout[-2000:],
            done.stderr[-4000:]))
    return done.stdout, wall, cpu


class Tcc:
    name = "tcc"
    once = False

    def __init__(self, exe, work):
        self.exe, self.work = exe, work

    def argv(self, model, repeat, stats):
        import numpy as np
        paths = []
        for name, value in make_inputs(np, model).items():
            path = os.path.join(self.work, "%s.%s.npy" % (model, name))
            np.save(path, value)
            paths.append("--input=%s=%s" % (name, path))
        # The peers' initial parameters, so that the first losses agree.
        params = os.path.join(self.work, model + ".params.npz")
        np.savez(params, **make_params(np, model))
        out = os.path.join(self.work, "out")
        os.makedirs(out, exist_ok=True)
        return ([self.exe, "run", os.path.join(ROOT, MODELS[model]),
                 "--function=train_step", "--no-cache", "--timing",
                 "--shared=" + params, "--repeat=%d" % repeat,
                 "--output-dir=" + out] + paths +
                (["--stats"] if stats else []))

    def compile(self, model, env):
        out, wall, cpu = run_child(self.argv(model, 1, False), env)
        parse = float(re.search(r"timing: parse and verify ([0-9.]+) ms",
                                out).group(1))
        build = float(re.search(r"timing: to a callable program ([0-9.]+) ms",
                                out).group(1))
        import numpy as np
        loss = float(np.load(os.path.join(self.work, "out", "loss.npy")))
        return {"compile_s": (parse + build) / 1e3, "process_s": wall,
                "process_cpu_s": cpu, "loss": loss}

    def step(self, model, env, steps):
        out, _, _ = run_child(self.argv(model, steps * 7 + 1, True), env)
        ms = float(re.search(r"([0-9.]+) ms per call", out).group(1))
        # The function's own counters come first, then the runtime's.
        fn = out[out.index("function train_step:"):]
        peak = int(re.search(r"call peak\s+[^(]*\((\d+) B\) as run",
                             fn).group(1))
        return {"step_ms": ms, "memory_bytes": peak}


class PythonPeer:
    def __init__(self, name, peer, python, compiledir):
        self.name, self.peer, self.python = name, peer, python
        self.compiledir = compiledir  # None: a fresh one per process
        self.once = peer != "jax" and compiledir is None

    def env(self, env):
        env = dict(env)
        if self.peer != "jax":
            fresh = self.compiledir is None
            d = tempfile.mkdtemp(prefix="pytensor-") if fresh else self.compiledir
            env["PYTENSOR_FLAGS"] = "compiledir=%s,floatX=float32" % d
            # Numba's own cache goes with it.
            env["NUMBA_CACHE_DIR"] = os.path.join(d, "numba")
        return env

    def go(self, job, model, env, steps):
        env = self.env(env)
        try:
            out, wall, cpu = run_child(
                [self.python, os.path.abspath(__file__), "--child=" + job,
                 "--model=" + model, "--peer=" + self.peer,
                 "--steps=%d" % steps], env)
        finally:
            if self.compiledir is None and self.peer != "jax":
                shutil.rmtree(env["PYTENSOR_FLAGS"].split(",")[0].split("=")[1],
                              ignore_errors=True)
        line = [l for l in out.splitlines() if l.startswith("RESULT ")][-1]
        result = json.loads(line[len("RESULT "):])
        if job == "compile":
            result.update(process_s=wall, process_cpu_s=cpu)
        return result

    def compile(self, model, env):
        return self.go("compile", model, env, 1)

    def step(self, model, env, steps):
        return self.go("step", model, env, steps)


def importable(python, module):
    return subprocess.run([python, "-c", "import " + module],
                          capture_output=True).returncode == 0


def fmt_s(v):
    return "—" if v is None else ("%.2f s" % v if v >= 1 else "%.0f ms" % (v * 1e3))


def fmt_ms(v):
    return "—" if v is None else "%.3f ms" % v


def fmt_bytes(v):
    if v is None:
        return "—"
    return "%.0f KiB" % (v / 1024) if v < 10 << 20 else "%.1f MiB" % (v / 2**20)


def attempt(job, *args):
    """A failed cell reads "failed" in the table; the run goes on."""
    try:
        return job(*args)
    except (OSError, RuntimeError, AttributeError, ValueError, IndexError) as e:
        print("compile_peers: failed: %s" % e, file=sys.stderr)
        return {"failed": True}


def median(cells, key):
    values = [c[key] for c in cells if c.get(key) is not None]
    return statistics.median(values) if values else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tcc", default=os.path.join(ROOT, "build/bin/tcc"))
    ap.add_argument("--reps", type=int, default=3,
                    help="fresh-process compiles per cell, interleaved")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--numba", action="store_true",
                    help="also PyTensor's Numba backend (minutes per model)")
    ap.add_argument("--quick", action="store_true",
                    help="one compile per cell, few steps: does it all work?")
    ap.add_argument("--child", choices=["compile", "step"])
    ap.add_argument("--model", choices=list(MODELS))
    ap.add_argument("--peer")
    ap.add_argument("--steps", type=int, default=1)
    args = ap.parse_args()
    if args.child:
        return child(args)

    python = os.environ.get("TCC_PEERS_PYTHON", sys.executable)
    models = args.models.split(",")
    reps = 1 if args.quick else args.reps
    env = dict(os.environ, **ONE_THREAD)
    env.pop("TCC_CACHE_DIR", None)
    work = tempfile.mkdtemp(prefix="compile-peers-")
    warm_dir = os.path.join(work, "pytensor-warm")

    peers, missing = [Tcc(args.tcc, work)], []
    if importable(python, "jax"):
        peers.append(PythonPeer("JAX", "jax", python, None))
    else:
        missing.append("JAX")
    if importable(python, "pytensor"):
        peers.append(PythonPeer("PyTensor C", "pytensor", python, None))
        peers.append(PythonPeer("PyTensor C, warm", "pytensor", python, warm_dir))
        if args.numba:
            peers.append(PythonPeer("PyTensor numba", "pytensor-numba",
                                    python, None))
    else:
        missing.append("PyTensor")

    load_before = os.getloadavg()
    print("compile_peers: tcc %s, peers on %s, load %.1f %.1f %.1f" %
          ((args.tcc, python) + load_before), file=sys.stderr)
    for p in peers:  # untimed: fills the warm compiledir
        if p.name == "PyTensor C, warm":
            for m in models:
                p.compile(m, env)

    compiles = {(m, p.name): [] for m in models for p in peers}
    steps = {}
    for rep in range(reps):
        for m in models:
            for p in peers:
                # A cold PyTensor compile (its C code, or Numba's) takes
                # seconds to minutes per model: once is enough.
                if rep > 0 and p.once:
                    continue
                print("compile_peers: compile %s, %s, %d/%d" %
                      (m, p.name, rep + 1, reps), file=sys.stderr)
                compiles[(m, p.name)].append(attempt(p.compile, m, env))
    by_name = {p.name: p for p in peers}
    for m in models:
        for p in peers:
            if p.name == "PyTensor C, warm":  # the same function as cold
                continue
            print("compile_peers: step %s, %s" % (m, p.name), file=sys.stderr)
            # PyTensor C's step runs on the warm compiledir: the function is
            # the same, and its C code is not compiled a second time.
            runner = by_name["PyTensor C, warm"] if p.name == "PyTensor C" else p
            steps[(m, p.name)] = attempt(
                runner.step, m, env, 5 if args.quick else STEPS[m])
    load_after = os.getloadavg()
    shutil.rmtree(work, ignore_errors=True)

    names = [p.name for p in peers]
    ratio_to = [n for n in names if n != "tcc"]
    print("Load average before %.1f %.1f %.1f, after %.1f %.1f %.1f; %d "
          "fresh-process compile(s) per cell (median); one thread.\n" %
          (load_before + load_after + (reps,)))
    for n in missing:
        print("%s: not installed (%s)\n" % (n, python))
    header = ["model", "measure"] + names + ["tcc / " + n for n in ratio_to]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * 2 + "---:|" * (len(header) - 2))
    rows = [
        ("compile, in process (wall)", "compile_s", fmt_s, compiles),
        ("compile, in process (CPU)", "compile_cpu_s", fmt_s, compiles),
        ("compile, fresh process (wall)", "process_s", fmt_s, compiles),
        ("compile, fresh process (CPU)", "process_cpu_s", fmt_s, compiles),
        ("step, 1 thread", "step_ms", fmt_ms, steps),
        ("memory peak", "memory_bytes", fmt_bytes, steps),
    ]
    for m in models:
        for label, key, fmt, table in rows:
            values, failed = {}, set()
            for n in names:
                cell = table.get((m, n))
                if isinstance(cell, list) and cell and all(
                        c.get("failed") for c in cell):
                    failed.add(n)
                if isinstance(cell, dict) and cell.get("failed"):
                    failed.add(n)
                if cell is None:
                    values[n] = None
                elif isinstance(cell, list):
                    values[n] = median(cell, key)
                else:
                    values[n] = cell.get(key)
            ratios = []
            for n in ratio_to:
                a, b = values["tcc"], values[n]
                ratios.append("%.2f" % (a / b) if a and b else "—")
            print("| " + " | ".join(
                [m, label] + ["failed" if n in failed else fmt(values[n])
                              for n in names] + ratios) + " |")
    print("\nThe first step's loss (the same model everywhere):")
    for m in models:
        print("  %s: %s" % (m, ", ".join(
            "%s %.6f" % (n, compiles[(m, n)][0]["loss"]) for n in names
            if compiles[(m, n)] and "loss" in compiles[(m, n)][0])))
    print("\nJAX memory: temp + output bytes of memory_analysis() (temp, "
          "output, alias):")
    for m in models:
        cell = steps.get((m, "JAX"))
        if cell and "temp_bytes" in cell:
            print("  %s: %d + %d B (alias %d B)" % (
                m, cell["temp_bytes"], cell["output_bytes"],
                cell["alias_bytes"]))


if __name__ == "__main__":
    main()
