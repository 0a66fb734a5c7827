#!/usr/bin/env bash
# Sets up (scripts/setup.sh), configures once, and builds tcc into build/.
# A second run only rebuilds what changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCC_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" -j "${TCC_JOBS:-$(nproc)}"
