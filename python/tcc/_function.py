"""tcc.function: a PyTensor graph compiled by tcc and called with numpy.

`function` collects what a function computes (outputs, updates, default
updates, givens) and checks it as PyTensor does; `_graphfile.py` writes it
as a tcc graph file, compiles it in this process and loads it into the
process's managed memory space, where the shared variables already live.
`Function` converts the arguments of a call and hands them to the runtime.
"""

import copy as _copy
import itertools
import pickle
import re
import warnings

import numpy as np

from . import _tcc
from ._graph import Variable, source_location
from ._graphfile import (_OUTPUT_MISMATCH, CompileError, MissingInputError,
                         _build, _compile_graph, _merge_dims, _topological)
from ._containers import Container, InputFinder
from ._givens import Replacer, reads_a_replaced_variable
from ._sharedvar import SharedVariable

_function_ids = itertools.count()


class UnusedInputError(Exception):
    """An input that no output or update depends on (on_unused_input='raise')."""


for _cls in (CompileError, UnusedInputError, MissingInputError):
    _cls.__module__ = "tcc"


class In:
    """PyTensor's In: an input with its flags. borrow=True or mutable=True:
    the function may overwrite the array (it is passed without a copy, and
    a call that would need one is an error). `value` is the input's default
    (or a Container of another function: the two share it); with `update`,
    the function keeps the input's state there, replaced by `update` (its
    value in the same call) after every call. `implicit` (by default: when
    `value` is a Container) takes the input out of the positional
    arguments."""

    def __init__(self, variable, name=None, value=None, update=None,
                 mutable=False, strict=False, allow_downcast=None,
                 autoname=True, implicit=None, borrow=False, shared=False):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"an input's name is a string, not {type(name).__name__}")
        if update is not None and isinstance(variable, Variable) and \
                isinstance(update, Variable) and \
                (update.ndim != variable.ndim or update.dtype != variable.dtype):
            raise TypeError(
                f"the update of input {variable!r} ({variable.dtype}, {variable.ndim} "
                f"dimensions) must have its type, not {update.dtype} with "
                f"{update.ndim} dimensions")
        self.update = update
        self.variable = variable
        self.name = name if name is not None else getattr(variable, "name", None)
        self.value = value
        self.mutable = mutable
        self.borrow = borrow or mutable
        self.strict = strict
        self.allow_downcast = allow_downcast
        self.implicit = isinstance(value, Container) if implicit is None else bool(implicit)


class Out:
    """PyTensor's Out: borrow=True reuses the output's buffer from call to
    call, so the array a call returns is overwritten by the next one."""

    def __init__(self, variable, borrow=False):
        self.variable = variable
        self.borrow = borrow

    def __repr__(self):
        return f"Out({self.variable!r}, borrow={self.borrow})"


class DuplicateInputError(UnusedInputError, ValueError):
    """An input given twice: one of the two is unused (PyTensor's
    UnusedInputError), and a ValueError as tcc raised before."""


_MISSING = object()


