#!/usr/bin/env bash
# Parallel HDF5 collective I/O (c_tests/drop_in/hdf5/collective_io.c) over every MPI runtime
# of MPICH's ABI in DROP_IN_MPIS, plainly and with libmpi_dtype.so preloaded. The program is
# built once against Debian's HDF5 built on MPICH (libhdf5-mpich-dev, linked with
# libmpich.so.12); scripts/with-mpi.sh points libmpich.so.12 at each runtime, so the same
# HDF5 runs on MPICH 4.0.2, MPICH 5.0.2 and Intel MPI. HDF5 builds derived MPI datatypes for
# its selections (strided and irregular hyperslabs, points, a compound type) and hands them
# to MPI-IO as memory types and file views; the program checks every byte, and that the I/O
# was collective. A run passes if it exits 0 and prints "collective_io: all N checks passed"
# (and, preloaded, mpi-dtype's MPI_DTYPE_DEBUG=1 line "mpi-dtype: forwarding to ...").
#
# usage: scripts/test-drop-in-hdf5.sh [LIBDIR]
#   LIBDIR          directory of libmpi_dtype.so (default: build/prefix/lib)
#   DROP_IN_ABI     mpich (default) or ompi (libmpi_dtype_ompi.so, Debian's HDF5 for Open MPI;
#                   runtimes ompi4 ompi5, none of which a plain failure fails)
#   MPI_DTYPE_LIB   full path of the library; overrides LIBDIR
#   DROP_IN_MPIS    runtimes, default "mpich4 mpich5 impi" (installed first with
#                   scripts/install-mpis.sh, which does nothing for those already there)
#   DROP_IN_PLAIN_MUST_PASS  runtimes where a plain failure fails the script (default mpich4)
#   DROP_IN_HDF5_BUILD_DIR   where the program and logs go (default: build/drop-in-hdf5)
#   DROP_IN_TIMEOUT seconds allowed for each run (default 120)
#
# With DROP_IN_ABI=ompi the program is built against Debian's HDF5 built on Open MPI
# (libhdf5-openmpi-dev, with mpicc.openmpi: linked with libmpi.so.40) and runs over Open MPI
# 4.1.4 and 5.0.11 (scripts/with-mpi.sh ompi4, ompi5: the same binary, 5.0's libmpi.so.40
# found first), with libmpi_dtype_ompi.so preloaded (mpiexec -x).
#
# The rule, as in scripts/test-drop-in-programs.sh: the run under the preload must pass on
# every runtime where the plain run passes; a plain failure elsewhere is reported (NOTE), not
# counted. One line per (runtime, mode); exits nonzero if the build or a counted run failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/scratch.bash
. "$root/scripts/scratch.bash"
# shellcheck source=scripts/mpi-runtimes.bash
. "$root/scripts/mpi-runtimes.bash"
src="$root/c_tests/drop_in/hdf5/collective_io.c"
build="${DROP_IN_HDF5_BUILD_DIR:-$root/build/drop-in-hdf5}"
libdir="${1:-$root/build/prefix/lib}"
abi="${DROP_IN_ABI:-mpich}"
drop_in_abi test-drop-in-hdf5 "$abi" mpich ompi
lib="${MPI_DTYPE_LIB:-$libdir/$lib_name}"
mpis="${DROP_IN_MPIS:-$default_mpis}"
must_pass="${DROP_IN_PLAIN_MUST_PASS:-$default_must}"
run_timeout="${DROP_IN_TIMEOUT:-120}"
case "$run_timeout" in '' | *[!0-9]*)
    echo "test-drop-in-hdf5: DROP_IN_TIMEOUT must be a number of seconds" >&2
    exit 2
    ;;
esac
# HDF5 built on the MPI of the ABI, and that MPI's compiler
mpi=mpich
[ "$abi" = ompi ] && mpi=openmpi
h5inc=/usr/include/hdf5/$mpi
h5lib=/usr/lib/x86_64-linux-gnu/hdf5/$mpi
if ! command -v "mpicc.$mpi" >/dev/null 2>&1 || [ ! -f "$h5inc/hdf5.h" ]; then
    echo "test-drop-in-hdf5: needs $mpi and HDF5 built on it (libhdf5-$mpi-dev: scripts/install-deps.sh)" >&2
    exit 2
fi
# shellcheck disable=SC2086
"$root/scripts/install-mpis.sh" $mpis

