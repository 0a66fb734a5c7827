#!/usr/bin/env bash
# Times products of rank-3 tensors by matrices against the same products
# written with 2-D reshapes, in one run (issue 23, item 2):
#   bench/rank3_products.sh [BUILD_DIR]     (default: build)
# Prints each function's median ms per call and the ratio to its 2-D form.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tcc="${1:-$root/build}/bin/tcc"
python="${TCC_TEST_PYTHON:-/usr/bin/python3}"  # with numpy (python3-numpy)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" - "$work" <<'PY'
import sys, numpy as np
r = np.random.default_rng(0)
for name in ("x", "t"):
    np.save(f"{sys.argv[1]}/{name}.npy", r.random((8, 64, 768), dtype=np.float32))
PY
ms() {
  "$tcc" run "$root/bench/graphs/gpt2_mlp_step.tg" --function="$1" \
    --input=x="$work/x.npy" --input=t="$work/t.npy" --repeat="${REPEAT:-10}" \
    --output-dir="$work/$1" --no-cache |
    sed -n 's/.*, \([0-9.]*\) ms per call.*/\1/p'
}
two=$(ms step2)
three=$(ms step3)
printf 'GPT-2 MLP training step, x : f32[8, 64, 768]\n'
printf '  hand-reshaped 2-D   %10.2f ms\n' "$two"
printf '  rank-3 as written   %10.2f ms   %.2fx\n' "$three" \
  "$("$python" -c "print($three / $two)")"