class Function:
    """A compiled function: call it with numpy arrays (or numbers, lists)."""

    def __init__(self, inputs, outputs, out_kind, out_keys, updates, givens,
                 name, trust_input, containers=None, data_parallel=False,
                 check_replicas=False):
        self.name = name
        self.data_parallel = data_parallel
        self._check_replicas = data_parallel and check_replicas
        self._calls = 0
        self.maker_inputs = inputs
        self._outputs = outputs
        self._out_kind = out_kind
        self._out_keys = out_keys
        self._updates = updates
        self._givens = givens
        self._fname = f"f{next(_function_ids)}"
        # Each input's storage (PyTensor's containers): its default or its
        # state; In(x, value=f.container[y]) shares another function's.
        if containers is None:
            # A default is kept as an array of the input's dtype (PyTensor
            # filters it through the type): a copy of the caller's value.
            containers = [i.value if isinstance(i.value, Container) else
                          Container(None if i.value is None else
                                    np.array(i.value, dtype=i.variable.dtype))
                          for i in inputs]
        self._input_containers = containers
        # In(x, value, update=e): state the function keeps; e is one more
        # (hidden) output, stored in the input's container.
        self._updated_inputs = [k for k, i in enumerate(inputs) if i.update is not None]
        outputs = list(outputs) + [Out(inputs[k].update) for k in self._updated_inputs]
        self._n_user_outputs = len(outputs) - len(self._updated_inputs)
        text, locs = _compile_graph(inputs, outputs, updates, givens, self._fname)
        self._graph_text = text  # for pydotprint: the graph file tcc compiled
        try:
            self._fn, self._compile_cache = _build(text, locs, self._fname,
                                                   data_parallel)
        except CompileError as err:
            # An output whose size is static though the graph here could not
            # tell: declare it as tcc computed it, once.
            fixes = _OUTPUT_MISMATCH.findall(str(err))
            if not fixes:
                raise
            for out_name, declared, actual in fixes:
                text = text.replace(f"{out_name} : {declared}",
                                    f"{out_name} : {_merge_dims(declared, actual)}", 1)
            self._fn, self._compile_cache = _build(text, locs, self._fname,
                                                   data_parallel)
            self._graph_text = text
        self._call_one = self._fn.call_one
        # Data parallelism: the variables the function updates are one
        # replica, rank 0's from here on; those it only reads stay each
        # rank's own (its shard of a data set, say).
        self._replicated = sorted({s.store_name for s, _ in updates})
        if data_parallel:
            _tcc.dist_broadcast(self._replicated)
        # Positional arguments fill the inputs that are not implicit.
        self._explicit = [k for k, i in enumerate(inputs) if not i.implicit]
        self._by_name = {}
        for k, i in enumerate(inputs):
            if i.name:
                # A name that several inputs have finds none of them.
                self._by_name[i.name] = -1 if i.name in self._by_name else k
        self._dtypes = [i.variable.dtype for i in inputs]
        self._ndims = [i.variable.ndim for i in inputs]
        self._np_dtypes = [np.dtype(d) for d in self._dtypes]
        self.trust_input = trust_input

    # --- PyTensor's views of the inputs' storage ---------------------------
    def _input_index(self, key):
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            if not 0 <= key < len(self.maker_inputs):
                raise KeyError(key)
            return int(key)
        if isinstance(key, str):
            k = self._by_name.get(key)
            if k is None:
                raise KeyError(f"no input named {key!r}")
            if k < 0:
                raise TypeError(f"the name {key!r} is ambiguous: several inputs have it")
            return k
        for k, i in enumerate(self.maker_inputs):
            if i.variable is key:
                return k
        raise KeyError(key)

    @property
    def container(self):
        """The inputs' Containers, by variable, name or position."""
        return InputFinder(self, values=False)

    @property
    def value(self):
        """The values the inputs' Containers hold (settable)."""
        return InputFinder(self, values=True)

    def __getitem__(self, key):
        return self._input_containers[self._input_index(key)].value

    def __setitem__(self, key, value):
        self._input_containers[self._input_index(key)].value = value

    @property
    def outputs(self):
        """The outputs (Out), in the order of the results; a dict's by
        sorted key."""
        return list(self._outputs[:self._n_user_outputs])

    @property
    def unpack_single(self):
        """True when the call returns one array, not a list."""
        return self._out_kind == "single"

    def _convert(self, k, value):
        i = self.maker_inputs[k]
        dtype = self._dtypes[k]
        if isinstance(value, np.ndarray):
            if value.dtype.name != dtype:
                if i.borrow:
                    return value  # the binding says why this cannot be
                if i.strict:
                    raise TypeError(
                        f"input {k} ({i.variable!r}) of {self._fname} is strict: it "
                        f"takes {dtype} arrays only, not {value.dtype}")
                if not np.can_cast(value.dtype, dtype, "safe") and not i.allow_downcast:
                    raise TypeError(
                        f"input {k} ({i.variable!r}) of {self._fname} is {dtype} but "
                        f"the array is {value.dtype}: converting it would lose "
                        f"precision (cast it first, or In(x, allow_downcast=True))")
                value = value.astype(dtype)
        else:
            if isinstance(value, Variable):
                raise TypeError("a compiled function takes arrays, not symbolic variables")
            arr = np.asarray(value)
            converted = np.asarray(arr, dtype=dtype)
            # Numbers and lists are converted when no value changes (0 into
            # float32, not 0.1), or anyway with allow_downcast (PyTensor's rule).
            if not i.allow_downcast and arr.dtype != converted.dtype and \
                    not np.can_cast(arr.dtype, dtype, "safe") and \
                    not np.array_equal(converted.astype(arr.dtype), arr):
                raise TypeError(
                    f"input {k} ({i.variable!r}) is {dtype}: {value!r} would change "
                    f"when converted (pass allow_input_downcast=True or "
                    f"In(x, allow_downcast=True))")
            value = converted
        if value.ndim != self._ndims[k]:
            raise TypeError(
                f"input {k} ({i.variable!r}) of {self._fname} has {self._ndims[k]} "
                f"dimensions, the array has {value.ndim} (shape {value.shape})")
        return value

    def _arguments(self, args, kwargs, convert):
        """Each input's value for a call: the positional arguments fill the
        explicit inputs in order, keywords go by name, the rest comes from
        the inputs' containers."""
        n = len(self.maker_inputs)
        if len(args) > len(self._explicit):
            raise TypeError(f"too many arguments: {self._fname} takes "
                            f"{len(self._explicit)} positional inputs, got {len(args)}")
        values = [_MISSING] * n
        for k, a in zip(self._explicit, args):
            values[k] = a
        for key, value in kwargs.items():
            k = self._by_name.get(key)
            if k is None:
                raise TypeError(f"unknown input name {key!r}")
            if k < 0:
                raise TypeError(f"the input name {key!r} is ambiguous: several inputs have it")
            if values[k] is not _MISSING:
                raise TypeError(f"input {key!r} is given twice (by position and by name)")
            values[k] = value
        for k in range(n):
            if values[k] is _MISSING:
                values[k] = self._input_containers[k].value
                if values[k] is None:
                    raise TypeError(f"missing input {k} ({self.maker_inputs[k].variable!r})")
            if convert:
                values[k] = self._convert(k, values[k])
        return values

    def __call__(self, *args, **kwargs):
        if self._check_replicas:
            return self._call_checked(args, kwargs)
        if self._trusted_single and not kwargs:
            return self._call_one(*args)  # trust_input: straight to the runtime
        if not kwargs and self._all_explicit and len(args) == len(self._np_dtypes) and (
                self.trust_input or all(
                    type(a) is np.ndarray and a.dtype is d and a.ndim == k
                    for a, d, k in zip(args, self._np_dtypes, self._ndims))):
            values = args  # arrays of the right dtype and rank
        else:
            values = self._arguments(args, kwargs, convert=not self.trust_input)
        results = self._fn(*values)
        if self._updated_inputs:
            for k, value in zip(self._updated_inputs, results[self._n_user_outputs:]):
                self._input_containers[k].value = value
            results = results[:self._n_user_outputs]
        if self._out_kind == "single":
            return results[0]
        if self._out_kind == "dict":
            return dict(zip(self._out_keys, results))
        return results

    @property
    def trust_input(self):
        return self._trust_input

    @trust_input.setter
    def trust_input(self, value):
        # Settable after compiling, as PyTensor's (f.trust_input = True).
        self._trust_input = bool(value)
        self._all_explicit = len(self._explicit) == len(self.maker_inputs)
        self._trusted_single = (self._trust_input and not self._updated_inputs
                                and self._all_explicit and self._out_kind == "single")

    def copy(self, share_memory=False, swap=None, delete_updates=False,
             name=None, profile=None):
        """A new function of the same graph: `swap` maps shared variables
        to others of the same type, `delete_updates` drops the updates of
        shared variables. Both functions use the same shared variables
        otherwise. The copy's inputs have containers of their own, holding
        the same defaults (a copy of a mutable input's). Each function keeps
        its own buffers (tcc keeps no storage between calls but a borrowed
        output's, so share_memory changes nothing else)."""
        givens = dict(self._givens)
        for old, new in (swap or {}).items():
            if not isinstance(old, SharedVariable) or not isinstance(new, SharedVariable):
                raise TypeError("swap maps shared variables to shared variables")
            if old.type != new.type:
                raise TypeError(f"swap of {old!r} ({old.type}) for {new!r} ({new.type}): "
                                "the types differ")
            givens[old] = new
        updates = [] if delete_updates else [
            (givens.get(s, s), u) for s, u in self._updates]
        containers = [Container(_copy.copy(c.value) if i.mutable else c.value)
                      for i, c in zip(self.maker_inputs, self._input_containers)]
        return Function(self.maker_inputs, self._outputs[:self._n_user_outputs],
                        self._out_kind, self._out_keys, updates, givens,
                        name if name is not None else self.name, self.trust_input,
                        containers)

    def __copy__(self):
        return self.copy()

    def _call_checked(self, args, kwargs):
        """A call, then the replicas compared across ranks (DebugMode)."""
        self._check_replicas = False
        try:
            results = self(*args, **kwargs)
        finally:
            self._check_replicas = True
        self._calls += 1
        _tcc.dist_check(self._replicated, f"after call {self._calls} of {self.name}")
        return results

    def free(self):
        """PyTensor's free(): drops the storage the function keeps between
        calls. tcc's temporaries go when each call ends already; what stays
        is each borrowed output's buffer (Out(y, borrow=True)), reused from
        call to call: it goes once no array of an earlier call holds it,
        and the next call allocates it again (so it no longer overwrites
        the arrays earlier calls returned). The function stays callable;
        its code goes when the function itself does."""
        self._fn.free()

    def __reduce__(self):
        # Unpickling compiles the graph again. The containers go along, so
        # functions pickled together still share theirs.
        return (Function, (self.maker_inputs, self._outputs[:self._n_user_outputs], self._out_kind,
                           self._out_keys, self._updates, self._givens,
                           self.name, self.trust_input, self._input_containers,
                           self.data_parallel, self._check_replicas))


