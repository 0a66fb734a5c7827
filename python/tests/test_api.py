"""PyTensor's API on tcc: variables, operators, ops, function's arguments,
grad and the exceptions, each checked against numpy."""

import numpy as np
import pytest

import tcc as pytensor
import tcc.tensor as pt
from tcc.compile.io import In, Out

rng = np.random.default_rng(0)


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)


def test_constructors_and_properties():
    x = pt.dmatrix("x")
    assert (x.ndim, x.dtype, x.name) == (2, "float64", "x")
    assert pt.fvector().dtype == "float32"
    assert pt.iscalar().ndim == 0 and pt.iscalar().dtype == "int32"
    assert pt.lmatrix().dtype == "int64"
    t = pt.tensor("t", dtype="float32", shape=(None, 3))
    assert t.type.shape == (None, 3) and t.ndim == 2
    assert pt.tensor3().ndim == 3 and pt.matrix().dtype == "float64"
    assert x.T.ndim == 2 and x.sum(axis=0).ndim == 1
    with pytest.raises(TypeError):
        pt.vector(dtype="uint8")


def test_operators_against_numpy():
    x, y = pt.matrix("x"), pt.matrix("y")
    a, b = rng.uniform(0.5, 2, (3, 4)), rng.uniform(0.5, 2, (3, 4))
    exprs = {
        "add": (x + y, a + b), "sub": (x - 1, a - 1), "rsub": (1 - x, 1 - a),
        "mul": (2 * x * y, 2 * a * b), "div": (x / y, a / b), "pow": (x ** 2, a ** 2),
        "neg": (-x, -a), "abs": (abs(x - 1), np.abs(a - 1)),
        "floordiv": (x // 0.3, a // 0.3), "mod": (x % 0.3, a % 0.3),
        "matmul": (x @ y.T, a @ b.T), "T": (x.T, a.T),
        "switch": (pt.switch(x > y, x, y), np.where(a > b, a, b)),
        "logic": (pt.switch((x > 1) & ~(y > 1) | (x > 1.9), 1.0, 0.0),
                  np.where((a > 1) & ~(b > 1) | (a > 1.9), 1.0, 0.0)),
        "cmp": (pt.cast(x <= y, "float64") + (x >= y) * 2 + (pt.eq(x, x)) * 4 + pt.neq(x, y),
                (a <= b) + (a >= b) * 2.0 + 4 + (a != b)),
    }
    names = list(exprs)
    f = pytensor.function([x, y], [exprs[k][0] for k in names])
    for name, got in zip(names, f(a, b)):
        close(got, exprs[name][1])


def test_ops_against_numpy():
    x = pt.matrix("x")
    a = rng.uniform(-1, 1, (4, 5))
    cases = [
        (pt.exp(x), np.exp(a)), (pt.tanh(x), np.tanh(a)), (pt.sigmoid(x), 1 / (1 + np.exp(-a))),
        (pt.sqrt(abs(x)), np.sqrt(np.abs(a))), (pt.log(abs(x) + 1), np.log(np.abs(a) + 1)),
        (x.sum(), a.sum()), (x.sum(axis=1), a.sum(axis=1)), (x.mean(axis=0, keepdims=True), a.mean(axis=0, keepdims=True)),
        (x.max(axis=1), a.max(axis=1)), (x.min(), a.min()), (x.var(axis=1), a.var(axis=1)),
        (x.std(), a.std()), (x.prod(axis=0), a.prod(axis=0)), (x.argmax(axis=1), a.argmax(axis=1)),
        (pt.special.softmax(x, axis=-1), np.exp(a) / np.exp(a).sum(axis=-1, keepdims=True)),
        (pt.dot(x, x.T), a @ a.T), (x.flatten(), a.ravel()),
        (x.dimshuffle(1, 0), a.T), (x.dimshuffle(0, "x", 1), a[:, None, :]),
        (x[1], a[1]), (x[1:3, ::2], a[1:3, ::2]), (x[:, -1], a[:, -1]), (x[..., 0], a[..., 0]),
        (x[None, :, 1], a[None, :, 1]),
        (x[[0, 2, 2]], a[[0, 2, 2]]),
        (pt.concatenate([x, x * 2], axis=1), np.concatenate([a, a * 2], axis=1)),
        (pt.stack([x, x], axis=0), np.stack([a, a])),
        (x.astype("float32"), a.astype("float32")), (pt.clip(x, -0.5, 0.5), np.clip(a, -0.5, 0.5)),
        (pt.maximum(x, 0), np.maximum(a, 0)), (pt.cumsum(x, axis=1), np.cumsum(a, axis=1)),
        (pt.tril(x), np.tril(a)), (pt.arange(5), np.arange(5)), (pt.eye(3), np.eye(3)),
        (pt.zeros_like(x) + 1, np.ones_like(a)), (x.shape[0] * 1, 4), (x.shape, np.array([4, 5])),
        (pt.take(x, np.array([3, 0]), axis=1), np.take(a, [3, 0], axis=1)),
        (pt.outer(x[0], x[1]), np.outer(a[0], a[1])),
        (pt.log_softmax(x), a - np.log(np.exp(a).sum(axis=-1, keepdims=True))),
        (x.reshape((x.shape[1], x.shape[0])), a.reshape(5, 4)),
    ]
    f = pytensor.function([x], [c[0] for c in cases])
    for k, (got, (_, want)) in enumerate(zip(f(a), cases)):
        assert np.asarray(got).shape == np.asarray(want).shape, k
        close(got, want)


def test_upcasting_follows_numpy_and_pytensor():
    f32, f64, i32 = pt.fvector(), pt.dvector(), pt.ivector()
    assert (f32 * 2).dtype == "float32"
    assert (f32 * 2.5).dtype == "float32"
    assert (f32 + f64).dtype == "float64"
    assert (i32 + f32).dtype == "float64"
    assert (i32 * 2).dtype == "int32"
    assert (i32 / 2).dtype == "float64"
    assert (i32 * 0.5).dtype == "float64"
    f = pytensor.function([i32, f32], i32 + f32)
    assert f(np.arange(3, dtype="int32"), np.ones(3, dtype="float32")).dtype == np.float64


def test_outputs_single_list_dict_and_named_inputs():
    x, y = pt.dscalar("x"), pt.dscalar("y")
    assert pytensor.function([x, y], x + y)(1, 2) == 3
    assert [float(v) for v in pytensor.function([x, y], [x + y, x * y])(2, 3)] == [5, 6]
    d = pytensor.function([x, y], {"sum": x + y, "prod": x * y})(2, 5)
    assert set(d) == {"sum", "prod"} and float(d["prod"]) == 10
    assert pytensor.function([x, y], x - y)(y=1, x=4) == 3
    assert pytensor.function([x], [], on_unused_input="ignore")(1) == []
    assert pytensor.function([x, In(y, value=10.0)], x + y)(1) == 11


def test_updates_default_update_and_givens():
    s = pytensor.shared(np.float64(0.0), name="count")
    inc = pt.dscalar("inc")
    f = pytensor.function([inc], s, updates=[(s, s + inc)])
    assert [float(f(2)) for _ in range(3)] == [0, 2, 4]
    assert float(s.get_value()) == 6

    # default_update applies unless no_default_updates.
    r = pytensor.shared(np.zeros(2), name="r")
    r.default_update = r + 1
    g = pytensor.function([], r * 1)
    g()
    g()
    assert r.get_value().tolist() == [2, 2]
    h = pytensor.function([], r * 1, no_default_updates=True)
    h()
    assert r.get_value().tolist() == [2, 2]

    # Parallel assignment: a and b swap.
    a, b = pytensor.shared(np.array([1.0])), pytensor.shared(np.array([2.0]))
    pytensor.function([], [], updates={a: b, b: a})()
    assert (a.get_value()[0], b.get_value()[0]) == (2.0, 1.0)

    # givens replaces a variable (here a shared one) by another.
    x = pt.dvector("x")
    w = pytensor.shared(np.ones(3))
    k = pytensor.function([x], (w * 2).sum(), givens={w: x})
    assert float(k(np.arange(3.0))) == 6.0

    # An update of the wrong dtype is a TypeError, as in PyTensor.
    with pytest.raises(TypeError, match="update"):
        pytensor.function([], [], updates=[(s, pt.cast(s, "float32"))])


def test_grad_trains_a_linear_model():
    X, t = pt.dmatrix("X"), pt.dvector("t")
    w = pytensor.shared(np.zeros(3), name="w")
    b = pytensor.shared(np.float64(0.0), name="b")
    loss = ((X @ w + b - t) ** 2).mean()
    gw, gb = pytensor.grad(loss, [w, b])
    step = pytensor.function([X, t], loss, updates=[(w, w - 0.1 * gw), (b, b - 0.1 * gb)])
    data = rng.normal(size=(50, 3))
    target = data @ np.array([1.0, -2.0, 0.5]) + 0.3
    losses = [float(step(data, target)) for _ in range(300)]
    assert losses[-1] < 1e-3 * losses[0]
    close(w.get_value(), [1.0, -2.0, 0.5])
    # The gradient of one variable alone.
    x = pt.dvector("x")
    gx = pytensor.function([x], pytensor.grad((x ** 3).sum(), x))
    close(gx(np.array([1.0, 2.0])), [3.0, 12.0])


def test_exceptions():
    x, y = pt.dvector("x"), pt.dvector("y")
    with pytest.raises(pytensor.UnusedInputError):
        pytensor.function([x, y], x * 2)
    with pytest.warns(UserWarning):
        pytensor.function([x, y], x * 2, on_unused_input="warn")
    assert pytensor.function([x, y], x * 2, on_unused_input="ignore")(np.ones(2), np.ones(3)).tolist() == [2, 2]
    with pytest.raises(pytensor.MissingInputError):
        pytensor.function([x], x + y)
    f = pytensor.function([x], x * 2)
    g = pytensor.function([v := pt.fvector("v")], v * 2)
    with pytest.raises(TypeError, match="float32"):
        g(np.ones(2))  # float64 into float32 would lose precision
    with pytest.raises(TypeError, match="dimensions"):
        f(np.ones((2, 2)))
    # A shape mismatch is found by tcc before the call, with its message.
    with pytest.raises(ValueError):
        pytensor.function([x, y], x + y)(np.ones(2), np.ones(3))


def test_compile_errors_point_at_the_python_line():
    x = pt.tensor("x", shape=(None, 3))
    y = pt.tensor("y", shape=(4, 2))
    z = x @ y  # line of the error
    with pytest.raises(pytensor.CompileError) as err:
        pytensor.function([x, y], z)
    message = str(err.value)
    assert "test_api.py:" in message and "error:" in message
    line = z.loc[1]
    assert f"test_api.py:{line}:" in message


def test_dprint_and_eval():
    x = pt.dvector("x")
    y = pt.exp(x).sum()
    text = pytensor.dprint(y, file="str")
    assert "reduce" in text and "unary{kind=exp}" in text and "'x'" in text
    assert float(y.eval({x: np.zeros(4)})) == 4.0


def test_in_containers_with_value_and_update():
    acc = pt.dscalar("acc")
    x = pt.dscalar("x")
    f = pytensor.function([x, In(acc, value=0.0, update=acc + x)], acc + x)
    assert [float(f(2)) for _ in range(3)] == [2.0, 4.0, 6.0]
    # Given explicitly, the value is used, then the update kept.
    assert float(f(1, acc=10.0)) == 11.0
    assert float(f(0)) == 11.0


def test_config_floatx_sets_the_default_dtype():
    try:
        pytensor.config.floatX = "float32"
        assert pt.vector().dtype == "float32" and pt.matrix().dtype == "float32"
    finally:
        pytensor.config.floatX = "float64"
    assert pt.vector().dtype == "float64"


def test_pydotprint_draws_tccs_graph_view(tmp_path):
    x = pt.fvector("x")
    s = pytensor.shared(np.zeros(3, dtype="float32"), name="acc")
    f = pytensor.function([x], pt.exp(x).sum(), updates=[(s, s + x)])
    out = pytensor.pydotprint(f, str(tmp_path / "f.dot"), format="dot")
    text = open(out).read()
    assert text.startswith("digraph tcc") and "exp" in text and "s_acc_" in text
    svg = pytensor.pydotprint(x * 2, str(tmp_path / "g.svg"), format="svg")
    assert open(svg).read().lstrip().startswith("<?xml")


def test_grad_of_a_disconnected_input():
    x, y = pt.dvector("x"), pt.dvector("y")
    cost = (x ** 2).sum()
    with pytest.raises(pytensor.DisconnectedInputError):
        pytensor.grad(cost, [x, y])
    gx, gy = pytensor.grad(cost, [x, y], disconnected_inputs="ignore")
    f = pytensor.function([x, y], [gx, gy])
    g = f(np.array([1.0, 2.0]), np.array([5.0]))
    assert g[0].tolist() == [2.0, 4.0] and g[1].tolist() == [0.0]


def test_dimshuffle_drops_broadcastable_axes_and_permutes():
    x = pt.tensor("x", shape=(1, None, 3))
    f = pytensor.function([x], [x.dimshuffle(2, 1), x.dimshuffle("x", 1, 2)])
    a = np.arange(6.0).reshape(1, 2, 3)
    r = f(a)
    assert r[0].tolist() == a[0].T.tolist() and r[1].shape == (1, 2, 3)


def test_grad_consider_constant_stops_the_gradient():
    x = pt.dvector("x")
    c = x * x
    cost = (c * x).sum()
    # d/dx sum(x^3) is 3x^2; with c = x^2 constant it is c = x^2.
    full = pytensor.function([x], pytensor.grad(cost, x))
    stopped = pytensor.function([x], pytensor.grad(cost, x, consider_constant=[c]))
    a = np.array([1.0, 2.0, 3.0])
    close(full(a), 3 * a ** 2)
    close(stopped(a), a ** 2)
    # A constant that is also a wrt keeps its own gradient (d cost/dc = x),
    # and still passes none to x.
    gx, gc = pytensor.grad(cost, [x, c], consider_constant=[c])
    f = pytensor.function([x], [gx, gc])
    got = f(a)
    close(got[0], a ** 2)
    close(got[1], a)
    # A constant the cost does not depend on changes nothing.
    y = pt.dvector("y")
    g = pytensor.function([x], pytensor.grad(cost, x, consider_constant=[y * 2]))
    close(g(a), 3 * a ** 2)
    with pytest.raises(TypeError, match="consider_constant"):
        pytensor.grad(cost, x, consider_constant=[np.ones(3)])
