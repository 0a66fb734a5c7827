"""Which dynamic sizes of a function's inputs are the same size.

tcc names every dynamic dimension of an input (`f64[N, M]`), and a named
size broadcasts only against 1 or itself: `x + y` of two vectors needs both
to be `[N]`. PyTensor leaves sizes unnamed and checks them during the call.
This pass walks one function's graph, unifies the sizes that its ops make
equal (elementwise broadcasting, matrix products, concatenation), and names
each class once, so that the runtime checks them before the call with tcc's
messages. A size the pass cannot follow is a fresh class.
"""


class Dim:
    __slots__ = ("parent", "static", "symbol")

    def __init__(self, static=None):
        self.parent = None
        self.static = static
        self.symbol = None

    def root(self):
        d = self
        while d.parent is not None:
            d = d.parent
        return d


def union(a, b):
    ra, rb = a.root(), b.root()
    if ra is rb:
        return ra
    rb.parent = ra
    if ra.static is None:
        ra.static = rb.static
    return ra


def _static(d):
    return d.root().static


def broadcast(shapes):
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(ndim):
        dims = [s[len(s) - ndim + k] for s in shapes if len(s) - ndim + k >= 0]
        real = [d for d in dims if _static(d) != 1]
        if not real:
            out.append(dims[0])
            continue
        r = real[0]
        for d in real[1:]:
            r = union(r, d)
        out.append(r.root())
    return out


def infer(var, ins, size_dims):
    """The dims of `var` from the dims of its inputs `ins`."""
    op, p = var.op, var.params
    if op in ("binary", "compare", "logical", "select", "clip"):
        return broadcast(ins)
    if op in ("unary", "cast", "softmax", "scan", "triangle", "logical_not",
              "full_like"):
        return list(ins[0])
    if op == "reduce":
        axes = p["axes"]
        if p["keepdims"]:
            return [Dim(1) if k in axes else d for k, d in enumerate(ins[0])]
        return [d for k, d in enumerate(ins[0]) if k not in axes]
    if op == "argmax":
        out = list(ins[0])
        if p["keepdims"]:
            out[p["axis"]] = Dim(1)
        else:
            del out[p["axis"]]
        return out
    if op == "matmul":
        a, b = ins
        if len(a) == 1 and len(b) == 1:
            union(a[0], b[0])
            return []
        if len(a) == 1:
            union(a[0], b[-2])
            return list(b[:-2]) + [b[-1]]
        if len(b) == 1:
            union(a[-1], b[0])
            return list(a[:-1])
        union(a[-1], b[-2])
        return broadcast([a[:-2], b[:-2]]) + [a[-2], b[-1]]
    if op == "transpose":
        return [ins[0][k] for k in p["perm"]]
    if op == "dimshuffle":
        return [Dim(1) if k == "x" else ins[0][k] for k in p["pattern"]]
    if op in ("reshape", "broadcast_to", "full"):
        out = []
        for t in p["target"]:
            if isinstance(t, int):
                out.append(Dim(t) if t >= 0 else Dim())
            else:
                out.append(size_dims.get(t.id) or Dim())
        return out
    if op == "concat":
        axis = p["axis"]
        for k in range(len(ins[0])):
            if k != axis:
                for other in ins[1:]:
                    union(ins[0][k], other[k])
        statics = [_static(s[axis]) for s in ins]
        out = list(ins[0])
        out[axis] = Dim(None if None in statics else sum(statics))
        return out
    if op == "index":
        out, src = [], list(ins[0])
        entries = p["entries"]
        n_fixed = sum(1 for e in entries if e[0] != "ellipsis")
        k = 0
        for e in entries:
            if e[0] == "ellipsis":
                span = len(src) - n_fixed
                out.extend(src[k:k + span])
                k += span
            elif e[0] == "int":
                k += 1
            else:
                d = src[k]
                k += 1
                begin, end, step = e[1], e[2], e[3]
                if begin is None and end is None and step == 1:
                    out.append(d)
                elif _static(d) is not None:
                    out.append(Dim(len(range(*slice(begin, end, step).indices(_static(d))))))
                else:
                    out.append(Dim())
        out.extend(src[k:])
        return out
    if op == "size":
        return []
    if op == "shape":
        return [Dim(len(ins[0]))]
    if op == "take":
        axis = p["axis"]
        return list(ins[0][:axis]) + list(ins[1]) + list(ins[0][axis + 1:])
    if op == "take_along_axis":
        return list(ins[1])
    if op == "one_hot":
        return list(ins[0]) + [Dim(p["depth"])]
    if op == "grad_part":
        return list(ins[-1])
    return [Dim(s) for s in var.static_shape]