def function(inputs, outputs=None, mode=None, updates=None, givens=None,
             no_default_updates=False, accept_inplace=False, name=None,
             rebuild_strict=True, allow_input_downcast=None, profile=None,
             on_unused_input="raise", trust_input=False, data_parallel=False):
    """PyTensor's function: compiles the graph from `inputs` to `outputs`
    (a variable, a list or a dict) with `updates` of shared variables.

    data_parallel=True (tcc's own): this process is one rank of a job run
    under mpirun; every gradient that feeds an update is averaged across the
    ranks, and the updated shared variables start from rank 0's values.
    With mode="DebugMode" each call then checks that they stayed bitwise
    identical on every rank (docs/distributed.md, "From Python")."""
    if not isinstance(data_parallel, bool):
        raise TypeError(f"data_parallel must be True or False, not {data_parallel!r}")
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"inputs must be a list or a tuple, not {type(inputs).__name__}")
    if not (isinstance(no_default_updates, bool)
            or (isinstance(no_default_updates, list)
                and all(isinstance(v, SharedVariable) for v in no_default_updates))):
        raise TypeError("no_default_updates must be True, False or a list of "
                        "shared variables")
    if on_unused_input not in ("raise", "warn", "ignore", None):
        raise ValueError(f"on_unused_input must be 'raise', 'warn' or 'ignore', not {on_unused_input!r}")
    ins = []
    for k, x in enumerate(inputs):
        i = x if isinstance(x, In) else In(x)
        if allow_input_downcast and i.allow_downcast is None:
            i.allow_downcast = True
        if not isinstance(i.variable, Variable):
            raise TypeError(f"input {k} is {type(i.variable).__name__}, not a symbolic variable")
        if isinstance(i.variable, SharedVariable):
            raise TypeError(f"Cannot use a shared variable ({i.variable!r}) as explicit "
                            f"input {k}: {i.variable!r} is a shared variable, an implicit "
                            "input of every function that reads it (use givens to replace it)")
        ins.append(i)
    seen = set()
    for k, i in enumerate(ins):
        if i.variable.id in seen:
            raise DuplicateInputError(f"input {k} ({i.variable!r}) is given twice")
        seen.add(i.variable.id)
        name_ok = i.name and re.fullmatch(r"[A-Za-z_]\w*", i.name)
        i.tg_name = f"{i.name}" if name_ok else f"in{k}"
    # Graph-file names: inputs i_*, shared variables s_*, values v*, t*,
    # gradients g*, outputs o*, fresh sizes R*: they never collide.
    taken = set()
    for k, i in enumerate(ins):
        if i.tg_name in taken:
            i.tg_name = f"in{k}"
        taken.add(i.tg_name)
    for i in ins:
        i.tg_name = "i_" + i.tg_name

    out_kind, out_keys = "list", None
    if outputs is None:
        outs = []
    elif isinstance(outputs, dict):
        # PyTensor's rule: string keys, the results in sorted key order.
        assert all(isinstance(key, str) for key in outputs), \
            "the keys of a dict of outputs must be strings"
        out_kind, out_keys = "dict", sorted(outputs)
        outs = [outputs[key] for key in out_keys]
    elif isinstance(outputs, (list, tuple)):
        outs = list(outputs)
    else:
        out_kind, outs = "single", [outputs]
    from .tensor import as_tensor_variable
    outs = [o if isinstance(o, Out) else Out(as_tensor_variable(o)) for o in outs]

    if isinstance(updates, dict):
        updates = list(updates.items())
    pairs = []
    for pair in updates or []:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"an update is a pair (shared variable, new value), not {pair!r}")
        s, u = pair
        if not isinstance(s, SharedVariable):
            raise TypeError(f"only shared variables can be updated, not {s!r}")
        if not isinstance(u, Variable):
            u = as_tensor_variable(np.asarray(u, dtype=s.dtype) if np.ndim(u) == 0 else u)
        if u.ndim != s.ndim or any(a == 1 and b != 1 for a, b in zip(u.static_shape, s.static_shape)):
            raise TypeError(
                f"an update of shared variable {s!r} ({s.dtype}, shape {s.static_shape}) "
                f"must have its type: the update has {u.ndim} dimensions, static shape "
                f"{u.static_shape}")
        pairs.append((s, u))
    updates = pairs
    seen_updates = set()
    for s, _ in updates:
        if s.id in seen_updates:
            raise ValueError(f"shared variable {s!r} is updated twice")
        seen_updates.add(s.id)
    if isinstance(givens, dict):
        givens = list(givens.items())
    givens = {a: (b if isinstance(b, Variable) else as_tensor_variable(b)) for a, b in (givens or [])}
    for a in givens:
        if any(a is i.variable for i in ins):
            raise RuntimeError(
                f"givens replaces {a!r}, an input of the function: replacing an "
                "input is forbidden (give the function the replacement's inputs)")
    stop = {i.variable.id for i in ins}
    replace = None
    if givens and reads_a_replaced_variable(givens):
        # givens={a: a + 10}: the graph rebuilt with the replacements in
        # (_givens.py), compiled without givens.
        replace = Replacer(givens)
        outs = [Out(replace(o.variable), o.borrow) for o in outs]
        updates = [(s, replace(u)) for s, u in updates]
        for k, i in enumerate(ins):
            if i.update is not None:
                ins[k] = _copy.copy(i)
                ins[k].update = replace(i.update)
        givens = {}

    # Default updates of the shared variables the graph reads.
    updated = {s.id for s, _ in updates}
    if no_default_updates is not True:
        skip = set() if not no_default_updates else {v.id for v in no_default_updates}
        # Until no new one: a default update may read variables with
        # default updates of their own (x - y, with y's default update z).
        grown = True
        while grown:
            grown = False
            for v in _topological([o.variable for o in outs] + [u for _, u in updates],
                                  givens, stop):
                if isinstance(v, SharedVariable) and v.default_update is not None \
                        and v.id not in updated and v.id not in skip:
                    updates.append((v, v.default_update if replace is None
                                    else replace(v.default_update)))
                    updated.add(v.id)
                    grown = True

    # Unused inputs.
    reached = {v.id for v in _topological([o.variable for o in outs] + [u for _, u in updates]
                                          + [i.update for i in ins if i.update is not None],
                                          givens, stop)}
    for k, i in enumerate(ins):
        if i.variable.id not in reached:
            msg = (f"input {k} ({i.variable!r}) of the function is not used by any "
                   f"output or update; pass on_unused_input='warn' or 'ignore' to allow it")
            if on_unused_input in ("raise", None):
                raise UnusedInputError(msg)
            if on_unused_input == "warn":
                warnings.warn(msg, stacklevel=2)
    if name is None:
        # PyTensor's default name: where the function was made.
        loc = source_location()
        name = f"{loc[0]}:{loc[1]}"
    check = _debug_mode(mode)
    return Function(ins, outs, out_kind, out_keys, updates, givens, name, trust_input,
                    data_parallel=data_parallel, check_replicas=check)


