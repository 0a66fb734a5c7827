"""tcc: PyTensor's API on tcc's compiler (docs/python.md).

    import tcc as pytensor
    import tcc.tensor as pt

Shared variables live in tcc's managed memory space; functions are compiled
by tcc and called with numpy arrays, without copies where the borrow flags
allow (PyTensor's memory model, docs/memory-model.md).
"""

import atexit as _atexit

from . import _tcc

_tcc.startup()
_atexit.register(_tcc.shutdown)

from ._graph import Variable, TensorType  # noqa: E402
from ._sharedvar import SharedVariable, shared  # noqa: E402
from ._function import (CompileError, Function, In, MissingInputError, Out,  # noqa: E402
                        UnusedInputError, function, function_dump)
from ._grad import DisconnectedInputError, grad  # noqa: E402
from ._printing import dprint, pp, pydotprint  # noqa: E402
from . import _printing as printing  # noqa: E402,F401
from . import tensor  # noqa: E402
from . import compile  # noqa: E402,F401
from . import misc  # noqa: E402,F401
from . import dist  # noqa: E402,F401


from ._graph import config  # noqa: E402
__version__ = "0.1.0"
