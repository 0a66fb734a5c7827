"""Theano's pkl_utils: pickles whose arrays numpy reads without tcc.

`dump(obj, file)` writes a zip file: the pickle as the member `pkl`, and
every array in it (the values of shared variables first, named after the
variable) as an `.npy` member, so `np.load(file)` opens the values with
numpy alone. `load(file)` restores the objects.
"""

import io
import pickle
import zipfile

import numpy as np

from .. import _sharedvar


class _Pickler(pickle.Pickler):
    def __init__(self, file, archive, protocol):
        super().__init__(file, protocol=protocol)
        self.archive = archive
        self.names = set()

    def persistent_id(self, obj):
        if type(obj) is not np.ndarray or obj.dtype.hasobject:
            return None
        base = _sharedvar._array_names.get(id(obj)) or "array"
        name, k = base, 0
        while name in self.names:
            k += 1
            name = f"{base}_{k}"
        self.names.add(name)
        with self.archive.open(name + ".npy", "w") as f:
            np.lib.format.write_array(f, np.ascontiguousarray(obj))
        return name


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, archive):
        super().__init__(file)
        self.archive = archive

    def persistent_load(self, pid):
        with self.archive.open(pid + ".npy") as f:
            return np.lib.format.read_array(io.BytesIO(f.read()))


def dump(obj, file_handler, protocol=pickle.HIGHEST_PROTOCOL):
    """Writes `obj` (shared variables, functions, anything picklable) to an
    open binary file as a zip of a pickle and `.npy` arrays."""
    _sharedvar._array_names = {}
    try:
        with zipfile.ZipFile(file_handler, "w", zipfile.ZIP_STORED) as archive:
            buf = io.BytesIO()
            _Pickler(buf, archive, protocol).dump(obj)
            archive.writestr("pkl", buf.getvalue())
    finally:
        _sharedvar._array_names = None


def load(file_handler):
    """Restores what `dump` wrote."""
    with zipfile.ZipFile(file_handler, "r") as archive:
        return _Unpickler(io.BytesIO(archive.read("pkl")), archive).load()
