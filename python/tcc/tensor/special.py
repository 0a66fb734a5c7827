"""pytensor.tensor.special: softmax and friends."""

from .._graph import FLOAT_DTYPES, FLOATX, Variable, source_location


def softmax(x, axis=-1):
    from . import as_tensor_variable, cast
    x = as_tensor_variable(x)
    if x.dtype not in FLOAT_DTYPES:
        x = cast(x, FLOATX)
    return Variable("softmax", [x], {"axis": int(axis), "log": False}, x.dtype, x.ndim,
                    loc=source_location(), shape=x.static_shape)


def log_softmax(x, axis=-1):
    from . import as_tensor_variable, cast
    x = as_tensor_variable(x)
    if x.dtype not in FLOAT_DTYPES:
        x = cast(x, FLOATX)
    return Variable("softmax", [x], {"axis": int(axis), "log": True}, x.dtype, x.ndim,
                    loc=source_location(), shape=x.static_shape)


def relu(x):
    from . import relu_
    return relu_(x)


def expit(x):
    from . import sigmoid
    return sigmoid(x)


def logsumexp(x, axis=None, keepdims=False):
    from . import logsumexp as lse
    return lse(x, axis, keepdims)
