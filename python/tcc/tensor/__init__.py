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

def _several(make):
    """PyTensor's plural makers: `scalars("xs")` is two scalars named x and
    s, `dscalars("a", "b")` two named a and b, `vectors(3)` three unnamed."""
    def several(*names):
        if names and isinstance(names[0], int):
            return [make() for _ in range(names[0])]
        if len(names) == 1:
            names = names[0]
        return [make(n) for n in names]
    return several


scalars, vectors, matrices = _several(scalar), _several(vector), _several(matrix)

# As in PyTensor, the makers of a fixed dtype are types: `dvector("x")`
# makes a variable, and `shared(np.ones(3)).type == dvector`.
for _prefix, _dtype in (("f", "float32"), ("d", "float64"), ("i", "int32"),
                        ("l", "int64"), ("b", "bool")):
    for _kind, _ndim in (("scalar", 0), ("vector", 1), ("matrix", 2),
                         ("tensor3", 3), ("tensor4", 4)):
        globals()[_prefix + _kind] = TensorType(_dtype, (None,) * _ndim)
    for _kind, _ndim in (("scalars", 0), ("vectors", 1), ("matrices", 2)):
        globals()[_prefix + _kind] = _several(TensorType(_dtype, (None,) * _ndim))
del _prefix, _dtype, _kind, _ndim


def get_vector_length(v):
    """The length of a vector whose length is static (PyTensor's)."""
    v = as_tensor_variable(v)
    if v.ndim != 1:
        raise ValueError(f"get_vector_length of a tensor of {v.ndim} dimensions")
    if v.static_shape[0] is None:
        raise ValueError(f"the length of {v!r} is known only when the function runs")
    return v.static_shape[0]


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



from ._shape_ops import (alloc, arange, broadcast_to, concatenate, cumprod,  # noqa: E402,F401
                         cumsum, dimshuffle, dot, eye, flatten, full, full_like,
                         getitem, identity, join, matmul, one_hot, ones, ones_like,
                         outer, reshape, shape, shape_i, stack, take,
                         take_along_axis, transpose, tril, triu, zeros,
                         zeros_like)

# --- PyTensor's module layout -------------------------------------------------

from . import math  # noqa: E402,F401
from . import nnet  # noqa: E402,F401

relu = special.relu
softmax = special.softmax
log_softmax = special.log_softmax
