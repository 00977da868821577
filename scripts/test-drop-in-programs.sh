#!/usr/bin/env bash
# Real 4-rank MPI programs (c_tests/drop_in/programs/*.c) with derived datatypes in MPICH's
# own functions: point-to-point, collectives, one-sided, MPI-IO, attributes, threads, MPI-4.0
# interfaces, bounds where MPICH and the standard differ.  Each program is
# built with mpicc.mpich and run with `mpiexec.mpich -n 4` twice: over plain MPICH, and with
# libmpi_dtype.so preloaded.  Both runs must exit 0 and print "<program>: all N checks passed".
#
# usage: scripts/test-drop-in-programs.sh [LIBDIR]
#   LIBDIR            directory of libmpi_dtype.so (default: build/prefix/lib)
#   MPI_DTYPE_LIB     full path of the library; overrides LIBDIR
#   DROP_IN_BUILD_DIR where the programs and logs go (default: build/drop-in-programs)
#   DROP_IN_MODES     modes to run, default "plain preload"
#   DROP_IN_TIMEOUT   seconds allowed for each run (default 120)
#   DROP_IN_LEAKS     "note" (default): a run in which MPICH reports leaked handles at
#                     MPI_Finalize ("yaksa: N leaked handle pool objects") still passes, with
#                     the report on its line; "fail": such a run fails
#
# Prints one line per (program, mode) and exits nonzero if any build or run failed, after
# running everything.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src="$root/c_tests/drop_in/programs"
build="${DROP_IN_BUILD_DIR:-$root/build/drop-in-programs}"
libdir="${1:-$root/build/prefix/lib}"
lib="${MPI_DTYPE_LIB:-$libdir/libmpi_dtype.so}"
modes="${DROP_IN_MODES:-plain preload}"
leaks_policy="${DROP_IN_LEAKS:-note}"
case "$leaks_policy" in note | fail) ;; *)
    echo "test-drop-in-programs: DROP_IN_LEAKS must be note or fail" >&2
    exit 2
    ;;
esac
run_timeout="${DROP_IN_TIMEOUT:-120}"
case "$run_timeout" in '' | *[!0-9]*)
    echo "test-drop-in-programs: DROP_IN_TIMEOUT must be a number of seconds" >&2
    exit 2
    ;;
esac

for tool in mpicc.mpich mpiexec.mpich timeout; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "test-drop-in-programs: $tool not found (install MPICH: apt-get install mpich)" >&2
        exit 2
    fi
done

mkdir -p "$build/logs"
build=$(cd "$build" && pwd)
case "$lib" in /*) ;; *) lib="$(pwd)/$lib" ;; esac

shopt -s nullglob
sources=("$src"/*.c)
shopt -u nullglob
if [ "${#sources[@]}" -eq 0 ]; then
    echo "test-drop-in-programs: no programs in $src" >&2
    exit 2
fi

failures=0
total=0
leaky=0
start_all=$(date +%s.%N)

# first line of a log worth showing for a failure
first_error() {
    local log=$1 line
    line=$(grep -m1 -E 'check failed|returned [0-9-]+ \(class|FAILED|Abort|signal|error' "$log" || true)
    if [ -z "$line" ]; then
        line=$(grep -m1 -v '^[[:space:]]*$' "$log" || true)
    fi
    printf '%s' "${line:0:300}"
}

for c in "${sources[@]}"; do
    name=$(basename "$c" .c)
    exe="$build/$name"
    blog="$build/logs/$name.build.log"
    if ! mpicc.mpich -Wall -Wextra -Werror -O1 -pthread -I"$src" -o "$exe" "$c" >"$blog" 2>&1; then
        for mode in $modes; do
            total=$((total + 1))
            failures=$((failures + 1))
            printf 'FAIL  %-12s %-8s build failed: %s\n' "$name" "$mode" "$(first_error "$blog")"
        done
        continue
    fi
    for mode in $modes; do
        total=$((total + 1))
        log="$build/logs/$name.$mode.log"
        args=(-n 4)
        if [ "$mode" = preload ]; then
            if [ ! -f "$lib" ]; then
                failures=$((failures + 1))
                printf 'FAIL  %-12s %-8s library not found: %s\n' "$name" "$mode" "$lib"
                continue
            fi
            args+=(-genv LD_PRELOAD "$lib")
        elif [ "$mode" != plain ]; then
            echo "test-drop-in-programs: unknown mode $mode" >&2
            exit 2
        fi
        t0=$(date +%s.%N)
        rc=0
        # files a program makes (mpiio) go under a scratch directory, emptied after each run,
        # so that a run that aborts leaves nothing behind
        scratch="$build/tmp"
        rm -rf "$scratch"
        mkdir -p "$scratch"
        args+=(-genv TMPDIR "$scratch")
        (cd "$build" && timeout -k 5 "$run_timeout" mpiexec.mpich "${args[@]}" "$exe") \
            </dev/null >"$log" 2>&1 || rc=$?
        rm -rf "$scratch"
        t1=$(date +%s.%N)
        secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
        passed=$(grep -m1 -E "^$name: all [0-9]+ checks passed\$" "$log" || true)
        leak=$(grep -m1 -oE '[0-9]+ leaked handle pool objects' "$log" || true)
        note=""
        if [ -n "$leak" ]; then
            leaky=$((leaky + 1))
            note=" [MPICH at MPI_Finalize: $leak]"
        fi
        if [ "$rc" -eq 0 ] && [ -n "$passed" ] && { [ -z "$leak" ] || [ "$leaks_policy" = note ]; }; then
            printf 'PASS  %-12s %-8s %s (%ss)%s\n' "$name" "$mode" "${passed#"$name: "}" "$secs" "$note"
        elif [ "$rc" -eq 0 ] && [ -n "$passed" ]; then
            failures=$((failures + 1))
            printf 'FAIL  %-12s %-8s %s (%ss), but%s\n' "$name" "$mode" "${passed#"$name: "}" "$secs" "$note"
        else
            failures=$((failures + 1))
            if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
                why="timed out after ${run_timeout}s"
            else
                why="exit $rc"
            fi
            printf 'FAIL  %-12s %-8s %s (%ss): %s\n' "$name" "$mode" "$why" "$secs" \
                "$(first_error "$log")"
        fi
    done
done

end_all=$(date +%s.%N)
elapsed=$(awk -v a="$start_all" -v b="$end_all" 'BEGIN { printf "%.1f", b - a }')
leak_note=""
if [ "$leaky" -gt 0 ]; then
    leak_note=", $leaky with leaked MPICH handles at MPI_Finalize"
fi
echo "test-drop-in-programs: $((total - failures)) of $total runs passed$leak_note in ${elapsed}s (logs in $build/logs)"
[ "$failures" -eq 0 ]
