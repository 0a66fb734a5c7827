"""pytensor.compile.function.types: Function and the errors it raises."""
from ..._function import Function, UnusedInputError  # noqa: F401
from ..._graphfile import MissingInputError  # noqa: F401
