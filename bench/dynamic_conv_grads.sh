#!/usr/bin/env bash
# Times the gradients of a convolution layer and a max pooling on a symbolic
# batch against the same on a static batch of 32, in one run (issue 23,
# item 3; bench/graphs/conv_grads.tg), one thread:
#   bench/dynamic_conv_grads.sh [BUILD_DIR]     (default: build)
# Prints each gradient's median ms per call and symbolic / static.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tcc="${1:-$root/build}/bin/tcc"
python="${TCC_TEST_PYTHON:-/usr/bin/python3}"  # with numpy (python3-numpy)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" -c "import sys, numpy as np; np.save(sys.argv[1], np.random.default_rng(0).random((32, 16, 32, 32), dtype=np.float32))" "$work/x.npy"
ms() {
  TCC_NUM_THREADS=1 "$tcc" run "$root/bench/graphs/conv_grads.tg" \
    --function="$1" --input=x="$work/x.npy" --repeat="${REPEAT:-10}" \
    --output-dir="$work/$1" --no-cache |
    sed -n 's/.*, \([0-9.]*\) ms per call.*/\1/p'
}
printf 'x : f32[32, 16, 32, 32], 3x3 conv to 32 channels, 2x2 max pool\n'
printf '%-8s %12s %12s %8s\n' gradient "symbolic N" "static 32" ratio
for g in input filter both pool; do
  dyn=$(ms "${g}_symbolic")
  static=$(ms "${g}_static")
  printf '%-8s %9.2f ms %9.2f ms %7.2fx\n' "$g" "$dyn" "$static" \
    "$("$python" -c "print($dyn / $static)")"
done
