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
  libopenmpi-dev openmpi-bin libhdf5-openmpi-dev
  libtsan2 valgrind strace
  chromium libclang-rt-19-dev
  pybind11-dev python3-dev python3-numpy python3-pandas python3-h5py python3-pytest python3-nbconvert python3-ipykernel python3-matplotlib
  python3-mpi4py python3-h5py-mpi
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

# MPICH stays the default MPI beside Open MPI (whose copy of the runtime's
# MPI-IO layer and `ctest -L openmpi` need libopenmpi-dev and
# libhdf5-openmpi-dev): Debian's alternatives would make Open MPI's mpicc,
# mpirun and h5pcc the default (higher priority), which changes the MPI the
# build finds (README, "OpenMPI beside MPICH"). Pinned whenever they point
# elsewhere; hdf5.pc stays MPICH's hdf5-mpi.pc.
pin() { # pin NAME PATH, when PATH is one of NAME's alternatives
  update-alternatives --list "$1" 2>/dev/null | grep -qxF "$2" || return 0
  [ "$(update-alternatives --query "$1" 2>/dev/null | sed -n 's/^Value: //p')" = "$2" ] ||
    $SUDO update-alternatives --quiet --set "$1" "$2" >&2
}
pin_mpich() {
  pin mpi /usr/bin/mpicc.mpich
  pin mpirun /usr/bin/mpirun.mpich
  pin h5pcc /usr/bin/h5pcc.mpich
  pin hdf5.pc "/usr/lib/$(gcc -print-multiarch)/pkgconfig/hdf5-mpi.pc"
}

if [ ${#missing[@]} -eq 0 ]; then
  pin_mpich
  exit 0
fi

echo "bootstrap: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
pin_mpich
