"""pytensor.compile: function, In, Out and shared."""
from .._function import In, Out, function, UnusedInputError, MissingInputError  # noqa: F401
from .._sharedvar import SharedVariable, shared  # noqa: F401
from . import io  # noqa: F401
