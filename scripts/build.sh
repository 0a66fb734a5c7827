#!/usr/bin/env bash
# Sets up (scripts/setup.sh), configures once, and builds tcc into build/.
# A second run only rebuilds what changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCC_BUILD_DIR:-$root/build}"
# ccache keys on paths relative to the clone, so that a fresh clone elsewhere
# (CI's) reuses what another clone on this machine compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"

"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" -j "${TCC_JOBS:-$(nproc)}"
