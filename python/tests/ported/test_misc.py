# Ported from PyTensor's tests/compile/test_misc.py and
# tests/compile/test_nn_workflow.py (the same network, made with pfunc and
# with function) (https://github.com/pymc-devs/pytensor, BSD-3-Clause; see
# README.md here). The cases and assertions are PyTensor's, rewritten
# against tcc with PyTensor's names.

import numpy as np
import pytest

from tcc import grad
from tcc.compile.function import function
from tcc.compile.function.pfunc import pfunc
from tcc.compile.sharedvalue import shared
from tcc.tensor.math import dot, sigmoid
from tcc.tensor.math import sum as pt_sum
from tcc.tensor.type import dvector


class NNet:
    """One hidden layer trained by SGD on a squared error, with PyTensor's
    three functions: a step, the output, and the output from the hidden
    layer (an intermediate value given as an input)."""

    def __init__(self, make, n_input=1, n_hidden=1, n_output=1, lr=1e-3):
        self.input, self.target = dvector("input"), dvector("target")
        self.lr = shared(lr, "learning_rate")
        self.w1 = shared(np.zeros((n_hidden, n_input)), "w1")
        self.w2 = shared(np.zeros((n_output, n_hidden)), "w2")
        self.hidden = sigmoid(dot(self.w1, self.input))
        self.output = dot(self.w2, self.hidden)
        self.cost = pt_sum((self.output - self.target) ** 2)
        updates = {self.w1: self.w1 - self.lr * grad(self.cost, self.w1),
                   self.w2: self.w2 - self.lr * grad(self.cost, self.w2)}
        self.sgd_step = make([self.input, self.target], [self.output, self.cost],
                             updates=updates)
        self.compute_output = make([self.input], self.output)
        self.output_from_hidden = make([self.hidden], self.output)


@pytest.mark.parametrize("make", [
    pytest.param(lambda i, o, **kw: pfunc(params=i, outputs=o, **kw), id="test_nnet"),
    pytest.param(lambda i, o, **kw: function(inputs=i, outputs=o, **kw), id="test_nn_workflow"),
])
def test_nnet(make):
    data = np.random.default_rng(279).random((10, 4))
    nnet = NNet(make, n_input=3, n_hidden=10)
    for epoch in range(3):
        mean_cost = 0
        for x in data:
            _output, cost = nnet.sgd_step(x[0:3], x[3:])
            mean_cost += cost
        mean_cost /= float(len(data))
    assert abs(mean_cost - 0.2301901) < 1e-6  # PyTensor's seed-based value
    nnet.compute_output(x[0:3])
    nnet.output_from_hidden(np.ones(10))
