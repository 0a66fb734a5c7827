"""tcc.tensor: PyTensor's `pytensor.tensor` (`import tcc.tensor as pt`).

Symbolic constructors (`pt.matrix()`, `pt.dvector()`, ...), the ops of tcc's
graph language under PyTensor's names, and the helpers PyTensor code calls.
Each function records a Variable; `tcc.function` compiles the graph.
"""

import builtins as _builtins
import numbers

import numpy as np

from .._graph import (DTYPES, FLOAT_DTYPES, FLOATX, INT_DTYPES, TensorType,
                      Variable, as_dtype, source_location)
from . import special  # noqa: F401  (pt.special.softmax)

TensorVariable = Variable
# This module defines sum, max, min, any, all, abs and round as ops.
builtins_any, builtins_all, builtins_max = _builtins.any, _builtins.all, _builtins.max
builtins_sum = _builtins.sum


# --- symbolic inputs ------------------------------------------------------

def tensor(name=None, *, dtype=None, shape=None, ndim=None, **kwargs):
    """A symbolic input: `pt.tensor("x", dtype="float32", shape=(None, 3))`."""
    if isinstance(name, str) or name is None:
        pass
    else:  # pt.tensor(dtype, shape) in older code
        name, dtype = None, name
    dtype = as_dtype(dtype)
    if shape is None:
        shape = (None,) * (ndim or 0)
    shape = tuple(None if s is None else int(s) for s in shape)
    return Variable("input", dtype=dtype, ndim=len(shape), name=name,
                    shape=shape, loc=source_location())


def _maker(ndim, fixed_dtype=None):
    def make(name=None, dtype=None, shape=None):
        return tensor(name, dtype=fixed_dtype or dtype,
                      shape=shape if shape is not None else (None,) * ndim)
    return make


scalar = _maker(0)
vector = _maker(1)
matrix = _maker(2)
tensor3 = _maker(3)
tensor4 = _maker(4)
row = lambda name=None, dtype=None: tensor(name, dtype=dtype, shape=(1, None))  # noqa: E731
col = lambda name=None, dtype=None: tensor(name, dtype=dtype, shape=(None, 1))  # noqa: E731

for _prefix, _dtype in (("f", "float32"), ("d", "float64"), ("i", "int32"),
                        ("l", "int64"), ("b", "bool")):
    for _kind, _ndim in (("scalar", 0), ("vector", 1), ("matrix", 2),
                         ("tensor3", 3), ("tensor4", 4)):
        globals()[_prefix + _kind] = _maker(_ndim, _dtype)
del _prefix, _dtype, _kind, _ndim


# --- constants and conversions -------------------------------------------

def _is_scalar(x):
    return isinstance(x, (numbers.Number, np.number, np.bool_)) and not isinstance(x, Variable)


def constant(value, name=None, dtype=None):
    """A constant tensor: a scalar in the graph, an array as a hidden
    (never updated) shared variable."""
    if dtype is None and isinstance(value, (bool, np.bool_)):
        dtype = "bool"
    elif dtype is None and isinstance(value, numbers.Integral) and not isinstance(value, np.integer):
        dtype = "int64"
    elif dtype is None and isinstance(value, float):
        dtype = FLOATX
    arr = np.asarray(value, dtype=None if dtype is None else as_dtype(dtype))
    dtype = as_dtype(arr.dtype)
    if arr.ndim == 0:
        return Variable("constant", params={"value": arr.item()}, dtype=dtype,
                        ndim=0, name=name, loc=source_location())
    from .._sharedvar import shared
    s = shared(np.array(arr, dtype=dtype), name=name)
    s._constant = True
    return s


def as_tensor_variable(x, name=None, ndim=None, dtype=None):
    if isinstance(x, Variable):
        return x if dtype is None else cast(x, dtype)
    return constant(x, name=name, dtype=dtype)


as_tensor = as_tensor_variable


def _weak(x, like_dtype):
    """A Python scalar next to a tensor of `like_dtype` (PyTensor's
    autocasting): the tensor's dtype where the value fits its kind."""
    if isinstance(x, (bool, np.bool_)):
        return constant(x, dtype="bool")
    if isinstance(x, numbers.Integral):
        return constant(x, dtype=like_dtype if like_dtype != "bool" else "int64")
    if isinstance(x, numbers.Real):
        return constant(x, dtype=like_dtype if like_dtype in FLOAT_DTYPES else FLOATX)
    raise TypeError(f"cannot use {type(x).__name__} in a tcc graph")


