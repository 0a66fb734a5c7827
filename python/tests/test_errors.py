"""The exception types of docs/errors.md's Python table, one test per row:
PyTensor's types where PyTensor has one, with tcc's messages."""

import numpy as np
import pytest

import tcc as pytensor
import tcc.tensor as pt
from tcc import In, _tcc


def test_compile_error_is_a_value_error_at_the_python_line():
    x, w = pt.tensor("x", shape=(None, 3)), pt.tensor("w", shape=(4, 2))
    y = x @ w
    with pytest.raises(pytensor.CompileError) as err:
        pytensor.function([x, w], y)
    assert isinstance(err.value, ValueError)
    assert f"test_errors.py:{y.loc[1]}:" in str(err.value)
    assert "error: matmul contraction dimensions differ" in str(err.value)


def test_function_errors():
    x, y = pt.dvector("x"), pt.dvector("y")
    s = pytensor.shared(np.zeros(2))
    with pytest.raises(pytensor.UnusedInputError, match="not used by any output"):
        pytensor.function([x, y], x * 2)
    with pytest.warns(UserWarning, match="not used by any output"):
        pytensor.function([x, y], x * 2, on_unused_input="warn")
    with pytest.raises(pytensor.MissingInputError, match="needs input"):
        pytensor.function([x], x + y)
    with pytest.raises(TypeError, match="inputs must be a list"):
        pytensor.function(x, x)
    with pytest.raises(TypeError, match="is a shared variable"):
        pytensor.function([s], s * 2)
    with pytest.raises(TypeError, match="must have its type"):
        pytensor.function([x], x, updates=[(s, s.sum())])
    with pytest.raises(ValueError, match="given twice"):
        pytensor.function([x, x], x)
    with pytest.raises(ValueError, match="updated twice"):
        pytensor.function([x], x, updates=[(s, s + x), (s, s - x)])
    with pytest.raises(ValueError, match="on_unused_input must be"):
        pytensor.function([x], x, on_unused_input="maybe")


def test_input_output_and_givens_errors():
    x, y = pt.dvector("x"), pt.dvector("y")
    with pytest.raises(pytensor.UnusedInputError, match="given twice") as err:
        pytensor.function([x, x], x)
    assert isinstance(err.value, ValueError)  # as before, too
    with pytest.raises(TypeError, match="name is a string"):
        In(x, name=["x"])
    with pytest.raises(TypeError, match="must have its type"):
        In(x, value=np.zeros(2), update=x.sum())
    with pytest.raises(RuntimeError, match="an input of the function"):
        pytensor.function([x], x * 2, givens={x: y})
    with pytest.raises(AssertionError, match="must be strings"):
        pytensor.function([x], {1: x})
    same = pytensor.function([x, pt.dvector("x")], x * 2, on_unused_input="ignore")
    with pytest.raises(TypeError, match="ambiguous"):
        same(np.ones(2), x=np.ones(2))
    f = pytensor.function([x, y], x + y)
    with pytest.raises(TypeError, match="given twice"):
        f(np.ones(2), np.ones(2), x=np.ones(2))


def test_set_value_errors():
    strict = pytensor.shared(np.zeros(2), strict=True)
    with pytest.raises(TypeError, match="is strict"):
        strict.set_value([1.0, 2.0])
    loose = pytensor.shared(np.zeros(2, dtype="float32"))
    with pytest.raises(TypeError):
        loose.set_value(np.ones(2))  # float64 into float32 loses precision
    with pytest.raises(ValueError):
        loose.set_value("adsf")
    assert loose.get_value().tolist() == [0.0, 0.0]


def test_grad_errors():
    x, y = pt.dvector("x"), pt.dvector("y")
    with pytest.raises(pytensor.DisconnectedInputError) as err:
        pytensor.grad((x ** 2).sum(), [x, y])
    assert isinstance(err.value, ValueError)
    with pytest.raises(TypeError, match="consider_constant"):
        pytensor.grad((x ** 2).sum(), x, consider_constant=[3.0])


def test_variable_and_op_errors():
    with pytest.raises(TypeError, match="uint8"):
        pt.vector(dtype="uint8")
    with pytest.raises(TypeError, match="int32 or int64 indices"):
        pt.take(pt.dvector(), pt.dvector())
    with pytest.raises(NotImplementedError, match="symbolic bounds"):
        pt.arange(pt.lscalar())


def test_call_errors():
    x = pt.dvector("x")
    y = pt.dvector("y")
    f = pytensor.function([x, y], x + y)
    with pytest.raises(TypeError, match="dimensions"):
        f(np.ones((2, 2)), np.ones(2))
    with pytest.raises(TypeError, match="missing input"):
        f(np.ones(2))
    with pytest.raises(TypeError, match="too many arguments"):
        f(np.ones(2), np.ones(2), np.ones(2))
    v = pt.fvector("v")
    with pytest.raises(TypeError, match="would lose"):
        pytensor.function([v], v + 1)(np.array([0.5]))  # float64 into float32
    with pytest.raises(ValueError, match="i_x_0"):
        f(np.ones(2), np.ones(3))  # the runtime's size check, nothing changed
    f.trust_input = True  # arrays only, unchecked: a number is refused
    with pytest.raises(TypeError, match="expected a numpy array"):
        f(np.float64(1.0), np.ones(2))
    b = pt.fvector("b")
    g = pytensor.function([In(b, borrow=True)], b * 2)
    with pytest.raises(TypeError, match="borrowed input"):
        g(np.ones(3))
    with pytest.raises(ValueError, match="C-contiguous"):
        g(np.ones(6, dtype="float32")[::2])


def test_shared_variable_errors():
    s = pytensor.shared(np.zeros(3))
    with pytest.raises(ValueError):
        s.set_value(np.zeros(4))
    assert s.get_value().tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(KeyError):
        _tcc.shared_get("no such variable", False, False)
