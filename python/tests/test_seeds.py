"""Every code example of the seeds (PyTensor's and Theano's pages on memory
aliasing, and the memory notes), with only the imports changed, and the
behaviour they state asserted."""

import numpy as np


def test_pytensor_borrowing_when_creating_shared_variables():
    import numpy, tcc as pytensor
    np_array = numpy.ones(2, dtype='float32')
    s_default = pytensor.shared(np_array)
    s_false   = pytensor.shared(np_array, borrow=False)
    s_true    = pytensor.shared(np_array, borrow=True)
    np_array += 1 # now it is an array of 2.0 s
    print(s_default.get_value())
    print(s_false.get_value())
    print(s_true.get_value())
    # [ 1.  1.] [ 1.  1.] [ 2.  2.] on the CPU
    assert s_default.get_value().tolist() == [1.0, 1.0]
    assert s_false.get_value().tolist() == [1.0, 1.0]
    assert s_true.get_value().tolist() == [2.0, 2.0]
    # s_true uses np_array as its internal buffer.
    assert np.may_share_memory(s_true.get_value(borrow=True), np_array)
    assert not np.may_share_memory(s_default.get_value(borrow=True), np_array)


def test_pytensor_retrieving():
    import numpy, tcc as pytensor
    np_array = numpy.ones(2, dtype='float32')
    s = pytensor.shared(np_array)
    v_false = s.get_value(borrow=False) # N.B. borrow default is False
    v_true = s.get_value(borrow=True)
    # borrow=False: never aliased to internal memory; borrow=True: may be
    # (on the CPU it is: no copy).
    internal = s.get_value(borrow=True)
    assert not np.may_share_memory(v_false, internal)
    assert np.may_share_memory(v_true, internal)
    assert v_false.dtype == v_true.dtype == np.float32
    v_internal = s.get_value(borrow=True, return_internal_type=True)
    assert np.may_share_memory(v_internal, internal)
    # borrow=False with return_internal_type=True: a deep copy.
    assert not np.may_share_memory(
        s.get_value(borrow=False, return_internal_type=True), internal)


def test_pytensor_assigning_pattern():
    import numpy, tcc as pytensor
    s = pytensor.shared(numpy.arange(4, dtype='float64'))

    def some_inplace_fn(a):
        a *= 2
        return a

    before = s.get_value(borrow=True)
    s.set_value(
        some_inplace_fn(s.get_value(borrow=True)),
        borrow=True)
    # As fast as an in-place update: the same buffer, no copy.
    assert s.get_value().tolist() == [0.0, 2.0, 4.0, 6.0]
    assert np.may_share_memory(s.get_value(borrow=True), before)


def test_pytensor_borrowing_when_constructing_function_objects():
    import tcc as pytensor
    import tcc.tensor as pt
    from tcc.compile.io import In, Out
    x = pt.matrix()
    y = 2 * x
    f = pytensor.function([In(x, borrow=True)], Out(y, borrow=True))

    # The input may be reused as a buffer (and overwritten!), and the
    # borrowed output's buffer is reused: here y is computed into x's.
    a = np.arange(6.0).reshape(2, 3)
    r = f(a)
    assert r.tolist() == [[0, 2, 4], [6, 8, 10]]
    assert np.may_share_memory(r, a)


def test_pytensor_borrowed_output_is_overwritten_by_the_next_call():
    import tcc as pytensor
    import tcc.tensor as pt
    from tcc.compile.io import Out
    x = pt.matrix()
    f = pytensor.function([x], Out(2 * x, borrow=True))
    a, b = np.ones((2, 2)), np.full((2, 2), 5.0)
    first = f(a)
    assert first.tolist() == [[2, 2], [2, 2]]
    results = [f(b) for _ in range(2)]
    # "it may overwrite old return values through side-effect": the buffer
    # of the first call is reused by a later one.
    assert any(np.may_share_memory(first, r) for r in results)
    assert first.tolist() == [[10, 10], [10, 10]]
    # The default is fresh, user-space outputs.
    g = pytensor.function([x], 2 * x)
    r1, r2 = g(a), g(b)
    assert not np.may_share_memory(r1, r2)
    assert r1.tolist() == [[2, 2], [2, 2]]


def test_theano_examples():
    import numpy, tcc as theano
    np_array = numpy.ones(2, dtype='float32')

    s_default = theano.shared(np_array)
    s_false   = theano.shared(np_array, borrow=False)
    s_true    = theano.shared(np_array, borrow=True)

    np_array += 1 # now it is an array of 2.0 s

    assert s_default.get_value().tolist() == [1.0, 1.0]  # -> array([1.0, 1.0])
    assert s_false.get_value().tolist() == [1.0, 1.0]    # -> array([1.0, 1.0])
    assert s_true.get_value().tolist() == [2.0, 2.0]     # -> array([2.0, 2.0])

    s = theano.shared(np_array)

    v_false = s.get_value(borrow=False) # N.B. borrow default is False
    v_true = s.get_value(borrow=True)
    assert not np.may_share_memory(v_false, v_true)

    v_internal = s.get_value(borrow=True, return_internal_type=True)
    assert np.may_share_memory(v_internal, v_true)

    # The .value property borrows (config.shared.value_borrows is True).
    assert np.may_share_memory(s.value, v_true)
    w = numpy.zeros(2, dtype='float32')
    s.value = w
    assert np.may_share_memory(s.get_value(borrow=True), w)


def test_theano_function_objects():
    import tcc as theano, tcc.tensor  # noqa: E401

    x = theano.tensor.matrix()
    y = 2*x
    f = theano.function([theano.In(x, borrow=True)], theano.Out(y, borrow=True))
    assert f(np.ones((1, 2))).tolist() == [[2.0, 2.0]]


def test_memory_notes_examples():
    import tcc as theano, tcc.tensor  # noqa: E401
    s = theano.shared(np.zeros(3))

    def some_inplace_fn(a):
        a += 1
        return a

    s.set_value(
        some_inplace_fn(s.get_value(borrow=True)),
        borrow=True)
    assert s.get_value().tolist() == [1.0, 1.0, 1.0]

    x = theano.tensor.matrix()
    y = 2 * x
    f = theano.function([theano.In(x, borrow=True)], theano.Out(y, borrow=True))
    assert f(np.full((2, 1), 3.0)).tolist() == [[6.0], [6.0]]


def test_functions_update_borrowed_shared_variables_in_place():
    # "the function is allowed to update the shared variable by modifying its
    # buffer, which will preserve the aliasing": tcc updates in place.
    import tcc as pytensor
    np_array = np.ones(2, dtype='float32')
    s_true = pytensor.shared(np_array, borrow=True)
    f = pytensor.function([], [], updates=[(s_true, s_true * 3)])
    f()
    assert np_array.tolist() == [3.0, 3.0]
    assert np.may_share_memory(s_true.get_value(borrow=True), np_array)
