# Ported from PyTensor's tests/compile/test_shared.py
# (https://github.com/pymc-devs/pytensor, BSD-3-Clause; see README.md here).
# The cases and their assertions are PyTensor's, rewritten against tcc with
# PyTensor's names; `tcc:` marks where tcc differs (docs/python.md). tcc
# has no int16 or int8, so those lines of PyTensor's cases are left out.

import numpy as np
import pytest

import tcc.tensor
from tcc import config
from tcc.compile.sharedvalue import SharedVariable, shared
from tcc.tensor.type import (TensorType, dscalar, dvector, fscalar, fvector,
                             iscalar, ivector, lscalar, lvector)

from . import lacks


def set_value(var, val):
    var.set_value(val)


def check_strict(cases):
    """Each (value, type, bad): a strict variable of `value` has `type` and
    refuses `bad`; a float32 variable refuses float64 values anyway."""
    for value, type_, bad in cases:
        b = shared(value, strict=True)
        assert b.type == type_
        with pytest.raises(TypeError):
            set_value(b, bad)
    refuses_float64()


def check_downcast(cases):
    """Each (value, type, new): a variable of `value` with allow_downcast
    has `type` and takes `new` as 8."""
    for value, type_, new in cases:
        b = shared(value, allow_downcast=True)
        assert b.type == type_
        set_value(b, new)
        assert b.get_value() == 8


def refuses_float64():
    b = shared(np.zeros((5, 5), dtype="float32"))
    with pytest.raises(TypeError):
        set_value(b, np.random.random((5, 5)))


class TestSharedVariable:
    def test_ctors(self):
        assert shared(7).type == lscalar  # a 64-bit Python int
        assert shared(7.0).type == dscalar
        assert shared(np.float32(7)).type == fscalar
        b = shared(np.zeros((5, 5), dtype="int32"))
        assert b.type == TensorType("int32", shape=(None, None))
        b = shared(np.random.random((4, 5)))
        assert b.type == TensorType("float64", shape=(None, None))
        b = shared(np.random.random((5, 1, 2)))
        assert b.type == TensorType("float64", shape=(None, None, None))
        # tcc: PyTensor's shared([]) is of its generic type; tcc has none.
        with pytest.raises(TypeError):
            shared(7, bad_kw=False)

    @lacks("the generic type (shared variables of strings)")
    def test_strict_generic(self):
        pass

    def test_create_numpy_strict_false(self):
        vector_type = TensorType(dtype="float64", shape=(None,))
        SharedVariable(name="u", type=vector_type, value=np.asarray([1.0, 2.0]), strict=False)
        SharedVariable(name="u", type=vector_type, value=[1.0, 2.0], strict=False)
        SharedVariable(name="u", type=vector_type, value=[1, 2], strict=False)
        with pytest.raises(TypeError):
            SharedVariable(name="u", type=vector_type, value=dict(), strict=False)

    def test_use_numpy_strict_false(self):
        u = SharedVariable(name="u", type=TensorType(dtype="float64", shape=(None,)),
                           value=np.asarray([1.0, 2.0]), strict=False)
        u.set_value([3, 4])
        assert type(u.get_value()) is np.ndarray
        assert str(u.get_value(borrow=True).dtype) == "float64"
        assert np.all(u.get_value() == [3, 4])
        with pytest.raises(ValueError):
            u.set_value("adsf")
        # tcc: PyTensor's next value has 4 elements; a tcc variable keeps its
        # shape, so the value that is adopted without a copy has 2.
        uval = np.asarray([5, 6], dtype="float64")
        u.set_value(uval, borrow=True)
        assert u.get_value(borrow=True) is uval

    def test_scalar_strict(self):
        cases = [(np.int64(7), lscalar, 8.23), (np.int32(7), iscalar, 8.23),
                 (np.float64(7.234), dscalar, 8), (np.float32(7.234), fscalar, 8),
                 (float(7.234), dscalar, 8), (7.234, dscalar, 8)]
        check_strict(cases)

    def test_tensor_strict(self):
        cases = [(np.int64([7]), lvector, 8.23), (np.int32([7]), ivector, 8.23),
                 (np.float64([7.234]), dvector, 8), (np.float32([7.234]), fvector, 8)]
        check_strict(cases)

    def test_scalar_floatX(self):
        cases = [(np.int64(7), lscalar, 8.23), (np.int32(7), iscalar, 8.23),
                 (np.float64(7.234), dscalar, 8), (np.float32(7.234), fscalar, 8),
                 (float(7.234), dscalar, 8), (7.234, dscalar, 8)]
        check_downcast(cases)
        refuses_float64()

    def test_tensor_floatX(self):
        cases = [(np.int64([7]), lvector, [8.23]), (np.int32([7]), ivector, [8.23]),
                 (np.float64([7.234]), dvector, [8]), (np.float32([7.234]), fvector, [8])]
        check_downcast(cases)
        b = shared(np.asarray([7.234], dtype=config.floatX), allow_downcast=True)
        assert b.dtype == config.floatX
        set_value(b, [8])
        assert b.get_value() == 8
        refuses_float64()

    def test_err_symbolic_variable(self):
        with pytest.raises(TypeError):
            shared(tcc.tensor.ones((2, 3)))
