#!/usr/bin/env bash
# Installs what the test suite needs beyond the Rust toolchain, gcc, make and python3:
# cmake, pkg-config, valgrind, and the two MPIs the tests compare against (MPICH: mpich and
# libmpich-dev; Open MPI: openmpi-bin and libopenmpi-dev, with their compiler wrappers
# mpicc.mpich and mpicc.openmpi, and gfortran for their Fortran wrappers), HDF5 (serial, built on MPICH and built on Open MPI, for the
# h5s_mpio port's tests and parallel HDF5 under the preload), Debian's mpi4py (built for Open
# MPI: python3-mpi4py, whose suite runs under the preload) and Chromium (headless, to render
# the explanations: scripts/test-explain-render.sh)
# from Debian's packages, and rustfmt/clippy; then the other MPI runtimes of MPICH's
# ABI the drop-in tests run over, MPICH 5.0.2 and Intel MPI 2021.19 from PyPI, outside the
# clone (scripts/install-mpis.sh). Does nothing for what is already there. Needs root (or
# sudo) for apt-get.
set -euo pipefail

packages=()
command -v cmake >/dev/null 2>&1 || packages+=(cmake)
command -v pkg-config >/dev/null 2>&1 || packages+=(pkg-config)
command -v valgrind >/dev/null 2>&1 || packages+=(valgrind)
[ -f /usr/include/x86_64-linux-gnu/mpich/mpi.h ] || packages+=(libmpich-dev)
command -v mpicc.mpich >/dev/null 2>&1 || packages+=(mpich libmpich-dev)
command -v mpicc.openmpi >/dev/null 2>&1 || packages+=(openmpi-bin libopenmpi-dev)
# the Fortran compiler of both MPIs' Fortran wrappers (mpif90.mpich, mpifort.openmpi)
command -v gfortran >/dev/null 2>&1 || packages+=(gfortran)
command -v chromium >/dev/null 2>&1 || packages+=(chromium)
[ -f /usr/include/hdf5/mpich/hdf5.h ] || packages+=(libhdf5-mpich-dev)
[ -f /usr/include/hdf5/serial/hdf5.h ] || packages+=(libhdf5-dev)
[ -f /usr/include/hdf5/openmpi/hdf5.h ] || packages+=(libhdf5-openmpi-dev)
/usr/bin/python3 -c 'import mpi4py, numpy' 2>/dev/null || packages+=(python3-mpi4py python3-numpy)

if [ ${#packages[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${packages[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${packages[@]}" >/dev/null
fi

cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy

"$(dirname "$0")/install-mpis.sh"
