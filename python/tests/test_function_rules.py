"""PyTensor's rules for function arguments, updates and input conversion,
as tcc follows them (written for tcc; PyTensor's own suites are not copied,
docs/python.md)."""

import numpy as np
import pytest

import tcc
import tcc.tensor as pt
from tcc import In


def test_argument_kinds_are_checked():
    a = pt.lscalar()
    b = tcc.shared(1)
    with pytest.raises(TypeError):
        tcc.function({a}, a + b)  # a set has no order
    with pytest.raises(TypeError):
        tcc.function([a], a + b, no_default_updates=1)
    with pytest.raises(TypeError):
        tcc.function([a], a + b, no_default_updates=b)
    with pytest.raises(TypeError):
        tcc.function([a], a + b, updates=[{b, a}])
    with pytest.raises(TypeError):
        tcc.function([a], a + b, updates=[(1, b)])
    with pytest.raises(TypeError, match="shared variable"):
        tcc.function([b], b * 2)


def test_updates_need_the_variables_type_and_one_update_each():
    s = tcc.shared(np.ones((3, 3), dtype="float32"))
    with pytest.raises(TypeError):
        tcc.function([], [], updates={s: s.sum().dimshuffle("x", "x")})
    x = pt.fmatrix()
    with pytest.raises(ValueError, match="twice"):
        tcc.function([x], s, updates=[(s, s + x), (s, s - x)])
    # A number is a valid new value.
    n = tcc.shared(0)
    tcc.function([], [], updates={n: 3})()
    assert n.get_value() == 3


def test_functions_share_variables_and_see_each_others_updates():
    w = tcc.shared(np.arange(4.0).reshape(2, 2), "w")
    x = pt.dmatrix()
    read = tcc.function([x], w + x)
    dec = tcc.function([x], w * x, updates=[(w, w - 1)])
    xv = np.ones((2, 2))
    before = w.get_value()
    assert (dec(xv) == before).all()
    assert (read(xv) == before - 1 + 1).all()
    w.set_value(w.get_value(borrow=True) * 10, borrow=True)
    assert (read(xv) == (before - 1) * 10 + 1).all()


def test_strict_and_downcast_rules_for_inputs():
    a = pt.dvector()
    f = tcc.function([In(a, strict=False)], a * 2)
    assert f(np.array([1, 2], dtype="int32")).tolist() == [2.0, 4.0]
    g = tcc.function([In(a, strict=True)], a * 2)
    with pytest.raises(TypeError, match="strict"):
        g(np.array([1, 2], dtype="int32"))
    v = pt.fvector()
    h = tcc.function([v], v + 0)
    assert h([0, 1]).tolist() == [0.0, 1.0]       # exact: converted
    with pytest.raises(TypeError):
        h([0.1])                                   # would change in float32
    with pytest.raises(TypeError):
        h(np.array([0.5]))                         # a float64 array
    k = tcc.function([v], v + 0, allow_input_downcast=True)
    assert np.allclose(k([0.1]), 0.1)
    assert k(np.array([0.5])).dtype == np.float32
    i = pt.iscalar()
    m = tcc.function([i], i * 1)
    with pytest.raises(TypeError):
        m(2 ** 40)                                 # out of int32's range
    assert m(7) == 7


def test_mutable_inputs_may_be_overwritten_and_others_are_not():
    a = pt.dvector()
    fip = tcc.function([In(a, mutable=True)], tcc.Out(a * 2, borrow=True))
    aval = np.arange(5.0)
    assert fip(aval).tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    assert aval.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]  # computed in place
    f = tcc.function([In(a, mutable=False)], a * 2)
    bval = np.arange(5.0)
    f(bval)
    assert bval.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_shared_values_are_copies_unless_borrowed():
    bval = np.arange(5)
    b = tcc.shared(bval)
    assert b.get_value(borrow=True) is not bval
    assert not np.may_share_memory(b.get_value(borrow=True), bval)
    # A function without updates leaves the variable alone.
    f = tcc.function([], b * 2)
    assert f().tolist() == [0, 2, 4, 6, 8]
    assert b.get_value().tolist() == [0, 1, 2, 3, 4]
    # An update changes it, in place.
    storage = b.get_value(borrow=True)
    g = tcc.function([], b * 2, updates=[(b, b * 2 + 3)])
    g()
    assert b.get_value().tolist() == [3, 5, 7, 9, 11]
    assert storage.tolist() == [3, 5, 7, 9, 11]


def test_givens_replace_shared_variables_and_inputs():
    x = tcc.shared(0)
    assert tcc.function([], x, givens={x: 3})() == 3
    assert x.get_value() == 0
    y, z = pt.ivector(), pt.ivector()
    f = tcc.function([y], z * y + 7, givens={z: np.array([4, 4, 4], dtype="int32")})
    assert f([1, 1, 1]).tolist() == [11, 11, 11]


def test_default_updates_and_no_default_updates():
    x = tcc.shared(0)
    x.default_update = x + 2
    for no_default, change in ((True, 0), ([x], 0), ([], 2), (False, 2)):
        before = x.get_value()
        tcc.function([], [x], no_default_updates=no_default)()
        assert x.get_value() == before + change
    # A compiled function keeps the update it was compiled with.
    f = tcc.function([], [x])
    x.default_update = None
    before = x.get_value()
    f()
    assert x.get_value() == before + 2
    tcc.function([], [x])()
    assert x.get_value() == before + 2


def test_givens_whose_replacement_reads_the_replaced_variable():
    # PyTensor takes a replacement as it is: in {w: w * 3}, the w of w * 3
    # is the old w. Gradients are of the graph with the replacement in.
    w = tcc.shared(2.0, "w")
    x = pt.dscalar("x")
    g = tcc.function([x], [(w * x) ** 2, tcc.grad((w * x) ** 2, x)], givens={w: w * 3})
    value, slope = g(1.0)
    assert value == 36.0 and slope == 72.0
    assert tcc.function([], tcc.grad(w * w, w), givens={w: w + 1})() == 6.0
