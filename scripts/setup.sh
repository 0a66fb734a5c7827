#!/usr/bin/env bash
# Installs the Debian packages tcc builds and tests with, then the project's
# Python virtualenv (.venv/ at the repository root: Debian's Python refuses
# system-wide pip installs) with what the Python front end builds and tests
# with (docs/python.md). Idempotent: does nothing when everything is there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

packages=(
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  libfmt-dev catch2 ninja-build cmake ccache g++ zlib1g-dev libopenblas-dev
  python3 python3-numpy python3-sklearn graphviz libeigen3-dev
  python3-venv python3-dev libopenmpi-dev openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Python front end (python/): nanobind and scikit-build-core build it,
# pytest and numpy test it. Debian's Python 3.11, a version-specific module.
venv="${TCC_VENV:-$root/.venv}"
if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating the virtualenv $venv"
  /usr/bin/python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import nanobind, scikit_build_core, pytest, numpy" 2>/dev/null; then
  echo "setup: installing nanobind, scikit-build-core, pytest and numpy into $venv"
  # Without PyPI (an offline machine) the rest of tcc still builds and
  # tests; only the Python module is left out.
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "nanobind>=2.4,<4" "scikit-build-core>=0.10" "pytest>=7" "numpy>=1.24" ||
    echo "setup: warning: cannot install the Python packages into $venv;" \
      "the Python module (python/) is not built" >&2
fi
