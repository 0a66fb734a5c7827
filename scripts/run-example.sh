#!/usr/bin/env bash
# The main job: set up, build, then compile examples/mlp.tg for this CPU and
# run its `predict` function on a random batch of 4 images.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCC_BUILD_DIR:-$root/build}"
out="$build/example"

"$root/scripts/build.sh"
mkdir -p "$out"
# A random input batch (numpy comes with the set-up; tcc itself needs none).
/usr/bin/python3 -c "
import numpy as np
np.save('$out/x.npy', np.random.default_rng(0).random((4, 784), dtype=np.float32))"
"$build/bin/tcc" run "$root/examples/mlp.tg" --function=predict \
  --input=x="$out/x.npy" --output-dir="$out" --stats
/usr/bin/python3 -c "
import numpy as np
p = np.load('$out/probs.npy')
print('class probabilities (rows sum to 1):')
print(np.array2string(p, precision=3, suppress_small=True))
print('predicted classes:', p.argmax(axis=1))"
