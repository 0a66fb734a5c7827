"""tcc.function: a PyTensor graph compiled by tcc and called with numpy.

The graph between the inputs and the outputs and updates is written out as
a tcc graph file (one statement per op, each remembering the Python line
that made it), compiled by the `tcc` tool into a shared object, and loaded
into the process's managed memory space, where the shared variables already
live. tcc's errors are reported at the Python lines.
"""

import atexit
import itertools
import os
import re
import shutil
import subprocess
import tempfile
import warnings

import numpy as np

from . import _dims, _tcc
from ._graph import FLOAT_DTYPES, Variable
from ._sharedvar import SharedVariable

_TG_DTYPE = {"float16": "f16", "float32": "f32", "float64": "f64",
             "int32": "i32", "int64": "i64", "bool": "bool"}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_LOGICAL = {"and": "logical_and", "or": "logical_or", "xor": "logical_xor"}
_function_ids = itertools.count()
_workdir = None


class CompileError(ValueError):
    """A graph tcc rejects; the message is tcc's, at the Python line."""


class UnusedInputError(Exception):
    """An input that no output or update depends on (on_unused_input='raise')."""


class MissingInputError(Exception):
    """The graph needs an input that the function was not given."""


class DisconnectedInputError(ValueError):
    """grad with respect to a variable the cost does not depend on
    (disconnected_inputs='raise')."""


class In:
    """PyTensor's In: an input with its flags. borrow=True or mutable=True:
    the function may overwrite the array (it is passed without a copy, and
    a call that would need one is an error)."""

    def __init__(self, variable, name=None, value=None, update=None,
                 mutable=False, strict=False, allow_downcast=None,
                 autoname=True, implicit=None, borrow=False, shared=False):
        if update is not None and value is None:
            raise ValueError("In(update=...) needs a value to start from")
        self.update = update
        self.variable = variable
        self.name = name if name is not None else variable.name
        self.value = value
        self.mutable = mutable
        self.borrow = borrow or mutable
        self.strict = strict
        self.allow_downcast = allow_downcast


class Out:
    """PyTensor's Out: borrow=True reuses the output's buffer from call to
    call, so the array a call returns is overwritten by the next one."""

    def __init__(self, variable, borrow=False):
        self.variable = variable
        self.borrow = borrow


def _tg_literal(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)


def _topological(roots, givens):
    """The variables the roots depend on, inputs first (no recursion)."""
    order, seen = [], set()
    stack = [(r, False) for r in reversed(roots)]
    while stack:
        v, done = stack.pop()
        v = givens.get(v, v)
        if done:
            order.append(v)
            continue
        if v.id in seen:
            continue
        seen.add(v.id)
        stack.append((v, True))
        for i in reversed(v.inputs):
            i = givens.get(i, i)
            if i.id not in seen:
                stack.append((i, False))
    return order


class _Emitter:
    """Writes one function of a graph file."""

    def __init__(self, fname):
        self.fname = fname
        self.lines = ["tg 1"]
        self.shared_lines = []
        self.body = []
        self.locs = {}  # graph-file line -> Python place
        self.names = {}
        self.shared = {}

    def name(self, v):
        return self.names[v.id]

    def stmt(self, text, loc):
        self.body.append((text, loc))


def _dim_text(d, fresh):
    r = d.root()
    if r.static is not None:
        return str(r.static)
    if r.symbol is not None:
        return r.symbol
    return next(fresh)


