"""A function's graph as a tcc graph file, compiled in this process.

The graph between a function's inputs and its outputs and updates is
written as one graph file (docs/graph-format.md): one statement per op, each
noting the Python line that made it. The module compiles the text with
tcc's compiler (`_tcc.compile`, through the compile cache) and loads it
into the process's managed memory space; tcc's messages are rewritten to
point at the Python lines.
"""

import itertools
import re

import numpy as np

from . import _dims, _tcc

_TG_DTYPE = {"float16": "f16", "float32": "f32", "float64": "f64",
             "int32": "i32", "int64": "i64", "bool": "bool"}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_LOGICAL = {"and": "logical_and", "or": "logical_or", "xor": "logical_xor"}



class CompileError(ValueError):
    """A graph tcc rejects; the message is tcc's, at the Python line."""


class MissingInputError(Exception):
    """The graph needs an input that the function was not given."""


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


def _topological(roots, givens, stop=()):
    """The variables the roots depend on, inputs first (no recursion). The
    walk ends at the variables whose ids are in `stop` (a function's inputs:
    an intermediate value given as an input hides what computes it)."""
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
        if v.id in stop:
            continue
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
    order = _topological(roots, givens, {i.variable.id for i in inputs})

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
    # A shared variable's shape is fixed: an update's sizes are its sizes
    # (an input it is computed from is declared with them, and checked).
    for s, u in updates:
        for d, size in zip(dims[givens.get(u, u).id], s.static_shape):
            if size is not None:
                _dims.union(d, _dims.Dim(size))
    # Name each input dimension's class once.
    for i in inputs:
        for k, d in enumerate(dims[i.variable.id]):
            r = d.root()
            if r.static is None and r.symbol is None:
                r.symbol = i.tg_name + "_" + str(k)

    e = _Emitter(fname)
    for i in inputs:
        e.names[i.variable.id] = i.tg_name
    fresh_counter = itertools.count()
    fresh = (f"R{n}" for n in fresh_counter)

    def dims_of(v):
        return "[" + ", ".join(_dim_text(d, fresh) for d in dims[v.id]) + "]"

    def target_text(v, target):
        out = []
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
            dropped = [k for k in range(v.inputs[0].ndim) if k not in kept]
            if kept != sorted(kept):
                # The kept axes in their new order, the dropped (size 1)
                # ones last, for the reshape to remove.
                perm = kept + dropped
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
                # A constant the cost does not depend on changes nothing
                # (and is not in the graph).
                constants = [e.names[givens.get(c, c).id] for c in group.constants
                             if givens.get(c, c).id in e.names]
                kw = f", consider_constant=[{', '.join(constants)}]" if constants else ""
                e.stmt(f"{lhs} = grad({cost}, [{wrt}]{kw})", v.loc)
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

def _build(text, locs, fname, data_parallel=False):
    """Compiles the graph text in this process (tcc's front door, through
    the compile cache) and loads its function `fname`. Returns it and what
    the cache did ("hit (key ...)", "miss, stored ...", "off (...)")."""
    buffer = fname + ".tg"
    fn, diagnostics, cache = _tcc.compile(text, buffer, fname, data_parallel)
    if fn is None:
        raise CompileError(_located(diagnostics, buffer, locs))
    return fn, cache


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
