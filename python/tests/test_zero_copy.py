"""The zero-copy rules of docs/python.md: what is shared, what is copied,
and what is an error instead of a silent copy."""

import gc
import threading

import numpy as np
import pytest

import tcc
import tcc.tensor as pt


def test_set_value_borrow_adopts_a_contiguous_array_of_the_right_dtype():
    s = tcc.shared(np.zeros(4))
    x = np.arange(4.0)
    s.set_value(x, borrow=True)
    assert np.may_share_memory(s.get_value(borrow=True), x)
    # Without borrow: a copy.
    y = np.arange(4.0)
    s.set_value(y)
    assert not np.may_share_memory(s.get_value(borrow=True), y)


def test_set_value_borrow_copies_what_it_cannot_adopt():
    s = tcc.shared(np.zeros(4))
    strided = np.arange(8.0)[::2]
    s.set_value(strided, borrow=True)
    assert not np.may_share_memory(s.get_value(borrow=True), strided)
    assert s.get_value().tolist() == [0.0, 2.0, 4.0, 6.0]
    # A safe cast (int32 to float64) converts; a lossy one is a TypeError.
    s.set_value(np.arange(4, dtype="int32"), borrow=True)
    assert s.get_value().tolist() == [0.0, 1.0, 2.0, 3.0]
    f = tcc.shared(np.zeros(2, dtype="float32"))
    with pytest.raises(TypeError):
        f.set_value(np.zeros(2, dtype="float64"))
    with pytest.raises(ValueError):
        s.set_value(np.zeros(3))
    assert s.get_value().tolist() == [0.0, 1.0, 2.0, 3.0]


def test_borrowed_views_outlive_their_variable_and_function():
    s = tcc.shared(np.arange(3.0))
    v = s.get_value(borrow=True)
    del s
    gc.collect()
    assert v.tolist() == [0.0, 1.0, 2.0]
    x = pt.vector()
    f = tcc.function([x], tcc.Out(x + 1, borrow=True))
    r = f(np.zeros(3))
    del f
    gc.collect()
    assert r.tolist() == [1.0, 1.0, 1.0]
    # An adopted array outlives the variable too, and the variable's
    # storage stays alive after the caller drops the array.
    a = np.ones(5)
    t = tcc.shared(np.zeros(5), borrow=True)
    t.set_value(a, borrow=True)
    del a
    gc.collect()
    assert t.get_value().tolist() == [1.0] * 5


def test_borrowed_inputs_are_never_copied_silently():
    x = pt.vector()
    f = tcc.function([tcc.In(x, borrow=True)], tcc.Out(x * 2, borrow=True))
    a = np.arange(4.0)
    r = f(a)
    assert np.may_share_memory(r, a)  # computed in the input's buffer
    with pytest.raises(TypeError, match="borrowed input"):
        f(np.arange(4, dtype="float32"))
    with pytest.raises(ValueError, match="C-contiguous"):
        f(np.arange(8.0)[::2])
    # mutable=True is the same contract.
    g = tcc.function([tcc.In(x, mutable=True)], x * 3)
    with pytest.raises(ValueError):
        g(np.arange(8.0)[::2])
    # Unborrowed inputs are converted when the cast is safe, and never written.
    h = tcc.function([x], x * 2)
    b = np.arange(4, dtype="int32")
    assert h(b).tolist() == [0.0, 2.0, 4.0, 6.0]
    c = np.arange(8.0)[::2]
    assert h(c).tolist() == [0.0, 4.0, 8.0, 12.0]
    assert c.tolist() == [0.0, 2.0, 4.0, 6.0]


def test_calls_from_several_threads():
    x = pt.vector()
    s = tcc.shared(np.arange(1000.0))
    f = tcc.function([x], (x * s).sum())
    errors = []

    def run(k):
        try:
            for _ in range(200):
                v = np.full(1000, float(k))
                assert f(v) == k * 499500.0
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
