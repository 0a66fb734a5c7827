"""pytensor.compile.sharedvalue: shared variables."""
from .._sharedvar import SharedVariable, shared  # noqa: F401