def _compile_graph(inputs, outputs, updates, givens, fname):
    """Writes the graph file of a function, compiles it and loads it."""
    roots = [o.variable for o in outputs] + [u for _, u in updates]
    order = _topological(roots, givens)
    input_ids = {i.variable.id for i in inputs}

    # Dims: inputs get a class per dimension, the ops unify them.
    dims, size_dims = {}, {}
    for i in inputs:
        v = i.variable
        dims[v.id] = [_dims.Dim(s) for s in v.static_shape]
    for v in order:
        if v.id in dims:
            continue
        if v.op == "input":
            raise MissingInputError(
                f"{v.loc[0]}:{v.loc[1]}: the graph of {fname} needs input "
                f"{v!r} (made here), which is not among the function's inputs")
        if v.op in ("shared",):
            dims[v.id] = [_dims.Dim(s) for s in v.static_shape]
            continue
        ins = [dims[givens.get(i, i).id] for i in v.inputs]
        dims[v.id] = _dims.infer(v, ins, size_dims)
        if v.op == "size":
            size_dims[v.id] = dims[v.inputs[0].id][v.params["axis"]]
    # Name each input dimension's class once.
    used_names = set()
    for i in inputs:
        for k, d in enumerate(dims[i.variable.id]):
            r = d.root()
            if r.static is None and r.symbol is None:
                base = i.tg_name + "_" + str(k)
                r.symbol = base
                used_names.add(base)

    e = _Emitter(fname)
    for i in inputs:
        e.names[i.variable.id] = i.tg_name
    fresh_counter = itertools.count()
    fresh = (f"R{n}" for n in fresh_counter)

    def dims_of(v):
        return "[" + ", ".join(_dim_text(d, fresh) for d in dims[v.id]) + "]"

    def target_text(v, target):
        out, unknown = [], 0
        for t, d in zip(target, dims[v.id]):
            if isinstance(t, int):
                out.append(str(t))
            else:
                r = d.root()
                if r.static is not None:
                    out.append(str(r.static))
                elif r.symbol is not None:
                    out.append(r.symbol)
                else:
                    out.append("-1")
                    unknown += 1
        return "[" + ", ".join(out) + "]"

    grad_groups = {}
    for v in order:
        if v.id in e.names:
            continue
        if v.op == "shared":
            e.names[v.id] = v.store_name
            shape = ", ".join(str(s) for s in v.static_shape)
            e.shared_lines.append(f"shared {v.store_name} : {_TG_DTYPE[v.dtype]}[{shape}] = zeros")
            e.shared[v.store_name] = v
            continue
        n = f"v{v.id}"
        e.names[v.id] = n
        a = [e.name(givens.get(i, i)) for i in v.inputs]
        p = v.params
        op = v.op
        dt = _TG_DTYPE.get(v.dtype)
        if op == "constant":
            expr = f"full([], {_tg_literal(p['value'])}, dtype={dt})"
        elif op == "cast":
            expr = f"cast({a[0]}, dtype={dt})"
        elif op == "binary":
            expr = f"{p['kind']}({a[0]}, {a[1]})"
        elif op == "compare":
            expr = f"{a[0]} {_COMPARE[p['pred']]} {a[1]}"
        elif op == "logical":
            expr = f"{_LOGICAL[p['kind']]}({a[0]}, {a[1]})"
        elif op == "logical_not":
            expr = f"logical_not({a[0]})"
        elif op == "select":
            expr = f"select({a[0]}, {a[1]}, {a[2]})"
        elif op == "clip":
            expr = f"clip({a[0]}, {a[1]}, {a[2]})"
        elif op == "unary":
            expr = f"{p['kind']}({a[0]})"
        elif op == "reduce":
            kw = ""
            if p["axes"] and len(p["axes"]) < v.inputs[0].ndim:
                kw += ", axis=[" + ", ".join(map(str, p["axes"])) + "]"
            if p["keepdims"]:
                kw += ", keepdims=true"
            if p["kind"] in ("var", "std") and p["ddof"]:
                kw += f", ddof={p['ddof']}"
            expr = f"{p['kind']}({a[0]}{kw})"
        elif op == "argmax":
            expr = f"argmax({a[0]}, axis={p['axis']}, keepdims={'true' if p['keepdims'] else 'false'})"
        elif op == "matmul":
            expr = f"matmul({a[0]}, {a[1]})"
        elif op == "softmax":
            expr = f"{'log_softmax' if p['log'] else 'softmax'}({a[0]}, axis={p['axis']})"
        elif op == "transpose":
            expr = f"transpose({a[0]}, perm=[{', '.join(map(str, p['perm']))}])"
        elif op == "dimshuffle":
            kept = [k for k in p["pattern"] if k != "x"]
            src = a[0]
            if kept != sorted(kept):
                perm = sorted(range(len(kept)), key=lambda j: kept[j])
                order_kept = sorted(kept)
                perm = [order_kept.index(k) for k in kept]
                tn = f"t{v.id}"
                e.stmt(f"{tn} = transpose({src}, perm=[{', '.join(map(str, perm))}])", v.loc)
                src = tn
            expr = f"reshape({src}, shape={target_text(v, [None] * v.ndim)})"
        elif op in ("reshape", "broadcast_to"):
            expr = f"{op}({a[0]}, shape={target_text(v, p['target'])})"
        elif op == "full":
            expr = f"full({target_text(v, p['target'])}, {a[0]})"
        elif op == "full_like":
            expr = f"full_like({a[0]}, value={_tg_literal(v.inputs[1].params['value'])}, dtype={dt})"
        elif op == "index":
            parts = []
            for kind, b, en, st in p["entries"]:
                if kind == "ellipsis":
                    parts.append("...")
                elif kind == "int":
                    parts.append(str(b))
                else:
                    s = ("" if b is None else str(b)) + ":" + ("" if en is None else str(en))
                    if st != 1:
                        s += f":{st}"
                    parts.append(s)
            expr = f"{a[0]}[{', '.join(parts)}]"
        elif op == "concat":
            expr = f"concatenate({', '.join(a)}, axis={p['axis']})"
        elif op == "size":
            expr = f"size({a[0]}, axis={p['axis']})"
        elif op == "shape":
            parts = [f"reshape(size({a[0]}, axis={k}), shape=[1])" for k in range(p["ndim"])]
            expr = f"concatenate({', '.join(parts)}, axis=0)" if parts else "zeros([0], dtype=i64)"
        elif op == "take":
            expr = f"take({a[0]}, {a[1]}, axis={p['axis']})"
        elif op == "take_along_axis":
            expr = f"take_along_axis({a[0]}, {a[1]}, axis={p['axis']})"
        elif op == "one_hot":
            expr = f"one_hot({a[0]}, depth={p['depth']}, dtype={dt})"
        elif op == "scan":
            expr = f"cum{p['kind']}({a[0]}, axis={p['axis']})"
        elif op == "triangle":
            expr = f"{'tril' if p['lower'] else 'triu'}({a[0]}, k={p['k']})"
        elif op == "arange":
            expr = (f"arange({_tg_literal(p['start'])}, {_tg_literal(p['stop'])}, "
                    f"{_tg_literal(p['step'])}, dtype={dt})")
        elif op == "eye":
            expr = f"eye({p['n']}, {p['m']}, k={p['k']}, dtype={dt})"
        elif op == "grad_part":
            group = p["group"]
            if id(group) not in grad_groups:
                names = [f"g{id(group) % 100000}_{j}" for j in range(len(group.wrt))]
                grad_groups[id(group)] = names
                cost = e.name(givens.get(group.cost, group.cost))
                wrt = ", ".join(e.name(givens.get(w, w)) for w in group.wrt)
                lhs = ", ".join(names)
                e.stmt(f"{lhs} = grad({cost}, [{wrt}])" if len(names) > 1
                       else f"{lhs} = grad({cost}, [{wrt}])", v.loc)
            expr = grad_groups[id(group)][p["index"]]
        else:
            raise NotImplementedError(f"op {op!r} in a tcc function")
        e.stmt(f"{n} = {expr}", v.loc)

    # The function header, outputs and updates.
    ins = []
    for i in inputs:
        v = i.variable
        flag = " borrow" if i.borrow else ""
        # An input's own static sizes stay: tcc then reports a conflict.
        sizes = [str(s) if s is not None else _dim_text(d, fresh)
                 for s, d in zip(v.static_shape, dims[v.id])]
        ins.append(f"{i.tg_name} : {_TG_DTYPE[v.dtype]}[{', '.join(sizes)}]{flag}")
    outs, assigns = [], []
    for k, o in enumerate(outputs):
        v = givens.get(o.variable, o.variable)
        flag = " borrow" if o.borrow else ""
        outs.append(f"o{k} : {_TG_DTYPE[v.dtype]}{dims_of(v)}{flag}")
        assigns.append((f"o{k} = {e.name(v)}", o.variable.loc))
    ups = []
    for s, u in updates:
        u = givens.get(u, u)
        if u.dtype != s.dtype:
            raise TypeError(
                f"an update of shared variable {s!r} ({s.dtype}) must have its "
                f"type: the update is {u.dtype} (cast it with .astype)")
        ups.append((f"  {s.store_name} = {e.name(u)}", u.loc))
        if s.store_name not in e.shared:
            shape = ", ".join(str(x) for x in s.static_shape)
            e.shared_lines.append(f"shared {s.store_name} : {_TG_DTYPE[s.dtype]}[{shape}] = zeros")
            e.shared[s.store_name] = s

    lines = ["tg 1"] + e.shared_lines
    locs = {}
    lines.append(f"func {fname}({', '.join(ins)}) -> ({', '.join(outs)}) {{")
    for text, loc in e.body + assigns:
        lines.append(f"  {text}  # {loc[0]}:{loc[1]}")
        locs[len(lines)] = loc
    if ups:
        lines.append("  updates {")
        for text, loc in ups:
            lines.append(f"{text}  # {loc[0]}:{loc[1]}")
            locs[len(lines)] = loc
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n", locs