def _debug_mode(mode):
    """Whether `mode` is PyTensor's DebugMode (a name or a Mode object)."""
    if isinstance(mode, str):
        return mode in ("DebugMode", "DEBUG_MODE")
    return type(mode).__name__ == "DebugMode"


def function_dump(filename, inputs, outputs=None, mode=None, updates=None,
                  givens=None, no_default_updates=False, accept_inplace=False,
                  name=None, rebuild_strict=True, allow_input_downcast=None,
                  profile=None, on_unused_input=None, extra_tag_to_remove=None,
                  trust_input=False, data_parallel=False):
    """PyTensor's function_dump: pickles the arguments of a `function`
    call to `filename`, so that `function(**pickle.load(f))` makes it again
    (in another process too)."""
    args = dict(inputs=inputs, outputs=outputs, mode=mode, updates=updates,
                givens=givens, no_default_updates=no_default_updates,
                accept_inplace=accept_inplace, name=name,
                rebuild_strict=rebuild_strict,
                allow_input_downcast=allow_input_downcast, profile=profile,
                on_unused_input=on_unused_input, trust_input=trust_input)
    if data_parallel:
        args["data_parallel"] = True
    with open(filename, "wb") as f:
        pickle.dump(args, f, pickle.HIGHEST_PROTOCOL)
