#!/usr/bin/env bash
# Sets up, builds, and runs every test (Catch2 unit tests and the lit suite)
# through ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCC_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j "${TCC_JOBS:-$(nproc)}"
