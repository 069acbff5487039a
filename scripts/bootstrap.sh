#!/usr/bin/env bash
# Installs the Debian 12 packages annotate needs to build and test.
# A fast no-op when everything is already present; run as root (CI is root).
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ gcc clang
  clang-19 libclang-19-dev llvm-19-dev
  nlohmann-json3-dev libgtest-dev libbenchmark-dev libsimdjson-dev libcli11-dev
  libsqlite3-dev
  mpich libhdf5-mpich-dev zlib1g-dev libzstd-dev libdeflate-dev
  libtsan2 valgrind strace
  chromium libclang-rt-19-dev
  pybind11-dev python3-dev python3-numpy python3-pandas python3-h5py python3-pytest python3-nbconvert python3-ipykernel python3-matplotlib
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "bootstrap: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