def _tool():
    tool = os.environ.get("TCC_TOOL")
    if tool:
        return tool
    from . import _config
    return _config.TCC_TOOL


def _build(text, locs, fname):
    global _workdir
    if _workdir is None:
        _workdir = tempfile.mkdtemp(prefix="tcc-python-")
        atexit.register(shutil.rmtree, _workdir, True)
    tg = os.path.join(_workdir, fname + ".tg")
    so = os.path.join(_workdir, fname + ".so")
    with open(tg, "w") as f:
        f.write(text)
    proc = subprocess.run([_tool(), "compile", tg, "--emit=so", "-o", so],
                          capture_output=True, text=True)
    try:
        if proc.returncode != 0:
            raise CompileError(_located(proc.stderr, tg, locs))
        return _tcc.load(so, fname)
    finally:
        for path in (tg, so):
            if os.path.exists(path) and not os.environ.get("TCC_PYTHON_KEEP"):
                os.unlink(path)


def _located(stderr, tg, locs):
    """tcc's messages with each graph-file place replaced by the Python
    line that wrote the statement."""
    out = []
    pattern = re.compile(re.escape(tg) + r":(\d+):(\d+): (error|warning|note): (.*)")
    for line in stderr.splitlines():
        m = pattern.match(line)
        if m:
            loc = locs.get(int(m.group(1)))
            if loc:
                out.append(f"{loc[0]}:{loc[1]}:{loc[2]}: {m.group(3)}: {m.group(4)}")
                out.append("  in the graph tcc compiled:")
                continue
            out.append(f"{m.group(3)}: {m.group(4)}")
            continue
        out.append(line)
    return "\n".join(out)


