"""Writes an uncompressed .npz with one 1-d array of the given dtype.

Usage: write-npz.py PATH NAME DESCR VALUE [VALUE ...], DESCR one of <f4 <f8
<i4 <i8 |b1. Plain Python (no numpy), so that the tests run everywhere.
"""
import struct
import sys
import zipfile

path, name, descr, values = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
fmt = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "?"}[descr]
conv = float if fmt in "fd" else int
header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (
    descr, len(values))
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
data = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header))
data += header.encode("latin1")
data += struct.pack("<%d%s" % (len(values), fmt), *[conv(v) for v in values])
with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
    z.writestr(name + ".npy", data)
