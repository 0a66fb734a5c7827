"""Converts scikit-learn's handwritten-digits data set into digits.npz, once.

The data ships with Debian's python3-sklearn (1797 8x8 images, pixel values
0..16). The C++ host (train_digits.cpp) reads only the .npz: it needs no
Python. Usage: make_digits.py OUT.npz
"""
import sys

import numpy as np
from sklearn.datasets import load_digits


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: make_digits.py OUT.npz")
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)  # [1797, 64] in [0, 1]
    y = digits.target.astype(np.int32)  # [1797], 0..9
    # A fixed shuffle, then the last 360 images (20%) are the test set.
    order = np.random.default_rng(0).permutation(len(x))
    x, y = x[order], y[order]
    n_test = 360
    np.savez(sys.argv[1], x_train=x[:-n_test], y_train=y[:-n_test],
             x_test=x[-n_test:], y_test=y[-n_test:])
    print(f"{sys.argv[1]}: {len(x) - n_test} training and {n_test} test images")


if __name__ == "__main__":
    main()
