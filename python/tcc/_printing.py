"""tcc.dprint, a graph as text, one op per line (PyTensor's debugprint),
and pydotprint, drawn by the `tcc` tool."""

import os
import subprocess
import sys
import tempfile


def _label(v):
    p = {k: val for k, val in v.params.items() if k not in ("group",)}
    args = ", ".join(f"{k}={val}" for k, val in p.items())
    op = v.op if not args else f"{v.op}{{{args}}}"
    name = f" '{v.name}'" if v.name else ""
    return f"{op}{name} [id {v.id}] {v.dtype}{list(v.static_shape)}"


def _tool():
    """The `tcc` tool that draws pydotprint's view: $TCC_TOOL, else the one
    of this build or installation."""
    tool = os.environ.get("TCC_TOOL")
    if tool:
        return tool
    from . import _config
    return _config.TCC_TOOL


def dprint(obj, file=None, print_type=True):
    """Prints the graph of a variable, a list of them or a Function; returns
    the text (file='str') or writes to `file` (stdout by default)."""
    from ._function import Function
    if isinstance(obj, Function):
        roots = [o.variable for o in obj._outputs] + [u for _, u in obj._updates]
    elif isinstance(obj, (list, tuple)):
        roots = list(obj)
    else:
        roots = [obj]
    lines, seen = [], set()
    for r in roots:
        stack = [(r, 0)]
        while stack:
            v, depth = stack.pop()
            mark = " *" if v.id in seen and v.inputs else ""
            lines.append("   " * depth + (" |" if depth else "") + _label(v) + mark)
            if v.id in seen:
                continue
            seen.add(v.id)
            for i in reversed(v.inputs):
                stack.append((i, depth + 1))
    text = "\n".join(lines) + "\n"
    if file == "str":
        return text
    (file or sys.stdout).write(text)
    return obj


def pp(v):
    return dprint(v, file="str")


def pydotprint(fct, outfile=None, format="png", **kwargs):
    """Draws a compiled function (or the graph of a variable) with tcc's
    own graph view (`tcc compile --emit=dot`, docs/graph-dumps.md): each op
    with the memory decisions tcc compiled. Writes `outfile` (default
    `tcc.pydotprint.FORMAT`); `format="dot"` writes the Graphviz text,
    any other format is drawn by Graphviz's `dot`."""
    from ._function import Function, function
    from ._graph import Variable
    if isinstance(fct, Variable) or isinstance(fct, (list, tuple)):
        roots = list(fct) if isinstance(fct, (list, tuple)) else [fct]
        inputs, seen, stack = [], set(), list(roots)
        while stack:
            v = stack.pop()
            if v.id in seen:
                continue
            seen.add(v.id)
            if v.op == "input":
                inputs.append(v)
            stack.extend(v.inputs)
        fct = function(inputs, roots, on_unused_input="ignore")
    if not isinstance(fct, Function):
        raise TypeError("pydotprint draws a tcc Function or variables")
    outfile = outfile or f"tcc.pydotprint.{format}"
    with tempfile.TemporaryDirectory(prefix="tcc-dot-") as work:
        tg = os.path.join(work, "graph.tg")
        dot = outfile if format == "dot" else os.path.join(work, "graph.dot")
        with open(tg, "w") as f:
            f.write(fct._graph_text)
        proc = subprocess.run([_tool(), "compile", tg, "--emit=dot", "-o", dot],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr)
        if format != "dot":
            subprocess.run(["dot", f"-T{format}", dot, "-o", outfile], check=True)
    return outfile