for _cls in (CompileError, UnusedInputError, MissingInputError, DisconnectedInputError):
    _cls.__module__ = "tcc"

_OUTPUT_MISMATCH = re.compile(r"output '(o\d+)' is declared (\w+\[[^\]]*\]) but its value is (\w+\[[^\]]*\])")


def _merge_dims(declared, actual):
    """`declared` with the static sizes of `actual` (`f64[R1, R2]` and
    `f64[2, ((N+1)/2)]` give `f64[2, R2]`)."""
    head, dims = declared.split("[", 1)
    dims = [d.strip() for d in dims.rstrip("]").split(",")] if dims != "]" else []
    values = actual.split("[", 1)[1].rstrip("]")
    parts, depth, cur = [], 0, ""
    for ch in values:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    merged = [p if p.isdigit() else d for d, p in zip(dims, parts)]
    return head + "[" + ", ".join(merged) + "]"


class _GradGroup:
    def __init__(self, cost, wrt):
        self.cost = cost
        self.wrt = wrt


class Function:
    """A compiled function: call it with numpy arrays (or numbers, lists)."""

    def __init__(self, inputs, outputs, out_kind, out_keys, updates, givens,
                 name, trust_input):
        self.name = name
        self.maker_inputs = inputs
        self._outputs = outputs
        self._out_kind = out_kind
        self._out_keys = out_keys
        self._updates = updates
        self._givens = givens
        self._fname = f"f{next(_function_ids)}"
        self._shared = [v for v in _topological([o.variable for o in outputs] + [u for _, u in updates], givens)
                        if isinstance(v, SharedVariable)] + [s for s, _ in updates]
        # In(x, value, update=e): a container the function keeps; e is one
        # more (hidden) output, stored as the input's next value.
        self._containers = [k for k, i in enumerate(inputs) if i.update is not None]
        outputs = list(outputs) + [Out(inputs[k].update) for k in self._containers]
        self._n_user_outputs = len(outputs) - len(self._containers)
        text, locs = _compile_graph(inputs, outputs, updates, givens, self._fname)
        self._graph_text = text  # for pydotprint: the graph file tcc compiled
        try:
            self._fn = _build(text, locs, self._fname)
        except CompileError as err:
            # An output whose size is static though the graph here could not
            # tell: declare it as tcc computed it, once.
            fixes = _OUTPUT_MISMATCH.findall(str(err))
            if not fixes:
                raise
            for out_name, declared, actual in fixes:
                text = text.replace(f"{out_name} : {declared}",
                                    f"{out_name} : {_merge_dims(declared, actual)}", 1)
            self._fn = _build(text, locs, self._fname)
            self._graph_text = text
        self.trust_input = trust_input
        self._by_name = {}
        for k, i in enumerate(inputs):
            if i.name:
                self._by_name[i.name] = k
        self._dtypes = [i.variable.dtype for i in inputs]
        self._ndims = [i.variable.ndim for i in inputs]
        self._np_dtypes = [np.dtype(d) for d in self._dtypes]

    def _convert(self, k, value):
        i = self.maker_inputs[k]
        dtype = self._dtypes[k]
        if isinstance(value, np.ndarray):
            if value.dtype.name != dtype:
                if i.borrow:
                    return value  # the binding says why this cannot be
                if i.strict:
                    raise TypeError(
                        f"input {k} ({i.variable!r}) of {self._fname} is strict: it "
                        f"takes {dtype} arrays only, not {value.dtype}")
                if not np.can_cast(value.dtype, dtype, "safe") and not i.allow_downcast:
                    raise TypeError(
                        f"input {k} ({i.variable!r}) of {self._fname} is {dtype} but "
                        f"the array is {value.dtype}: converting it would lose "
                        f"precision (cast it first, or In(x, allow_downcast=True))")
                value = value.astype(dtype)
        else:
            if isinstance(value, Variable):
                raise TypeError("a compiled function takes arrays, not symbolic variables")
            arr = np.asarray(value)
            converted = np.asarray(arr, dtype=dtype)
            # Numbers and lists are converted when no value changes (0 into
            # float32, not 0.1), or anyway with allow_downcast (PyTensor's rule).
            if not i.allow_downcast and arr.dtype != converted.dtype and \
                    not np.can_cast(arr.dtype, dtype, "safe") and \
                    not np.array_equal(converted.astype(arr.dtype), arr):
                raise TypeError(
                    f"input {k} ({i.variable!r}) is {dtype}: {value!r} would change "
                    f"when converted (pass allow_input_downcast=True or "
                    f"In(x, allow_downcast=True))")
            value = converted
        if value.ndim != self._ndims[k]:
            raise TypeError(
                f"input {k} ({i.variable!r}) of {self._fname} has {self._ndims[k]} "
                f"dimensions, the array has {value.ndim} (shape {value.shape})")
        return value

    def __call__(self, *args, **kwargs):
        if self._trusted_single and not kwargs:
            return self._fn(args)[0]  # trust_input: straight to the runtime
        n = len(self.maker_inputs)
        if self.trust_input and not kwargs:
            values = list(args)
        elif not kwargs and len(args) == n and all(
                type(a) is np.ndarray and a.dtype is d and a.ndim == k
                for a, d, k in zip(args, self._np_dtypes, self._ndims)):
            values = list(args)  # arrays of the right dtype and rank
        else:
            if len(args) > n:
                raise TypeError(f"too many arguments: {self._fname} takes {n} inputs")
            values = list(args) + [None] * (n - len(args))
            given = [True] * len(args) + [False] * (n - len(args))
            for key, value in kwargs.items():
                if key not in self._by_name:
                    raise TypeError(f"unknown input name {key!r}")
                values[self._by_name[key]] = value
                given[self._by_name[key]] = True
            for k in range(n):
                if not given[k]:
                    if self.maker_inputs[k].value is None:
                        raise TypeError(f"missing input {k} ({self.maker_inputs[k].variable!r})")
                    values[k] = self.maker_inputs[k].value
                values[k] = self._convert(k, values[k])
        results = self._fn(values)
        if self._containers:
            for k, value in zip(self._containers, results[self._n_user_outputs:]):
                self.maker_inputs[k].value = value
            results = results[:self._n_user_outputs]
        if self._out_kind == "single":
            return results[0]
        if self._out_kind == "dict":
            return dict(zip(self._out_keys, results))
        return results

    @property
    def trust_input(self):
        return self._trust_input

    @trust_input.setter
    def trust_input(self, value):
        # Settable after compiling, as PyTensor's (f.trust_input = True).
        self._trust_input = bool(value)
        self._trusted_single = (self._trust_input and not self._containers
                                and self._out_kind == "single")

    def copy(self, share_memory=False, swap=None, delete_updates=False,
             name=None, profile=None):
        """A new function of the same graph: `swap` maps shared variables
        to others of the same type, `delete_updates` drops the updates.
        Both functions use the same shared variables otherwise; each has
        its own buffers (tcc keeps no storage between calls but a borrowed
        output's, so share_memory changes nothing else)."""
        givens = dict(self._givens)
        for old, new in (swap or {}).items():
            if not isinstance(old, SharedVariable) or not isinstance(new, SharedVariable):
                raise TypeError("swap maps shared variables to shared variables")
            if old.type != new.type:
                raise TypeError(f"swap of {old!r} ({old.type}) for {new!r} ({new.type}): "
                                "the types differ")
            givens[old] = new
        updates = [] if delete_updates else [
            (givens.get(s, s), u) for s, u in self._updates]
        return Function(self.maker_inputs, self._outputs[:self._n_user_outputs],
                        self._out_kind, self._out_keys, updates, givens,
                        name if name is not None else self.name, self.trust_input)

    def free(self):
        """Nothing to free: tcc's temporaries go when each call ends."""

    def __reduce__(self):
        # Unpickling compiles the graph again.
        return (Function, (self.maker_inputs, self._outputs[:self._n_user_outputs], self._out_kind,
                           self._out_keys, self._updates, self._givens,
                           self.name, self.trust_input))


