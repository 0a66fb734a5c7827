"""tcc.tensor's products, shape and data-movement ops, constructors and
numpy indexing (the rest of the package is the elementwise ops and
reductions)."""

import numbers

import numpy as np

from .._graph import FLOATX, INT_DTYPES, Variable, as_dtype, source_location
from . import (_broadcast_static, _operands, as_tensor_variable, builtins_all,
               builtins_any, builtins_max, builtins_sum, cast, constant, mul,
               neg)

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