def _upcast(*dtypes):
    d = np.result_type(*[np.dtype(t) for t in dtypes]).name
    if d not in DTYPES:  # int8 + int32 and the like never arise here
        raise TypeError(f"no tcc dtype for {' and '.join(dtypes)}")
    return d


def _operands(*xs):
    """Variables of one dtype from a mix of Variables, Python scalars and
    arrays, upcast as numpy does."""
    vs = [x for x in xs if isinstance(x, Variable)]
    arrays = [np.asarray(x) for x in xs if not isinstance(x, Variable) and not _is_scalar(x)]
    dtypes = [v.dtype for v in vs] + [as_dtype(a.dtype) for a in arrays]
    if dtypes:
        dtype = _upcast(*dtypes)
        # Python numbers are weak: they keep the tensors' dtype unless it
        # cannot hold them (a float next to integers, a number next to bool).
        for x in xs:
            if not _is_scalar(x) or isinstance(x, (bool, np.bool_)):
                continue
            if isinstance(x, numbers.Integral) and dtype == "bool":
                dtype = "int64"
            elif not isinstance(x, numbers.Integral) and dtype not in FLOAT_DTYPES:
                dtype = FLOATX
    else:
        dtype = as_dtype(np.result_type(*xs).name)
    out = []
    for x in xs:
        if isinstance(x, Variable):
            v = x
        elif _is_scalar(x):
            v = _weak(x, dtype)
        else:
            v = constant(np.asarray(x))
        if v.dtype != dtype:
            v = cast(v, dtype)
        out.append(v)
    return out, dtype


def _broadcast_static(shapes):
    ndim = builtins_max((len(s) for s in shapes), default=0)
    result = []
    for k in range(ndim):
        sizes = [s[len(s) - ndim + k] for s in shapes if len(s) - ndim + k >= 0]
        known = [n for n in sizes if n is not None and n != 1]
        if known:
            result.append(known[0])
        elif sizes and builtins_all(n == 1 for n in sizes):
            result.append(1)
        else:
            result.append(None)
    return tuple(result)


def _elementwise(op, params, xs, dtype=None):
    vs, common = _operands(*xs)
    if op in ("binary", "clip") and common == "bool":
        # Arithmetic on bool: numpy's (and PyTensor's) integer result.
        vs, common = [cast(v, "int64") for v in vs], "int64"
    shape = _broadcast_static([v.static_shape for v in vs])
    return Variable(op, vs, params, dtype or common, len(shape),
                    loc=source_location(), shape=shape)


def cast(x, dtype):
    dtype = as_dtype(dtype)
    x = as_tensor_variable(x)
    if x.dtype == dtype:
        return x
    return Variable("cast", [x], {"dtype": dtype}, dtype, x.ndim,
                    loc=source_location(), shape=x.static_shape)


# --- elementwise arithmetic ----------------------------------------------

def _binary(kind):
    def op(a, b):
        return _elementwise("binary", {"kind": kind}, (a, b))
    op.__name__ = kind
    return op


add = _binary("add")
sub = _binary("sub")
mul = _binary("mul")
maximum = _binary("maximum")
minimum = _binary("minimum")
subtract = sub
multiply = mul


def pow(a, b):  # noqa: A001
    return _elementwise("binary", {"kind": "pow"}, (a, b))


power = pow


def true_div(a, b):
    (a, b), dtype = _operands(a, b)
    if dtype not in FLOAT_DTYPES:
        a, b = cast(a, FLOATX), cast(b, FLOATX)
    return _elementwise("binary", {"kind": "div"}, (a, b))


true_divide = divide = true_div


def floor_div(a, b):
    (a, b), dtype = _operands(a, b)
    if dtype in FLOAT_DTYPES:
        return floor(true_div(a, b))
    return cast(floor(true_div(cast(a, FLOATX), cast(b, FLOATX))), dtype)


int_div = floor_divide = floor_div


def mod(a, b):
    (a, b), dtype = _operands(a, b)
    return a - floor_div(a, b) * b


def _unary(kind, float_only=True):
    def op(x):
        x = as_tensor_variable(x)
        if float_only and x.dtype not in FLOAT_DTYPES:
            x = cast(x, FLOATX)
        return Variable("unary", [x], {"kind": kind}, x.dtype, x.ndim,
                        loc=source_location(), shape=x.static_shape)
    op.__name__ = kind
    return op


