"""Symbolic variables: the graph a PyTensor program writes, kept in Python.

A Variable records the op that computes it, its inputs, its dtype and rank,
and the Python source place that wrote it. Nothing is checked against tcc's
shape rules until `tcc.function` replays the graph into tcc's GraphBuilder
(`_compile.py`); tcc's errors then point at these places.
"""

import itertools
import os
import sys

import numpy as np

# The dtypes tcc has, by numpy name.
DTYPES = ("float16", "float32", "float64", "int32", "int64", "bool")
FLOAT_DTYPES = ("float16", "float32", "float64")
INT_DTYPES = ("int32", "int64")
# PyTensor's config.floatX default.
FLOATX = "float64"

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_ids = itertools.count()


def source_location():
    """The (file, line, column) of the user code that made a Variable: the
    innermost frame outside this package."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 1, 1)
    code = frame.f_code
    line, col = frame.f_lineno, 1
    try:
        pos = next(itertools.islice(code.co_positions(), frame.f_lasti // 2, None))
        if pos[0] == line and pos[2] is not None:
            col = pos[2] + 1
    except (StopIteration, AttributeError):
        pass
    return (code.co_filename, line or 1, col)


class Config:
    """tcc.config: `floatX`, the dtype of `pt.vector()` and the like when
    no dtype is given (float64, or float32)."""

    def __init__(self):
        self.floatX = FLOATX
        self.device = "cpu"


config = Config()


def as_dtype(dtype):
    """A numpy dtype name tcc has, or TypeError."""
    if dtype is None or dtype == "floatX":
        return as_dtype(config.floatX) if config.floatX != "floatX" else FLOATX
    name = np.dtype(dtype).name
    if name not in DTYPES:
        raise TypeError(f"tcc has no dtype {name!r} (it has {', '.join(DTYPES)})")
    return name


class Variable:
    """A symbolic tensor: PyTensor's TensorVariable."""

    __array_priority__ = 1000  # numpy defers its operators to ours

    def __init__(self, op, inputs=(), params=None, dtype=FLOATX, ndim=0,
                 name=None, loc=None, shape=None):
        self.op = op
        self.inputs = tuple(inputs)
        self.params = params or {}
        self.dtype = dtype
        self.ndim = ndim
        self.name = name
        self.loc = loc or source_location()
        self.id = next(_ids)
        # Static sizes where known (None: known only at run time).
        self.static_shape = tuple(shape) if shape is not None else (None,) * ndim
        self.tag = _Tag()

    # --- properties PyTensor code reads ---------------------------------
    @property
    def type(self):
        return TensorType(self.dtype, self.static_shape)

    @property
    def broadcastable(self):
        return tuple(s == 1 for s in self.static_shape)

    @property
    def T(self):
        from . import tensor as pt
        return pt.transpose(self)

    @property
    def shape(self):
        from . import tensor as pt
        return pt.shape(self)

    @property
    def size(self):
        from . import tensor as pt
        return pt.prod(pt.shape(self))

    def __repr__(self):
        return self.name if self.name else f"{self.op}.0"

    def __str__(self):
        return self.__repr__()

    def __hash__(self):
        return self.id

    def __bool__(self):
        raise TypeError("a symbolic variable has no truth value; use "
                        "pt.switch(cond, a, b) or & | ~ for logic")

    def __len__(self):
        raise TypeError("a symbolic variable has no len(); use x.shape[0]")

    def __iter__(self):
        raise TypeError("a symbolic variable cannot be iterated")

    def eval(self, inputs_to_values=None):
        """Compiles and runs a function computing this variable."""
        from ._function import function
        inputs_to_values = inputs_to_values or {}
        inputs = list(inputs_to_values)
        f = function(inputs, self, on_unused_input="ignore")
        return f(*[inputs_to_values[v] for v in inputs])

    def __setstate__(self, state):
        # An unpickled variable is a new one of this process.
        self.__dict__.update(state)
        self.id = next(_ids)

    def clone(self):
        v = Variable(self.op, self.inputs, dict(self.params), self.dtype,
                     self.ndim, self.name, self.loc, self.static_shape)
        return v

    # --- operators (tcc.tensor does the work) -----------------------------
    def _ops(self):
        from . import tensor as pt
        return pt

    def __add__(self, o): return self._ops().add(self, o)
    def __radd__(self, o): return self._ops().add(o, self)
    def __sub__(self, o): return self._ops().sub(self, o)
    def __rsub__(self, o): return self._ops().sub(o, self)
    def __mul__(self, o): return self._ops().mul(self, o)
    def __rmul__(self, o): return self._ops().mul(o, self)
    def __truediv__(self, o): return self._ops().true_div(self, o)
    def __rtruediv__(self, o): return self._ops().true_div(o, self)
    def __floordiv__(self, o): return self._ops().floor_div(self, o)
    def __rfloordiv__(self, o): return self._ops().floor_div(o, self)
    def __mod__(self, o): return self._ops().mod(self, o)
    def __rmod__(self, o): return self._ops().mod(o, self)
    def __pow__(self, o): return self._ops().pow(self, o)
    def __rpow__(self, o): return self._ops().pow(o, self)
    def __matmul__(self, o): return self._ops().matmul(self, o)
    def __rmatmul__(self, o): return self._ops().matmul(o, self)
    def __neg__(self): return self._ops().neg(self)
    def __pos__(self): return self
    def __abs__(self): return self._ops().abs(self)
    def __lt__(self, o): return self._ops().lt(self, o)
    def __le__(self, o): return self._ops().le(self, o)
    def __gt__(self, o): return self._ops().gt(self, o)
    def __ge__(self, o): return self._ops().ge(self, o)
    def __and__(self, o): return self._ops().and_(self, o)
    def __rand__(self, o): return self._ops().and_(o, self)
    def __or__(self, o): return self._ops().or_(self, o)
    def __ror__(self, o): return self._ops().or_(o, self)
    def __xor__(self, o): return self._ops().xor(self, o)
    def __rxor__(self, o): return self._ops().xor(o, self)
    def __invert__(self): return self._ops().invert(self)
    def __getitem__(self, idx): return self._ops().getitem(self, idx)

    # --- methods -------------------------------------------------------
    def sum(self, axis=None, keepdims=False, **kw): return self._ops().sum(self, axis, keepdims=keepdims)
    def mean(self, axis=None, keepdims=False, **kw): return self._ops().mean(self, axis, keepdims=keepdims)
    def max(self, axis=None, keepdims=False): return self._ops().max(self, axis, keepdims=keepdims)
    def min(self, axis=None, keepdims=False): return self._ops().min(self, axis, keepdims=keepdims)
    def prod(self, axis=None, keepdims=False, **kw): return self._ops().prod(self, axis, keepdims=keepdims)
    def var(self, axis=None, ddof=0, keepdims=False): return self._ops().var(self, axis, ddof=ddof, keepdims=keepdims)
    def std(self, axis=None, ddof=0, keepdims=False): return self._ops().std(self, axis, ddof=ddof, keepdims=keepdims)
    def argmax(self, axis=None, keepdims=False): return self._ops().argmax(self, axis, keepdims=keepdims)
    def astype(self, dtype): return self._ops().cast(self, dtype)
    def reshape(self, shape, *more, ndim=None):
        if more:
            shape = (shape,) + more
        return self._ops().reshape(self, shape, ndim=ndim)
    def flatten(self, ndim=1): return self._ops().flatten(self, ndim)
    def dimshuffle(self, *pattern): return self._ops().dimshuffle(self, *pattern)
    def transpose(self, *axes): return self._ops().transpose(self, axes if axes else None)
    def dot(self, o): return self._ops().dot(self, o)
    def clip(self, a_min, a_max): return self._ops().clip(self, a_min, a_max)
    def exp(self): return self._ops().exp(self)
    def log(self): return self._ops().log(self)
    def sqrt(self): return self._ops().sqrt(self)
    def cumsum(self, axis=None): return self._ops().cumsum(self, axis)
    def cumprod(self, axis=None): return self._ops().cumprod(self, axis)
    def round(self): return self._ops().round(self)
    def any(self, axis=None, keepdims=False): return self._ops().any(self, axis, keepdims=keepdims)
    def all(self, axis=None, keepdims=False): return self._ops().all(self, axis, keepdims=keepdims)
    def nonzero_values(self):
        raise NotImplementedError("tcc shapes are known before a call: "
                                  "no nonzero_values")


class _Tag:
    """PyTensor's `var.tag`: a place for user notes (test values...)."""


class TensorType:
    """A variable's type: dtype and static shape (None where dynamic)."""

    def __init__(self, dtype, shape):
        self.dtype = dtype
        self.shape = tuple(shape)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def broadcastable(self):
        return tuple(s == 1 for s in self.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorType) and other.dtype == self.dtype
                and other.shape == self.shape)

    def __hash__(self):
        return hash((self.dtype, self.shape))

    def __call__(self, name=None):
        return Variable("input", dtype=self.dtype, ndim=len(self.shape),
                        name=name, shape=self.shape)

    def values_eq(self, a, b):
        """Whether two values of this type are equal (PyTensor's)."""
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and bool(np.array_equal(a, b))

    def values_eq_approx(self, a, b):
        """Whether two values of this type are equal within float tolerance."""
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and bool(np.allclose(a, b))

    def __repr__(self):
        return f"TensorType({self.dtype}, shape={self.shape})"
