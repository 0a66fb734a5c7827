"""pytensor.compile.function: `function`, `pfunc` and `function_dump`.
`tcc.compile.function` is the function itself once `tcc.compile` is
imported, as in PyTensor; `from tcc.compile.function import pfunc` finds
this module."""
from ..._function import function, function_dump  # noqa: F401
from .pfunc import pfunc  # noqa: F401
