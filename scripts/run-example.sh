#!/usr/bin/env bash
# The main job: set up, build, and compile the MLP example, printing its
# verified tc IR.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCC_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh"
"$build/bin/tcc" compile "$root/examples/mlp.tg" --emit=tc
