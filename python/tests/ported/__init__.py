"""PyTensor's own tests of shared variables, function, In/Out and aliasing,
ported to tcc (README.md)."""

import pytest


def lacks(reason):
    """Marks a PyTensor test that cannot run on tcc, with the reason
    (docs/python.md lists each)."""
    return pytest.mark.skip(reason="tcc lacks " + reason)
