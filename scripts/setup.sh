#!/usr/bin/env bash
# Installs the Debian packages tcc builds and tests with. Idempotent: does
# nothing when every package is already installed.
set -euo pipefail

packages=(
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  libfmt-dev catch2 ninja-build cmake ccache g++ zlib1g-dev libopenblas-dev
  python3 python3-numpy python3-sklearn graphviz libeigen3-dev
  libopenmpi-dev openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
