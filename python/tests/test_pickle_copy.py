"""Pickling shared variables and functions, and Function.copy."""

import pickle

import numpy as np

import tcc
import tcc.tensor as pt


def test_shared_variables_and_functions_pickle_with_their_sharing():
    s = tcc.shared(np.arange(3.0), name="s")
    x = pt.dvector("x")
    inc = tcc.function([x], s * 1, updates=[(s, s + x)])
    read = tcc.function([], s * 2)
    inc(np.ones(3))
    data = pickle.dumps((inc, read, s), protocol=pickle.HIGHEST_PROTOCOL)
    inc2, read2, s2 = pickle.loads(data)
    assert s2 is not s and s2.get_value().tolist() == [1.0, 2.0, 3.0]
    inc2(np.ones(3))
    # Both restored functions use the one restored variable...
    assert read2().tolist() == [4.0, 6.0, 8.0]
    assert s2.get_value().tolist() == [2.0, 3.0, 4.0]
    # ... and the originals are untouched.
    assert s.get_value().tolist() == [1.0, 2.0, 3.0]
    assert pickle.loads(pickle.dumps(s)).get_value().tolist() == [1.0, 2.0, 3.0]


def test_function_copy_swap_and_delete_updates():
    a = tcc.shared(np.zeros(2), name="a")
    b = tcc.shared(np.full(2, 10.0), name="b")
    x = pt.dvector("x")
    f = tcc.function([x], a + x, updates=[(a, a + 1)])
    g = f.copy(swap={a: b})
    assert g(np.zeros(2)).tolist() == [10.0, 10.0]
    assert b.get_value().tolist() == [11.0, 11.0] and a.get_value().tolist() == [0, 0]
    h = f.copy(delete_updates=True)
    h(np.zeros(2))
    assert a.get_value().tolist() == [0, 0]
    f(np.zeros(2))
    assert a.get_value().tolist() == [1, 1]
    f.free()


def test_pkl_utils_writes_values_numpy_reads_without_tcc(tmp_path):
    from tcc.misc import pkl_utils
    W = tcc.shared(np.arange(6.0).reshape(2, 3), name="W")
    b = tcc.shared(np.ones(3, dtype="float32"), name="b")
    x = pt.dmatrix("x")
    f = tcc.function([x], x @ W + b)
    path = tmp_path / "model.zip"
    with open(path, "wb") as fh:
        pkl_utils.dump(f, fh)
    arrays = np.load(path)
    assert arrays["W"].tolist() == W.get_value().tolist()
    assert arrays["b"].dtype == np.float32
    with open(path, "rb") as fh:
        g = pkl_utils.load(fh)
    assert g(np.ones((1, 2))).tolist() == f(np.ones((1, 2))).tolist()
