#!/usr/bin/env bash
# Random datatypes in drop-in mode: the conformance harness (conformance/harness.c, with
# HARNESS_DROP_IN=1: every constructor, pair and f90 types, children from
# MPI_Type_get_contents and MPI_Type_dup reused in new constructors, up to 4 levels) built
# against mpi-dtype alone and built with mpicc.mpich, run with libmpi_dtype.so preloaded over
# Debian's MPICH 4.0.2 and, where scripts/with-mpi.sh provides them (scripts/install-mpis.sh
# installs them), over MPICH 5.0.2 and Intel MPI 2021.19; a runtime that is not installed is
# skipped with a message. Every seed must print the same lines standalone and preloaded
# (conformance/drop_in.py compares them, seed by seed, each run under `timeout`).
#
# With DROP_IN_RANDOM_ABI=standard the same comparison runs for the MPI-5.0 standard ABI: the
# standalone harness is built against include/mpi_dtype_abi/ and libmpi_dtype_abi.so, the
# preloaded one with MPICH 5.0.2's mpicc_abi (linked with libmpi_abi.so.1).
#
# With DROP_IN_RANDOM_ABI=ompi it runs for Open MPI's ABI: the standalone harness is built
# against include/mpi_dtype_ompi/ and libmpi_dtype_ompi.so, and for each of Open MPI 4.1 and
# 5.0 (runtimes ompi4 and ompi5) a preloaded harness is built with that Open MPI's mpicc and
# compared on its own.
#
# usage: scripts/test-drop-in-random.sh [LIB]
#   LIB                        the library to test (default build/prefix/lib/libmpi_dtype.so,
#                              or libmpi_dtype_abi.so for the standard ABI); the standalone
#                              harness runs on the same file
#   DROP_IN_RANDOM_ABI         mpich (default), standard or ompi
#   DROP_IN_RANDOM_SEEDS       seeds to run (default 10000)
#   DROP_IN_RANDOM_FIRST       first seed (default 0)
#   DROP_IN_RANDOM_JOBS        parallel processes per MPI (default: the number of cores)
#   DROP_IN_RANDOM_STALL       seconds without output after which a seed counts as hung (10)
#   DROP_IN_RANDOM_SHOW        differing seeds shown in full (default 5)
#   DROP_IN_RANDOM_RUNTIMES    runtimes of scripts/with-mpi.sh to run over (default mpich5,impi;
#                              ompi4,ompi5 for Open MPI's ABI)
#   DROP_IN_RANDOM_BUILD_DIR   where the harnesses are built and each run's output is kept
#                              (out/standalone.txt, out/mpich4.txt, ...; default
#                              build/drop-in-random)
#   MPI_DTYPE_PREFIX           install prefix whose include/mpi_dtype/mpi.h the standalone
#                              harness is built with (default build/prefix)
#
# Prints "N seeds, D differ, H hung, C crashed" for each MPI, the differing seeds grouped by
# the lines that differ, the first few with both outputs and the commands that reproduce them;
# exits nonzero on any difference, hang or crash. Extra arguments after LIB go to
# conformance/drop_in.py (e.g. --minimize 'RECIPE' to reduce a differing recipe).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix="${MPI_DTYPE_PREFIX:-$root/build/prefix}"
abi="${DROP_IN_RANDOM_ABI:-mpich}"
case "$abi" in
    mpich) name=mpi_dtype suffix="" ;;
    standard) name=mpi_dtype_abi suffix=-abi ;;
    ompi) name=mpi_dtype_ompi suffix=-ompi ;;
    *)
        echo "test-drop-in-random: DROP_IN_RANDOM_ABI must be mpich, standard or ompi" >&2
        exit 2
        ;;
esac
lib="${1:-$prefix/lib/lib$name.so}"
[ $# -gt 0 ] && shift
build="${DROP_IN_RANDOM_BUILD_DIR:-$root/build/drop-in-random$suffix}"

for tool in gcc timeout python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "test-drop-in-random: $tool not found (scripts/install-deps.sh installs it)" >&2
        exit 2
    fi
done
if [ ! -f "$lib" ]; then
    echo "test-drop-in-random: no library at $lib (build and install it first)" >&2
    exit 2
fi
if [ ! -f "$prefix/include/$name/mpi.h" ]; then
    echo "test-drop-in-random: no $prefix/include/$name/mpi.h (install the library first)" >&2
    exit 2
fi
case "$lib" in /*) ;; *) lib="$(pwd)/$lib" ;; esac

mkdir -p "$build/lib" "$build/out"
# The standalone harness links the library from this directory, which names $lib, so that
# both harnesses run on the very same file.
ln -sf "$lib" "$build/lib/lib$name.so"

src="$root/conformance/harness.c"
flags=(-std=c11 -O2 -Wall -Wextra -Werror -I"$root/c_tests")
gcc "${flags[@]}" -I"$prefix/include/$name" "$src" -L"$build/lib" -l"$name" \
    -o "$build/harness_standalone"
# compare RUNTIMES PRELOADED_HARNESS [ONLY]: drop_in.py over those runtimes
compare() {
    local runtimes=$1 preloaded=$2 only=()
    [ $# -gt 2 ] && only=(--only "$3")
    python3 "$root/conformance/drop_in.py" "${only[@]}" \
        --standalone "$build/harness_standalone" --standalone-lib-dir "$build/lib" \
        --preloaded "$preloaded" --lib "$lib" \
        --with-mpi "$root/scripts/with-mpi.sh" --runtimes "$runtimes" \
        --seeds "${DROP_IN_RANDOM_SEEDS:-10000}" --first "${DROP_IN_RANDOM_FIRST:-0}" \
        --jobs "${DROP_IN_RANDOM_JOBS:-$(nproc)}" --stall "${DROP_IN_RANDOM_STALL:-10}" \
        --show "${DROP_IN_RANDOM_SHOW:-5}" --save "$build/out" "${extra[@]}"
}
extra=("$@")

case "$abi" in
    mpich)
        mpicc.mpich "${flags[@]}" "$src" -o "$build/harness_mpich"
        compare "${DROP_IN_RANDOM_RUNTIMES:-mpich5,impi}" "$build/harness_mpich"
        ;;
    standard)
        # Debian's MPICH 4.0.2 has no library of the standard ABI: only the other runtimes.
        "$root/scripts/with-mpi.sh" mpich5 mpicc_abi "${flags[@]}" "$src" -o "$build/harness_mpich"
        runtimes=${DROP_IN_RANDOM_RUNTIMES:-mpich5,impi}
        compare "$runtimes" "$build/harness_mpich" "$runtimes"
        ;;
    ompi)
        # Each Open MPI gets the harness its own mpicc built (its objects' sizes), calling
        # the large-count functions its mpi.h lacks and mpi-dtype serves.
        status=0
        for rt in $(echo "${DROP_IN_RANDOM_RUNTIMES:-ompi4,ompi5}" | tr , ' '); do
            "$root/scripts/with-mpi.sh" "$rt" mpicc "${flags[@]}" -DHARNESS_LARGE_COUNTS "$src" \
                -o "$build/harness_$rt"
            compare "$rt" "$build/harness_$rt" "$rt" || status=1
        done
        exit $status
        ;;
esac
