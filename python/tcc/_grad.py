"""tcc.grad: PyTensor's grad, a symbolic gradient that tcc's own reverse
mode computes when the function is compiled (the graph file's `grad`)."""

import warnings

from ._graph import Variable
from ._graphfile import _topological


class DisconnectedInputError(ValueError):
    """grad with respect to a variable the cost does not depend on
    (disconnected_inputs='raise')."""


DisconnectedInputError.__module__ = "tcc"


class _GradGroup:
    """One grad call: its cost, the variables it differentiates with respect
    to, and those it takes as constants (consider_constant)."""

    def __init__(self, cost, wrt, constants):
        self.cost = cost
        self.wrt = wrt
        self.constants = constants


def grad(cost, wrt, consider_constant=None, disconnected_inputs="raise", **kwargs):
    """The symbolic gradient of the scalar `cost` with respect to `wrt` (a
    variable or a list), computed by tcc's own grad. The variables of
    `consider_constant` are taken as constants: no gradient goes through
    them to what they are computed from."""
    constants = list(consider_constant or [])
    for k, c in enumerate(constants):
        if not isinstance(c, Variable):
            raise TypeError(f"consider_constant[{k}] is {type(c).__name__}, "
                            "not a symbolic variable")
    single = not isinstance(wrt, (list, tuple))
    wrt_list = [wrt] if single else list(wrt)
    if cost.ndim != 0:
        raise TypeError(f"cost must be a scalar, got a tensor of {cost.ndim} dimensions")
    if disconnected_inputs not in ("raise", "warn", "ignore"):
        raise ValueError("disconnected_inputs must be 'raise', 'warn' or 'ignore'")
    reached = {v.id for v in _topological([cost], {})}
    for k, w in enumerate(wrt_list):
        if w.id not in reached:
            msg = (f"grad: the cost does not depend on wrt {k} ({w!r}); its "
                   f"gradient is zero (pass disconnected_inputs='ignore' or 'warn')")
            if disconnected_inputs == "raise":
                raise DisconnectedInputError(msg)
            if disconnected_inputs == "warn":
                warnings.warn(msg, stacklevel=2)
    group = _GradGroup(cost, wrt_list, constants)
    parts = [Variable("grad_part", [cost, w], {"group": group, "index": k}, w.dtype, w.ndim,
                      shape=w.static_shape) for k, w in enumerate(wrt_list)]
    return parts[0] if single else parts
