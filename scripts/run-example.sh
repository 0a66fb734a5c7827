#!/usr/bin/env bash
# The main job: set up, build, then train an MLP classifier on the
# handwritten-digits data set (examples/train) and print its accuracy.
# The C++ host compiles examples/train/digits.tg in process; its parameters
# are shared variables that each training step updates in place.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCC_BUILD_DIR:-$root/build}"
out="$build/example"

"$root/scripts/build.sh"
mkdir -p "$out"
# The data ships with Debian's python3-sklearn; converted once to .npz (the
# host itself needs no Python).
[ -f "$out/digits.npz" ] ||
  /usr/bin/python3 "$root/examples/train/make_digits.py" "$out/digits.npz"
"$build/bin/train_digits" "$root/examples/train/digits.tg" "$out/digits.npz" \
  --epochs=20 --min-accuracy=95
