"""pytensor.compile.io: In and Out."""
from .._function import In, Out  # noqa: F401