neg = _unary("neg", False)
abs = _unary("abs", False)  # noqa: A001
sgn = sign = _unary("sign", False)
exp = _unary("exp")
log = _unary("log")
tanh = _unary("tanh")
sigmoid = _unary("sigmoid")
sqrt = _unary("sqrt")
rsqrt = _unary("rsqrt")
erf = _unary("erf")
log1p = _unary("log1p")
expm1 = _unary("expm1")
softplus = _unary("softplus")
sin = _unary("sin")
cos = _unary("cos")
floor = _unary("floor")
ceil = _unary("ceil")
round = _unary("round")  # noqa: A001
relu_ = _unary("relu", False)
absolute = abs
negative = neg


def sqr(x):
    return mul(x, x)


square = sqr


def log2(x):
    return true_div(log(x), np.log(2.0))


def log10(x):
    return true_div(log(x), np.log(10.0))


def exp2(x):
    return pow(2.0, x)


def reciprocal(x):
    return true_div(1, x)


def tan(x):
    return true_div(sin(x), cos(x))


def sinh(x):
    return (exp(x) - exp(-as_tensor_variable(x))) * 0.5


def cosh(x):
    return (exp(x) + exp(-as_tensor_variable(x))) * 0.5


def clip(x, a_min, a_max):
    vs, _ = _operands(x, a_min, a_max)
    return Variable("clip", vs, {}, vs[0].dtype, vs[0].ndim,
                    loc=source_location(), shape=vs[0].static_shape)


# --- comparisons and logic -----------------------------------------------

def _compare(pred):
    def op(a, b):
        return _elementwise("compare", {"pred": pred}, (a, b), dtype="bool")
    op.__name__ = pred
    return op


lt = less = _compare("lt")
le = less_equal = _compare("le")
gt = greater = _compare("gt")
ge = greater_equal = _compare("ge")
eq = equal = _compare("eq")
neq = not_equal = _compare("ne")


def _logical(kind):
    def op(a, b):
        return _elementwise("logical", {"kind": kind}, (a, b), dtype="bool")
    return op


and_ = bitwise_and = logical_and = _logical("and")
or_ = bitwise_or = logical_or = _logical("or")
xor = bitwise_xor = logical_xor = _logical("xor")


def invert(x):
    x = as_tensor_variable(x)
    return Variable("logical_not", [x], {}, "bool", x.ndim,
                    loc=source_location(), shape=x.static_shape)


bitwise_not = logical_not = invert


def switch(cond, ift, iff):
    cond = as_tensor_variable(cond)
    if cond.dtype != "bool":
        cond = neq(cond, 0)
    (ift, iff), dtype = _operands(ift, iff)
    shape = _broadcast_static([cond.static_shape, ift.static_shape, iff.static_shape])
    return Variable("select", [cond, ift, iff], {}, dtype, len(shape),
                    loc=source_location(), shape=shape)


where = switch


def isnan(x):
    x = as_tensor_variable(x)
    return neq(x, x)


def isinf(x):
    x = as_tensor_variable(x)
    return eq(globals()["abs"](x), np.inf)


# --- reductions -----------------------------------------------------------

def _axes(x, axis):
    if axis is None:
        return list(range(x.ndim))
    if isinstance(axis, (int, np.integer)):
        axis = [axis]
    out = sorted({int(a) % x.ndim if x.ndim else int(a) for a in axis})
    return out


def _reduce(kind, x, axis, keepdims, ddof=0, dtype=None):
    x = as_tensor_variable(x)
    if kind in ("mean", "var", "std", "logsumexp") and x.dtype not in FLOAT_DTYPES:
        x = cast(x, FLOATX)
    if kind in ("sum", "prod") and x.dtype == "bool":
        x = cast(x, "int64")
    axes = _axes(x, axis)
    shape = [1 if k in axes else s for k, s in enumerate(x.static_shape)]
    if not keepdims:
        shape = [s for k, s in enumerate(x.static_shape) if k not in axes]
    v = Variable("reduce", [x], {"kind": kind, "axes": axes, "keepdims": keepdims,
                                 "ddof": ddof}, x.dtype, len(shape),
                 loc=source_location(), shape=shape)
    return v if dtype is None else cast(v, dtype)


def sum(x, axis=None, dtype=None, keepdims=False, acc_dtype=None):  # noqa: A001
    return _reduce("sum", x, axis, keepdims, dtype=dtype)


