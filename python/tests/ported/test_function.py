# Ported from PyTensor's tests/compile/function/test_function.py
# (https://github.com/pymc-devs/pytensor, BSD-3-Clause; see README.md here).
# The cases and their assertions are PyTensor's, rewritten against tcc with
# PyTensor's names; `tcc:` marks where tcc differs (docs/python.md).

import pickle
import re

import numpy as np
import pytest

from tcc.compile import shared
from tcc.compile.function import function, function_dump
from tcc.compile.io import In
from tcc.tensor.type import dscalar, dvector, fscalar, fvector, vector

from . import check_in_allow_downcast, lacks


def test_function_dump(tmp_path):
    v = vector()
    fct1 = function([v], v + 1)
    fname = tmp_path / "test_function_dump.pkl"
    function_dump(fname, [v], v + 1)
    with fname.open("rb") as f:
        args = pickle.load(f)
    fct2 = function(**args)
    x = [1, 2, 3]
    assert np.allclose(fct1(x), fct2(x))


def test_function_name():
    x = vector("x")
    func = function([x], x + 1.0)
    assert re.compile(f".*{re.escape(__file__)}c?").match(func.name) is not None


class TestFunctionIn:
    def test_in_strict(self):
        a, b = dvector(), shared(7)
        out = a + b
        f = function([In(a, strict=False)], out)
        assert f(np.random.random((8,)).astype(np.float64)).dtype == np.float64
        assert f(np.array([1, 2, 3, 4], dtype="int32")).dtype == np.float64
        f = function([In(a, strict=True)], out)
        with pytest.raises(TypeError):
            f(np.array([1, 2, 3, 4], dtype="int32"))

    def test_explicit_shared_input(self):
        a = shared(1.0)
        with pytest.raises(TypeError):
            function([a], a + 1)

    def test_in_shared_variable(self):
        a = shared(1.0)
        with pytest.raises(TypeError):
            function([In(a, update=a + 1)])

    def test_in_mutable(self):
        a = dvector()
        # tcc: see test_pfunc.py's test_param_mutable; the in-place write
        # happens where the output is computed in the input's buffer.
        from tcc import Out
        f = function([In(a, mutable=True)], Out(a * 2, borrow=True))
        aval = np.random.random((10,))
        aval2 = aval.copy()
        assert np.array_equal(f(aval), aval2 * 2)
        assert not np.array_equal(aval, aval2)
        f = function([In(a, mutable=False)], a * 2)
        aval = np.random.random((10,))
        aval2 = aval.copy()
        assert np.array_equal(f(aval), aval2 * 2)
        assert np.array_equal(aval, aval2)

    def test_in_update(self):
        a = dscalar("a")
        f = function([In(a, value=0.0, update=a + 1)], a)
        assert f() == 0.0
        assert f() == 1.0
        assert f() == 2.0

    def test_in_update_wrong_dtype(self):
        a, b = dscalar("a"), dvector("b")
        with pytest.raises(TypeError):
            In(a, update=b)

    def test_in_update_shared(self):
        shared_var = shared(1.0)
        a = dscalar("a")
        f = function([In(a, value=0.0, update=shared_var)], [], updates={shared_var: a})
        for i in range(5):
            f()  # the two swap their values, at once
            assert np.allclose(shared_var.get_value(), i % 2)

    @lacks("int16 and int8 (wvector, bvector, bscalar)")
    def test_in_allow_downcast_int(self):
        pass

    def test_in_allow_downcast_floatX(self):
        check_in_allow_downcast(function, fscalar)

    def test_in_allow_downcast_vector_floatX(self):
        check_in_allow_downcast(function, fvector)
