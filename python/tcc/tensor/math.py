"""pytensor.tensor.math: the elementwise and reduction ops."""
from . import (abs, add, argmax, ceil, clip, cos, dot, eq, exp, floor, ge,  # noqa: F401
               gt, le, log, log1p, lt, matmul, max, maximum, mean, min,
               minimum, mul, neq, pow, prod, round, sigmoid, sin, sqr, sqrt,
               std, sub, sum, tanh, true_div, var, expm1, erf, softplus, sign,
               logsumexp, switch)