def mean(x, axis=None, dtype=None, keepdims=False, acc_dtype=None):
    return _reduce("mean", x, axis, keepdims, dtype=dtype)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return _reduce("max", x, axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return _reduce("min", x, axis, keepdims)


def prod(x, axis=None, dtype=None, keepdims=False, acc_dtype=None):
    return _reduce("prod", x, axis, keepdims, dtype=dtype)


def var(x, axis=None, ddof=0, keepdims=False):
    return _reduce("var", x, axis, keepdims, ddof)


def std(x, axis=None, ddof=0, keepdims=False):
    return _reduce("std", x, axis, keepdims, ddof)


def logsumexp(x, axis=None, keepdims=False):
    return _reduce("logsumexp", x, axis, keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    x = as_tensor_variable(x)
    return gt(_reduce("max", cast(neq(x, 0) if x.dtype != "bool" else x, "int32"), axis, keepdims), 0)


def all(x, axis=None, keepdims=False):  # noqa: A001
    x = as_tensor_variable(x)
    return gt(_reduce("min", cast(neq(x, 0) if x.dtype != "bool" else x, "int32"), axis, keepdims), 0)


def argmax(x, axis=None, keepdims=False):
    x = as_tensor_variable(x)
    if axis is None:
        x = flatten(x, 1)
        axis = 0
    axis = int(axis) % x.ndim
    shape = list(x.static_shape)
    if keepdims:
        shape[axis] = 1
    else:
        del shape[axis]
    return Variable("argmax", [x], {"axis": axis, "keepdims": keepdims}, "int64",
                    len(shape), loc=source_location(), shape=shape)


def argmin(x, axis=None, keepdims=False):
    return argmax(neg(x), axis, keepdims)


# --- products, shapes and data movement -----------------------------------

def matmul(a, b):
    (a, b), dtype = _operands(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return mul(a, b)
    if a.ndim == 1 and b.ndim == 1:
        shape = ()
    elif a.ndim == 1:
        shape = b.static_shape[:-2] + b.static_shape[-1:]
    elif b.ndim == 1:
        shape = a.static_shape[:-1]
    else:
        batch = _broadcast_static([a.static_shape[:-2], b.static_shape[:-2]])
        shape = batch + (a.static_shape[-2], b.static_shape[-1])
    return Variable("matmul", [a, b], {}, dtype, len(shape),
                    loc=source_location(), shape=shape)


def dot(a, b):
    a, b = as_tensor_variable(a), as_tensor_variable(b)
    if a.ndim == 0 or b.ndim == 0:
        return mul(a, b)
    if b.ndim > 2:
        raise NotImplementedError("dot with a right operand of rank > 2: use matmul")
    return matmul(a, b)


def outer(a, b):
    a, b = as_tensor_variable(a), as_tensor_variable(b)
    return mul(a.dimshuffle(0, "x"), b.dimshuffle("x", 0))


def transpose(x, axes=None):
    x = as_tensor_variable(x)
    perm = list(range(x.ndim))[::-1] if axes is None else [int(a) % x.ndim for a in axes]
    if perm == list(range(x.ndim)):
        return x
    return Variable("transpose", [x], {"perm": perm}, x.dtype, x.ndim,
                    loc=source_location(),
                    shape=[x.static_shape[p] for p in perm])


def dimshuffle(x, *pattern):
    """PyTensor's dimshuffle: a permutation of the kept axes, with 'x' for a
    new axis of size 1; an axis left out must be of static size 1."""
    x = as_tensor_variable(x)
    if len(pattern) == 1 and isinstance(pattern[0], (list, tuple)):
        pattern = tuple(pattern[0])
    kept = [p for p in pattern if p != "x"]
    for k in range(x.ndim):
        if k not in kept and x.static_shape[k] != 1:
            raise ValueError(f"dimshuffle{pattern}: axis {k} of {x} is dropped "
                             "but is not known to have size 1")
    return Variable("dimshuffle", [x], {"pattern": list(pattern)}, x.dtype, len(pattern),
                    loc=source_location(),
                    shape=[1 if p == "x" else x.static_shape[p] for p in pattern])


def _size_item(s):
    """A reshape target entry: an int, or a size Variable (x.shape[k])."""
    if isinstance(s, Variable):
        return s
    return int(s)


def reshape(x, shape, ndim=None):
    x = as_tensor_variable(x)
    if isinstance(shape, Variable):
        if shape.op == "shape":
            shape = [shape[k] for k in range(shape.params["ndim"])]
        elif shape.op == "make_vector":
            shape = list(shape.inputs)
        else:
            raise NotImplementedError("reshape to a computed shape vector: give "
                                      "the sizes as a tuple")
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    target = [_size_item(s) for s in shape]
    static = [s if isinstance(s, int) and s >= 0 else None for s in target]
    return Variable("reshape", [x] + [s for s in target if isinstance(s, Variable)],
                    {"target": target}, x.dtype, len(target),
                    loc=source_location(), shape=static)


def flatten(x, ndim=1):
    x = as_tensor_variable(x)
    if ndim == 1:
        return reshape(x, (-1,))
    return reshape(x, tuple(x.shape[k] for k in range(ndim - 1)) + (-1,))


def shape(x):
    x = as_tensor_variable(x)
    return Variable("shape", [x], {"ndim": x.ndim}, "int64", 1,
                    loc=source_location(), shape=(x.ndim,))


def shape_i(x, i):
    x = as_tensor_variable(x)
    return Variable("size", [x], {"axis": int(i) % x.ndim}, "int64", 0,
                    loc=source_location())


def broadcast_to(x, shape):
    x = as_tensor_variable(x)
    target = [_size_item(s) for s in shape]
    return Variable("broadcast_to", [x] + [s for s in target if isinstance(s, Variable)],
                    {"target": target}, x.dtype, len(target), loc=source_location(),
                    shape=[s if isinstance(s, int) else None for s in target])


def concatenate(tensors, axis=0):
    vs, dtype = _operands(*tensors)
    nd = vs[0].ndim
    axis = int(axis) % nd
    shape = list(vs[0].static_shape)
    sizes = [v.static_shape[axis] for v in vs]
    shape[axis] = None if None in sizes else int(np.sum(sizes))
    return Variable("concat", vs, {"axis": axis}, dtype, nd,
                    loc=source_location(), shape=shape)


def join(axis, *tensors):
    return concatenate(tensors, axis)


def stack(tensors, axis=0):
    vs = [as_tensor_variable(t) for t in tensors]
    nd = vs[0].ndim + 1
    axis = int(axis) % nd
    pattern = list(range(vs[0].ndim))
    pattern.insert(axis, "x")
    return concatenate([v.dimshuffle(*pattern) for v in vs], axis)


def take(x, indices, axis=None):
    x = as_tensor_variable(x)
    if axis is None:
        x, axis = flatten(x), 0
    ids = as_tensor_variable(indices)
    if ids.dtype not in INT_DTYPES:
        raise TypeError(f"take needs int32 or int64 indices, got {ids.dtype}")
    axis = int(axis) % x.ndim
    shape = x.static_shape[:axis] + ids.static_shape + x.static_shape[axis + 1:]
    return Variable("take", [x, ids], {"axis": axis}, x.dtype, len(shape),
                    loc=source_location(), shape=shape)


def take_along_axis(x, indices, axis):
    x, ids = as_tensor_variable(x), as_tensor_variable(indices)
    return Variable("take_along_axis", [x, ids], {"axis": int(axis) % x.ndim}, x.dtype,
                    ids.ndim, loc=source_location(), shape=ids.static_shape)


def one_hot(ids, depth, dtype="float64"):
    ids = as_tensor_variable(ids)
    dtype = as_dtype(dtype)
    return Variable("one_hot", [ids], {"depth": int(depth), "dtype": dtype}, dtype,
                    ids.ndim + 1, loc=source_location(),
                    shape=ids.static_shape + (int(depth),))


def cumsum(x, axis=None):
    x = as_tensor_variable(x)
    if axis is None:
        x, axis = flatten(x), 0
    return Variable("scan", [x], {"kind": "sum", "axis": int(axis) % x.ndim}, x.dtype,
                    x.ndim, loc=source_location(), shape=x.static_shape)


def cumprod(x, axis=None):
    x = as_tensor_variable(x)
    if axis is None:
        x, axis = flatten(x), 0
    return Variable("scan", [x], {"kind": "prod", "axis": int(axis) % x.ndim}, x.dtype,
                    x.ndim, loc=source_location(), shape=x.static_shape)


def tril(x, k=0):
    x = as_tensor_variable(x)
    return Variable("triangle", [x], {"k": int(k), "lower": True}, x.dtype, x.ndim,
                    loc=source_location(), shape=x.static_shape)


def triu(x, k=0):
    x = as_tensor_variable(x)
    return Variable("triangle", [x], {"k": int(k), "lower": False}, x.dtype, x.ndim,
                    loc=source_location(), shape=x.static_shape)


# --- constructors ----------------------------------------------------------

def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    if builtins_any(isinstance(v, Variable) for v in (start, stop, step)):
        raise NotImplementedError("arange with symbolic bounds: tcc needs the "
                                  "size before the call; give numbers")
    n = int(np.ceil((stop - start) / step))
    if dtype is None:
        dtype = "int64" if builtins_all(isinstance(v, numbers.Integral) for v in (start, stop, step)) else FLOATX
    return Variable("arange", [], {"start": start, "stop": stop, "step": step},
                    as_dtype(dtype), 1,
                    loc=source_location(), shape=(builtins_max(n, 0),))


def eye(n, m=None, k=0, dtype=None):
    m = n if m is None else m
    return Variable("eye", [], {"n": int(n), "m": int(m), "k": int(k)}, as_dtype(dtype),
                    2, loc=source_location(), shape=(int(n), int(m)))


identity = eye


def alloc(value, *shape):
    value = as_tensor_variable(value)
    return full(shape, value, value.dtype)


def full(shape, fill_value, dtype=None):
    if isinstance(shape, (int, np.integer, Variable)):
        shape = (shape,)
    value = as_tensor_variable(fill_value)
    if dtype is not None:
        value = cast(value, dtype)
    target = [_size_item(s) for s in shape]
    return Variable("full", [value] + [s for s in target if isinstance(s, Variable)],
                    {"target": target}, value.dtype, len(target), loc=source_location(),
                    shape=[s if isinstance(s, int) else None for s in target])


def zeros(shape, dtype=None):
    return full(shape, constant(0, dtype=as_dtype(dtype)))


def ones(shape, dtype=None):
    return full(shape, constant(1, dtype=as_dtype(dtype)))


def _like(x, value, dtype):
    x = as_tensor_variable(x)
    dtype = as_dtype(dtype) if dtype is not None else x.dtype
    return Variable("full_like", [x, constant(value, dtype=dtype)], {}, dtype, x.ndim,
                    loc=source_location(), shape=x.static_shape)


def zeros_like(x, dtype=None):
    return _like(x, 0, dtype)


def ones_like(x, dtype=None):
    return _like(x, 1, dtype)


def full_like(x, fill_value, dtype=None):
    return _like(x, fill_value, dtype)




# --- indexing ----------------------------------------------------------------

def getitem(x, idx):
    """numpy indexing: integers, slices, `...` and None (basic), or one
    integer array or variable (`x[ids]`, a gather on axis 0)."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    if x.op == "shape" and len(idx) == 1 and isinstance(idx[0], (int, np.integer)):
        return shape_i(x.inputs[0], int(idx[0]))
    if len(idx) == 1 and (isinstance(idx[0], (Variable, list, np.ndarray))):
        ids = idx[0]
        if not isinstance(ids, Variable):
            ids = constant(np.asarray(ids))
        if ids.dtype == "bool":
            raise NotImplementedError("boolean masks give shapes known only "
                                      "during the call; use pt.switch")
        return take(x, ids, 0)
    entries, newaxes, pos = [], [], 0
    for item in idx:
        if item is None:
            newaxes.append(pos)
            pos += 1
        elif item is Ellipsis:
            entries.append(("ellipsis", None, None, 1))
            newaxes.append("...")
        elif isinstance(item, slice):
            step = 1 if item.step is None else int(item.step)
            entries.append(("slice", None if item.start is None else int(item.start),
                            None if item.stop is None else int(item.stop), step))
            pos += 1
        elif isinstance(item, (int, np.integer)):
            entries.append(("int", int(item), None, 1))
        else:
            raise NotImplementedError(f"index of type {type(item).__name__}")
    ndim = x.ndim - builtins_sum(1 for e in entries if e[0] == "int")
    v = Variable("index", [x], {"entries": entries}, x.dtype, ndim,
                 loc=source_location())
    if builtins_any(isinstance(a, int) for a in newaxes):
        if "..." in newaxes:
            raise NotImplementedError("None together with ... in one index")
        pattern = list(range(ndim))
        for p in sorted(a for a in newaxes if isinstance(a, int)):
            pattern.insert(p, "x")
        v = dimshuffle(v, *pattern)
    return v


# --- PyTensor's module layout -------------------------------------------------

from . import math  # noqa: E402,F401
from . import nnet  # noqa: E402,F401

relu = special.relu
softmax = special.softmax
log_softmax = special.log_softmax
