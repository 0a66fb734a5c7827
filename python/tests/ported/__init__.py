"""PyTensor's own tests of shared variables, function, In/Out and aliasing,
ported to tcc (README.md)."""

import numpy as np
import pytest


def lacks(reason):
    """Marks a PyTensor test that cannot run on tcc, with the reason
    (docs/python.md lists each)."""
    return pytest.mark.skip(reason="tcc lacks " + reason)


def check_in_allow_downcast(make, maker):
    """PyTensor's case of test_function.py and test_pfunc.py alike: three
    float32 inputs made by `maker` (fscalar, fvector) with allow_downcast
    True, False and None, compiled by `make` (function, pfunc). A value
    float32 holds exactly goes everywhere; 0.1 only where downcasting is
    allowed (None is False, tcc's floatX being float64)."""
    from tcc import In, config
    a, b, c = maker("a"), maker("b"), maker("c")
    f = make([In(a, allow_downcast=True), In(b, allow_downcast=False),
              In(c, allow_downcast=None)], a + b + c)
    zero, tenth = (0, 0.1) if a.ndim == 0 else ([0], [0.1])
    assert np.array_equal(f(zero, zero, zero), zero)
    assert np.allclose(f(tenth, zero, zero), 0.1)
    with pytest.raises(TypeError):
        f(zero, tenth, zero)
    if config.floatX == "float32" and a.ndim == 0:
        assert np.allclose(f(zero, zero, tenth), 0.1)
    else:
        with pytest.raises(TypeError):
            f(zero, zero, tenth)
