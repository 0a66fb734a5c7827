"""Theano's tensor.nnet names."""
from .special import softmax, log_softmax, relu  # noqa: F401
from . import sigmoid, softplus  # noqa: F401
