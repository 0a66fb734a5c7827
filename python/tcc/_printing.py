"""tcc.dprint: a graph as text, one op per line (PyTensor's debugprint)."""

import sys


def _label(v):
    p = {k: val for k, val in v.params.items() if k not in ("group",)}
    args = ", ".join(f"{k}={val}" for k, val in p.items())
    op = v.op if not args else f"{v.op}{{{args}}}"
    name = f" '{v.name}'" if v.name else ""
    return f"{op}{name} [id {v.id}] {v.dtype}{list(v.static_shape)}"


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
