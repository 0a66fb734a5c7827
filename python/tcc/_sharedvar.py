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


class SharedVariable(Variable):
    """PyTensor's shared variable: a symbolic variable whose value lives in
    tcc's managed memory space."""

    def __init__(self, value, name=None, borrow=False, strict=False,
                 allow_downcast=None):
        arr = _host_array(value)
        super().__init__("shared", dtype=as_dtype(arr.dtype), ndim=arr.ndim,
                         name=name, loc=source_location(), shape=arr.shape)
        self.store_name = _store_name(name)
        self.default_update = None
        self._constant = False
        _tcc.shared_create(self.store_name, arr, bool(borrow))

    def get_value(self, borrow=False, return_internal_type=False):
        """A copy of the value, or (borrow=True) an array over the managed
        buffer itself: np.may_share_memory with it is true, and it stays
        valid after this variable is gone."""
        return _tcc.shared_get(self.store_name, bool(borrow), bool(return_internal_type))

    def set_value(self, value, borrow=False):
        """Replaces the value (same shape). borrow=True adopts a
        C-contiguous, aligned array of the variable's dtype as the storage,
        no copy; any other value is copied (converted when the cast is safe)."""
        if isinstance(value, np.ndarray) and value.dtype.name == self.dtype:
            arr = value
        else:
            arr = _host_array(value, self.dtype if not isinstance(value, np.ndarray) else None)
        _tcc.shared_set(self.store_name, arr, bool(borrow))

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
                 if k not in ("store_name", "id")}
        value = self.get_value()
        if _array_names is not None and self.name:
            _array_names[id(value)] = self.name
            state["_pickled_value"] = value  # alive until the dump ends
        return (_restore_shared, (value, self.name), state)

    def __setstate__(self, state):
        state.pop("_pickled_value", None)
        self.__dict__.update(state)


def shared(value, name=None, strict=False, allow_downcast=None, borrow=False, **kwargs):
    """PyTensor's `shared`: a variable in the managed memory space holding a
    copy of `value`, or (borrow=True, a C-contiguous aligned array of a tcc
    dtype) `value`'s own buffer."""
    return SharedVariable(value, name=name, borrow=borrow)


def _restore_shared(value, name):
    return SharedVariable(value, name=name, borrow=True)
