"""The storage of a compiled function's inputs: PyTensor's containers.

Every input of a `tcc.Function` has a Container. One made from
`In(x, value=v)` holds the default `v`; one of `In(x, value=v, update=e)`
holds state, replaced by `e` after every call. `In(y, value=f.container[x])`
gives another function the same Container, so that both read (and, with
updates, write) one state. Containers pickle and deep-copy with the
functions, keeping that sharing among objects copied together.
"""


class Container:
    """One input's storage: `storage` is a one-element list (PyTensor's
    layout), `value` its element (None: no value yet)."""

    def __init__(self, value=None):
        self.storage = [value]

    @property
    def value(self):
        return self.storage[0]

    @value.setter
    def value(self, v):
        self.storage[0] = v

    def __repr__(self):
        return f"<Container {self.storage[0]!r}>"


class InputFinder:
    """A function's inputs by variable, by name or by position, as
    PyTensor's `f.container` (`values=False`) and `f.value` (`values=True`)
    find them: `f.container[x]` is x's Container, `f.value[x]` its value."""

    def __init__(self, function, values):
        self._function = function
        self._values = values

    def _index(self, key):
        return self._function._input_index(key)

    def __contains__(self, key):
        try:
            self._function._input_index(key)
        except (KeyError, TypeError):
            return False
        return True

    def __getitem__(self, key):
        c = self._function._input_containers[self._index(key)]
        return c.value if self._values else c

    def __setitem__(self, key, value):
        if not self._values:
            raise TypeError("f.container[x] cannot be replaced; set f[x] or "
                            "f.value[x] to change the value it holds")
        self._function._input_containers[self._index(key)].value = value
