"""Writes a text's characters as ids for gru_lm.tg.

    make_chars.py TEXT OUT.npz [T]

OUT.npz holds x and y (int32, [windows, T]): windows of T characters (32 by
default) starting every T/2 characters, y the same shifted by one. The 32
ids are ALPHABET's characters; any other character (after lower-casing)
becomes a space.
"""
import sys

import numpy as np

ALPHABET = "\n .,:'" + "abcdefghijklmnopqrstuvwxyz"


def main():
    text, out = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    index = {c: i for i, c in enumerate(ALPHABET)}
    assert len(index) == 32
    ids = np.array([index.get(c, 1) for c in open(text).read().lower()],
                   np.int32)
    starts = range(0, len(ids) - steps - 1, steps // 2)
    x = np.stack([ids[s:s + steps] for s in starts])
    y = np.stack([ids[s + 1:s + steps + 1] for s in starts])
    np.savez(out, x=x, y=y)
    print("%d characters, %d windows of %d" % (len(ids), len(x), steps))


if __name__ == "__main__":
    main()
