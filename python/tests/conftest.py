"""The tests import tcc from the build tree (ctest sets PYTHONPATH) or from
an installed package."""
