#!/usr/bin/env bash
# The long runs that scripts/test.sh keeps short, for a machine with time to spare (an hour
# or more on 2 cores): run after scripts/test.sh, which installs the tools and runtimes and
# builds and installs the library into build/prefix.
#
# - random derived-type messages between 4 ranks, seeds 1-80 in every mode over MPICH 4.0.2,
#   MPICH 5.0.2 and Intel MPI (scripts/test-drop-in-p2p.sh; test.sh runs seeds 1-10);
# - mpi4py's suite on two processes too, over every runtime (test.sh: one process), and over
#   MPICH 4.0.2 with every derived-type message on mpi-dtype's engine;
# - each fuzzer for 300 s (test.sh: 10 s);
# - the communication benchmark, the benchmark's own patterns and the applications', three
#   interleaved rounds (test.sh: one round), its table printed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
lib="$root/build/prefix/lib"
[ -e "$lib/libmpi_dtype.so" ] || { echo "test-long: run scripts/test.sh first ($lib/libmpi_dtype.so is missing)" >&2; exit 2; }

step() { printf '\n== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

step "drop-in, derived-type messages: random types, seeds 1-80, every mode, three runtimes"
P2P_SEEDS=80 P2P_BUILD_DIR="$root/build/drop-in-p2p-long" \
    ./scripts/test-drop-in-p2p.sh "$lib"

step "mpi4py's suite on one and two processes over every runtime, plainly and preloaded"
MPI4PY_NP2_MPIS="mpich4 mpich5 impi ompi4-debian ompi5" MPI4PY_BUILD="$root/build/mpi4py-long" \
    ./scripts/test-mpi4py.sh "$lib/libmpi_dtype.so"

step "mpi4py's suite over MPICH 4.0.2 with every derived-type message on mpi-dtype's engine"
MPI_DTYPE_COMM=engine MPI4PY_MPIS=mpich4 MPI4PY_BUILD="$root/build/mpi4py-engine" \
    ./scripts/test-mpi4py.sh "$lib/libmpi_dtype.so"

step "fuzzers, 300 s each"
MPI_DTYPE_FUZZ_SECONDS=300 MPI_DTYPE_PREFIX="$root/build/prefix" ./scripts/test-fuzz.sh

step "communication benchmark, all patterns, three rounds"
python3 benches/comm.py --set all --rounds 3 --lib "$lib/libmpi_dtype.so"

step "all long runs passed"
