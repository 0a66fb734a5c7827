"""pytensor.compile: function, In, Out and shared."""
from . import function as _function_package  # noqa: F401  (the submodule first)
from .._function import In, Out, function, function_dump, UnusedInputError, MissingInputError  # noqa: F401,E402
from .._containers import Container  # noqa: F401,E402
from .._sharedvar import SharedVariable, shared  # noqa: F401,E402
from . import io, sharedvalue  # noqa: F401,E402