mkdir -p "$build/logs"
build=$(cd "$build" && pwd)
case "$lib" in /*) ;; *) lib="$(pwd)/$lib" ;; esac
start_all=$(date +%s.%N)
name=collective_io
exe="$build/$name"

line() { # STATUS RUNTIME MODE TEXT
    printf '%-5s %-13s %-7s %-8s %s\n' "$1" "$name" "$2" "$3" "$4"
}
first_error() {
    local log=$1 l
    l=$(grep -m1 -E 'check failed|failed|Assertion|Fatal|Abort|signal|error|HDF5-DIAG' "$log" || true)
    [ -n "$l" ] || l=$(grep -m1 -v '^[[:space:]]*$' "$log" || true)
    printf '%s' "${l:0:300}"
}

if ! "mpicc.$mpi" -std=c99 -Wall -Wextra -Werror -O1 -I"$h5inc" -o "$exe" "$src" -L"$h5lib" -lhdf5 \
    >"$build/logs/$name.build.log" 2>&1; then
    line FAIL all build "build failed: $(first_error "$build/logs/$name.build.log")"
    exit 1
fi

total=0
failures=0
noted=0
for rt in $mpis; do
    plain_ok=""
    for mode in plain preload; do
        total=$((total + 1))
        log="$build/logs/$name.$rt.$mode.log"
        args=(-n 4)
        if [ "$mode" = preload ]; then
            if [ ! -f "$lib" ]; then
                failures=$((failures + 1))
                line FAIL "$rt" "$mode" "library not found: $lib"
                continue
            fi
            # MPI_DTYPE_DEBUG=1: mpi-dtype says on stderr that it forwards to the MPI library
            # shellcheck disable=SC2207 # words without spaces
            args+=($(every_rank "$abi" LD_PRELOAD "$lib") $(every_rank "$abi" MPI_DTYPE_DEBUG 1))
        fi
        scratch="$build/tmp"
        clear_scratch "$scratch"
        mkdir -p "$scratch"
        # shellcheck disable=SC2207 # two words, neither with spaces
        args+=($(every_rank "$abi" TMPDIR "$scratch"))
        t0=$(date +%s.%N)
        rc=0
        # stdout apart from stderr, as in test-drop-in-programs.sh: the result lines cannot
        # land inside a diagnostic line of another rank; the log holds both, stdout first
        (cd "$build" && timeout -k 5 "$run_timeout" "$root/scripts/with-mpi.sh" "$rt" mpiexec "${args[@]}" "$exe") \
            </dev/null >"$log.stdout" 2>"$log.stderr" || rc=$?
        cat "$log.stdout" "$log.stderr" >"$log"
        clear_scratch "$scratch"
        secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        passed=$(grep -m1 -E "^$name: all [0-9]+ checks passed\$" "$log.stdout" || true)
        types=$(grep -m1 -oE 'committed on rank 0: [0-9]+' "$log.stdout" | grep -oE '[0-9]+$' || true)
        rm -f "$log.stdout" "$log.stderr"
        forwarded=1
        if [ "$mode" = preload ] && ! grep -q '^mpi-dtype: forwarding to ' "$log"; then
            forwarded=0 # the preload did not reach the processes, or found no MPI
        fi
        if [ "$rc" -eq 0 ] && [ -n "$passed" ] && [ "$forwarded" -eq 1 ]; then
            [ "$mode" = plain ] && plain_ok=1
            line PASS "$rt" "$mode" "${passed#"$name: "}, ${types:-?} derived types committed by HDF5 on rank 0 (${secs}s)"
            continue
        fi
        [ "$mode" = plain ] && plain_ok=0
        if [ "$rc" -eq 0 ] && [ -n "$passed" ]; then
            what="${passed#"$name: "} (${secs}s), but no \"mpi-dtype: forwarding to\" line"
        elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            what="timed out after ${run_timeout}s (${secs}s)"
        else
            what="exit $rc (${secs}s): $(first_error "$log")"
        fi
        if { [ "$mode" = plain ] && [[ " $must_pass " != *" $rt "* ]]; } ||
            { [ "$mode" = preload ] && [ "$plain_ok" = 0 ]; }; then
            noted=$((noted + 1))
            if [ "$mode" = plain ]; then
                line NOTE "$rt" "$mode" "fails without mpi-dtype, not counted: $what"
            else
                line NOTE "$rt" "$mode" "fails, not counted (fails plainly too): $what"
            fi
        else
            failures=$((failures + 1))
            line FAIL "$rt" "$mode" "$what"
        fi
    done
done

elapsed=$(awk -v a="$start_all" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
counted=$((total - noted))
extra=""
[ "$noted" -eq 0 ] || extra=", $noted failing where HDF5 fails without mpi-dtype too (not counted)"
echo "test-drop-in-hdf5: $((counted - failures)) of $counted counted runs passed$extra, over $mpis, in ${elapsed}s (logs in $build/logs)"
[ "$failures" -eq 0 ]