def function(inputs, outputs=None, mode=None, updates=None, givens=None,
             no_default_updates=False, accept_inplace=False, name=None,
             rebuild_strict=True, allow_input_downcast=None, profile=None,
             on_unused_input="raise", trust_input=False):
    """PyTensor's function: compiles the graph from `inputs` to `outputs`
    (a variable, a list or a dict) with `updates` of shared variables."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"inputs must be a list or a tuple, not {type(inputs).__name__}")
    if not (isinstance(no_default_updates, bool)
            or (isinstance(no_default_updates, list)
                and all(isinstance(v, SharedVariable) for v in no_default_updates))):
        raise TypeError("no_default_updates must be True, False or a list of "
                        "shared variables")
    if on_unused_input not in ("raise", "warn", "ignore", None):
        raise ValueError(f"on_unused_input must be 'raise', 'warn' or 'ignore', not {on_unused_input!r}")
    ins = []
    for k, x in enumerate(inputs):
        i = x if isinstance(x, In) else In(x)
        if allow_input_downcast and i.allow_downcast is None:
            i.allow_downcast = True
        if not isinstance(i.variable, Variable):
            raise TypeError(f"input {k} is {type(i.variable).__name__}, not a symbolic variable")
        if isinstance(i.variable, SharedVariable):
            raise TypeError(f"input {k} ({i.variable!r}) is a shared variable: "
                            "shared variables are implicit inputs; use givens to replace one")
        ins.append(i)
    seen = set()
    for k, i in enumerate(ins):
        if i.variable.id in seen:
            raise ValueError(f"input {k} ({i.variable!r}) is given twice")
        seen.add(i.variable.id)
        name_ok = i.name and re.fullmatch(r"[A-Za-z_]\w*", i.name)
        i.tg_name = f"{i.name}" if name_ok else f"in{k}"
    # Graph-file names: inputs i_*, shared variables s_*, values v*, t*,
    # gradients g*, outputs o*, fresh sizes R*: they never collide.
    taken = set()
    for k, i in enumerate(ins):
        if i.tg_name in taken:
            i.tg_name = f"in{k}"
        taken.add(i.tg_name)
    for i in ins:
        i.tg_name = "i_" + i.tg_name

    out_kind, out_keys = "list", None
    if outputs is None:
        outs = []
    elif isinstance(outputs, dict):
        out_kind, out_keys = "dict", list(outputs)
        outs = [outputs[key] for key in out_keys]
    elif isinstance(outputs, (list, tuple)):
        outs = list(outputs)
    else:
        out_kind, outs = "single", [outputs]
    from .tensor import as_tensor_variable
    outs = [o if isinstance(o, Out) else Out(as_tensor_variable(o)) for o in outs]

    if isinstance(updates, dict):
        updates = list(updates.items())
    pairs = []
    for pair in updates or []:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"an update is a pair (shared variable, new value), not {pair!r}")
        s, u = pair
        if not isinstance(s, SharedVariable):
            raise TypeError(f"only shared variables can be updated, not {s!r}")
        if not isinstance(u, Variable):
            u = as_tensor_variable(np.asarray(u, dtype=s.dtype) if np.ndim(u) == 0 else u)
        if u.ndim != s.ndim or any(a == 1 and b != 1 for a, b in zip(u.static_shape, s.static_shape)):
            raise TypeError(
                f"an update of shared variable {s!r} ({s.dtype}, shape {s.static_shape}) "
                f"must have its type: the update has {u.ndim} dimensions, static shape "
                f"{u.static_shape}")
        pairs.append((s, u))
    updates = pairs
    seen_updates = set()
    for s, _ in updates:
        if s.id in seen_updates:
            raise ValueError(f"shared variable {s!r} is updated twice")
        seen_updates.add(s.id)
    if isinstance(givens, dict):
        givens = list(givens.items())
    givens = {a: (b if isinstance(b, Variable) else as_tensor_variable(b)) for a, b in (givens or [])}

    # Default updates of the shared variables the graph reads.
    updated = {s.id for s, _ in updates}
    if no_default_updates is not True:
        skip = set() if not no_default_updates else {v.id for v in no_default_updates}
        for v in _topological([o.variable for o in outs] + [u for _, u in updates], givens):
            if isinstance(v, SharedVariable) and v.default_update is not None \
                    and v.id not in updated and v.id not in skip:
                updates.append((v, v.default_update))
                updated.add(v.id)

    # Unused inputs.
    reached = {v.id for v in _topological([o.variable for o in outs] + [u for _, u in updates]
                                          + [i.update for i in ins if i.update is not None], givens)}
    for k, i in enumerate(ins):
        if i.variable.id not in reached:
            msg = (f"input {k} ({i.variable!r}) of the function is not used by any "
                   f"output or update; pass on_unused_input='warn' or 'ignore' to allow it")
            if on_unused_input in ("raise", None):
                raise UnusedInputError(msg)
            if on_unused_input == "warn":
                warnings.warn(msg, stacklevel=2)
    return Function(ins, outs, out_kind, out_keys, updates, givens, name, trust_input)


def grad(cost, wrt, consider_constant=None, disconnected_inputs="raise", **kwargs):
    """The symbolic gradient of the scalar `cost` with respect to `wrt` (a
    variable or a list), computed by tcc's own grad."""
    if consider_constant:
        raise NotImplementedError("grad(consider_constant=...) is not implemented yet")
    single = not isinstance(wrt, (list, tuple))
    wrt_list = [wrt] if single else list(wrt)
    if cost.ndim != 0:
        raise TypeError(f"cost must be a scalar, got a tensor of {cost.ndim} dimensions")
    if disconnected_inputs not in ("raise", "warn", "ignore"):
        raise ValueError("disconnected_inputs must be 'raise', 'warn' or 'ignore'")
    reached = {v.id for v in _topological([cost], {})}
    for k, w in enumerate(wrt_list):
        if w.id not in reached:
            msg = (f"grad: the cost does not depend on wrt {k} ({w!r}); its "
                   f"gradient is zero (pass disconnected_inputs='ignore' or 'warn')")
            if disconnected_inputs == "raise":
                raise DisconnectedInputError(msg)
            if disconnected_inputs == "warn":
                warnings.warn(msg, stacklevel=2)
    group = _GradGroup(cost, wrt_list)
    parts = [Variable("grad_part", [cost, w], {"group": group, "index": k}, w.dtype, w.ndim,
                      shape=w.static_shape) for k, w in enumerate(wrt_list)]
    return parts[0] if single else parts
