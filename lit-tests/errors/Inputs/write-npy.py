"""Writes an f32 .npy file of the given shape holding 0, 1, 2, ...

Usage: write-npy.py PATH DIM [DIM ...]. Plain Python (no numpy), so that the
tests of run-time shape checks run everywhere.
"""
import struct
import sys

path, dims = sys.argv[1], [int(d) for d in sys.argv[2:]]
count = 1
for d in dims:
    count *= d
shape = "(" + "".join(f"{d}, " for d in dims).rstrip(" ") + ")"
if len(dims) > 1:
    shape = shape.rstrip(",)") + ")"
header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
    f.write(header.encode("latin1"))
    f.write(struct.pack(f"<{count}f", *range(count)))
