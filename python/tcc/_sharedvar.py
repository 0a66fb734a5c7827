"""Shared variables: values in tcc's managed memory space.

Each lives in the runtime's store under a unique name until its Python
object goes; arrays handed out with borrow=True keep the memory alive on
their own after that.
"""

import itertools
import re

import numpy as np

from . import _tcc
from ._graph import Variable, as_dtype, source_location

_counter = itertools.count()
# While misc.pkl_utils.dump runs: the names of the arrays shared variables
# pickle (by id), so that each is stored as NAME.npy.
_array_names = None


def _store_name(name):
    # s_NAME_K: unique, and apart from every other graph-file name
    # (_function.py).
    base = re.sub(r"\W", "_", name) if name else "shared"
    return f"s_{base}_{next(_counter)}"


def _host_array(value, dtype=None):
    """`value` as an ndarray tcc can take, without a copy when it is one."""
    if isinstance(value, np.ndarray) and (dtype is None or value.dtype == dtype):
        if value.dtype.name not in ("float16", "float32", "float64", "int32", "int64", "bool"):
            raise TypeError(f"tcc has no dtype {value.dtype.name!r}")
        return value
    if isinstance(value, Variable):
        raise TypeError("a shared variable's value is an array, not a symbolic variable")
    if isinstance(value, str) and dtype is not None:
        # numpy's own error for a string that is not a number: ValueError.
        return np.asarray(value, dtype=dtype)
    arr = np.asarray(value)
    if dtype is None:
        if isinstance(value, float):
            arr = arr.astype("float64")
        elif isinstance(value, bool):
            arr = arr.astype("bool")
        elif isinstance(value, int):
            arr = arr.astype("int64")
        dtype = as_dtype(arr.dtype)
    elif arr.dtype != dtype:
        if not np.can_cast(arr.dtype, dtype, "same_kind") and arr.size:
            raise TypeError(f"a {arr.dtype} value for a {dtype} shared variable")
        arr = arr.astype(dtype)
    return arr if arr.flags.c_contiguous else arr.copy()


class _SharedContainer:
    """PyTensor's `s.container`: `storage[0]` and `value` are the value
    itself (the internal array, no copy); setting `value` borrows."""

    def __init__(self, variable):
        self._variable = variable

    @property
    def storage(self):
        return [self._variable.get_value(borrow=True, return_internal_type=True)]

    @property
    def value(self):
        return self._variable.get_value(borrow=True, return_internal_type=True)

    @value.setter
    def value(self, v):
        self._variable.set_value(v, borrow=True)


class SharedVariable(Variable):
    """PyTensor's shared variable: a symbolic variable whose value lives in
    tcc's managed memory space. `strict=True`: set_value takes arrays of the
    variable's dtype only; `allow_downcast=True`: any value is cast to it
    (8.23 into an int64 variable is 8)."""

    def __init__(self, value, name=None, borrow=False, strict=False,
                 allow_downcast=None, type=None):  # noqa: A002 (PyTensor's name)
        if type is not None:
            arr = _host_array(value, type.dtype)
            if arr.ndim != type.ndim:
                raise TypeError(f"a value of {arr.ndim} dimensions for a shared "
                                f"variable of type {type}")
        else:
            arr = _host_array(value)
        super().__init__("shared", dtype=as_dtype(arr.dtype), ndim=arr.ndim,
                         name=name, loc=source_location(), shape=arr.shape)
        self.store_name = _store_name(name)
        self.default_update = None
        self._constant = False
        self._strict = bool(strict)
        self._allow_downcast = allow_downcast
        # The array this variable last adopted (borrow=True): get_value
        # (borrow=True) returns that very object while it is the storage,
        # as PyTensor's does.
        self._adopted = None
        _tcc.shared_create(self.store_name, arr, bool(borrow))
        if borrow and arr is value:
            self._adopted = value

    @property
    def type(self):
        # PyTensor's: a shared variable's type leaves its sizes open, though
        # tcc fixes its shape when it is made (static_shape).
        from ._graph import TensorType
        return TensorType(self.dtype, (None,) * self.ndim)

    @property
    def container(self):
        return _SharedContainer(self)

    def get_value(self, borrow=False, return_internal_type=False):
        """A copy of the value, or (borrow=True) an array over the managed
        buffer itself: np.may_share_memory with it is true, and it stays
        valid after this variable is gone."""
        value = _tcc.shared_get(self.store_name, bool(borrow), bool(return_internal_type))
        adopted = self._adopted
        if borrow and adopted is not None:
            if (adopted.__array_interface__["data"][0] == value.__array_interface__["data"][0]
                    and adopted.shape == value.shape):
                return adopted
            self._adopted = None  # the storage is another array now
        return value

    def set_value(self, value, borrow=False):
        """Replaces the value (same shape). borrow=True adopts a
        C-contiguous, aligned array of the variable's dtype as the storage,
        no copy; any other value is copied (converted when the cast is safe)."""
        if self._strict and not (isinstance(value, np.ndarray) and value.dtype.name == self.dtype):
            raise TypeError(
                f"shared variable {self!r} is strict: set_value takes {self.dtype} "
                f"arrays only, not {type(value).__name__}"
                + (f" of {value.dtype}" if isinstance(value, np.ndarray) else ""))
        if isinstance(value, np.ndarray) and value.dtype.name == self.dtype:
            arr = value
        elif self._allow_downcast and not isinstance(value, Variable):
            arr = np.asarray(value).astype(self.dtype)  # a new C-ordered array
        else:
            arr = _host_array(value, self.dtype if not isinstance(value, np.ndarray) else None)
        _tcc.shared_set(self.store_name, arr, bool(borrow))
        self._adopted = arr if borrow and arr is value else None

    # Theano's .value property (config.shared.value_borrows: True).
    value = property(lambda self: self.get_value(borrow=True),
                     lambda self, v: self.set_value(v, borrow=True))

    def __del__(self):
        try:
            _tcc.shared_erase(self.store_name)
        except Exception:  # interpreter shutdown
            pass

    def __reduce__(self):
        # A new variable in the unpickling process's managed space, with a
        # copy of the value; pickle's memo keeps one variable per variable,
        # so functions pickled together still share it.
        state = {k: v for k, v in self.__dict__.items()
                 if k not in ("store_name", "id", "_adopted")}
        value = self.get_value()
        if _array_names is not None and self.name:
            _array_names[id(value)] = self.name
            state["_pickled_value"] = value  # alive until the dump ends
        return (_restore_shared, (value, self.name), state)

    def __setstate__(self, state):
        state.pop("_pickled_value", None)
        self.__dict__.update(state)


def shared(value, name=None, strict=False, allow_downcast=None, borrow=False,
           shape=None, target=None):
    """PyTensor's `shared`: a variable in the managed memory space holding a
    copy of `value`, or (borrow=True, a C-contiguous aligned array of a tcc
    dtype) `value`'s own buffer. `shape`, when given, must be the value's
    (tcc fixes a shared variable's shape); `target` is "cpu" or None."""
    if target not in (None, "cpu"):
        raise TypeError(f"shared(target={target!r}): the Python module keeps "
                        "shared variables on the host ('cpu')")
    v = SharedVariable(value, name=name, borrow=borrow, strict=strict,
                       allow_downcast=allow_downcast)
    if shape is not None and (len(shape) != v.ndim or any(
            d is not None and d != s for s, d in zip(v.static_shape, shape))):
        raise ValueError(f"shared(shape={tuple(shape)}) of a value of shape {v.static_shape}")
    return v


def _restore_shared(value, name):
    return SharedVariable(value, name=name, borrow=True)
