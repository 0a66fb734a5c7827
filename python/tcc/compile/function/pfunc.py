"""pytensor.compile.function.pfunc: pfunc, tcc.function under PyTensor's
older name (its first parameter is `params`)."""
from ..._function import function


def pfunc(params, outputs=None, mode=None, updates=None, givens=None,
          no_default_updates=False, accept_inplace=False, name=None,
          rebuild_strict=True, allow_input_downcast=None, profile=None,
          on_unused_input=None, trust_input=False):
    """PyTensor's pfunc: `function` with the inputs named `params`."""
    return function(params, outputs, mode=mode, updates=updates, givens=givens,
                    no_default_updates=no_default_updates, name=name,
                    allow_input_downcast=allow_input_downcast,
                    on_unused_input=on_unused_input, trust_input=trust_input)
