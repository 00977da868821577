#!/usr/bin/env bash
# Real 4-rank MPI programs (c_tests/drop_in/programs/*.c, and *.f90 through MPI's Fortran
# bindings) with derived datatypes in the MPI
# library's own functions: point-to-point, collectives, one-sided, MPI-IO, attributes,
# threads, MPI-4.0 interfaces, bounds where MPICH and the standard differ.  Each program is
# built once with Debian's mpicc.mpich and run with `mpiexec -n 4` over every MPI runtime of
# MPICH's ABI in DROP_IN_MPIS (scripts/with-mpi.sh: Debian's MPICH 4.0.2, MPICH 5.0.2, Intel
# MPI 2021.19; the same binary, its libmpich.so.12 pointed at the runtime), twice: plainly,
# and with libmpi_dtype.so preloaded.  A run passes if it exits 0 and prints
# "<program>: all N checks passed".
#
# The rule: a program must pass under the preload on every runtime on which it passes
# plainly.  A plain failure is reported (a NOTE line) and does not fail the script, except on
# the runtimes in DROP_IN_PLAIN_MUST_PASS (default mpich4: the programs are written to pass
# there and avoid MPICH 4.0.2's own bugs); the preload run of such a pair is then reported
# too, and counts only if it passes.
#
# A program may name runtimes that fail it plainly by their own fault (a hang, a crash), in a
# line of its source "Fails plainly over: RT...": it is not run plainly there (a hang would
# only spend the timeout), and its preload run there counts. A line "Cannot run over: RT..."
# names runtimes that cannot run it at all here (a function the runtime lacks on this
# machine): it is not run there. A line "Preloaded with: VAR=VALUE..." sets those
# environment variables of mpi-dtype for its preload runs.
#
# With DROP_IN_ABI=standard the same programs are built for the MPI-5.0 standard ABI instead,
# with MPICH 5.0.2's mpicc_abi (linked with libmpi_abi.so.1), run over the runtimes that ship
# it (MPICH 5.0.2 and Intel MPI 2021.19: scripts/with-mpi.sh points libmpi_abi.so.1 at the
# runtime's), with libmpi_dtype_abi.so preloaded.
#
# With DROP_IN_ABI=ompi they are built for Open MPI's ABI, once per Open MPI with its own
# mpicc (Debian's Open MPI 4.1.4 and Open MPI 5.0.11: runtimes ompi4 and ompi5), and run with
# libmpi_dtype_ompi.so preloaded (Open MPI's mpiexec passes the environment with -x). A
# program that does not build against an Open MPI's mpi.h (mpi4 needs MPI 4.0's functions,
# which 4.1's lacks) is reported and not counted there, as a plain failure is.
#
# usage: scripts/test-drop-in-programs.sh [LIBDIR]
#   LIBDIR            directory of the library (default: build/prefix/lib)
#   DROP_IN_ABI       mpich (default: libmpi_dtype.so, programs built with mpicc.mpich),
#                     standard (libmpi_dtype_abi.so, programs built with mpicc_abi) or ompi
#                     (libmpi_dtype_ompi.so, programs built by each Open MPI's mpicc); the
#                     defaults of the runtimes and of the build directory follow it
#   MPI_DTYPE_LIB     full path of the library; overrides LIBDIR
#   DROP_IN_MPIS      runtimes, default "mpich4 mpich5 impi" (installed first with
#                     scripts/install-mpis.sh, which does nothing for those already there)
#   DROP_IN_PLAIN_MUST_PASS  runtimes where a plain failure fails the script (default mpich4;
#                     none for the standard ABI, whose runtimes fail some MPI-IO programs
#                     plainly: docs/drop-in.md)
#   DROP_IN_BUILD_DIR where the programs and logs go (default: build/drop-in-programs)
#   DROP_IN_MODES     modes to run, default "plain preload"
#   DROP_IN_PROGRAMS  programs to run (names without .c), default all
#   DROP_IN_TIMEOUT   seconds allowed for each run (default 120)
#   DROP_IN_LEAKS     "note" (default): a run in which MPICH reports leaked handles at
#                     MPI_Finalize ("yaksa: N leaked handle pool objects") still passes, with
#                     the report on its line; "fail": such a run fails
#
# Prints one line per (program, runtime, mode) and exits nonzero if any build or counted run
# failed, after running everything.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/scratch.bash
. "$root/scripts/scratch.bash"
# shellcheck source=scripts/mpi-runtimes.bash
. "$root/scripts/mpi-runtimes.bash"
src="$root/c_tests/drop_in/programs"
abi="${DROP_IN_ABI:-mpich}"
drop_in_abi test-drop-in-programs "$abi" mpich standard ompi
suffix=""
[ "$abi" = mpich ] || suffix=-${abi/standard/abi}
build="${DROP_IN_BUILD_DIR:-$root/build/drop-in-programs$suffix}"
libdir="${1:-$root/build/prefix/lib}"
lib="${MPI_DTYPE_LIB:-$libdir/$lib_name}"
modes="${DROP_IN_MODES:-plain preload}"
mpis="${DROP_IN_MPIS:-$default_mpis}"
must_pass="${DROP_IN_PLAIN_MUST_PASS:-$default_must}"
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
for mode in $modes; do
    case "$mode" in plain | preload) ;; *)
        echo "test-drop-in-programs: unknown mode $mode" >&2
        exit 2
        ;;
    esac
done
# plain first: the preload run of a pair is judged by the plain one
ordered_modes=""
for mode in plain preload; do
    case " $modes " in *" $mode "*) ordered_modes="$ordered_modes $mode" ;; esac
done

tools=(timeout)
[ "$abi" = mpich ] && tools+=(mpicc.mpich mpif90.mpich)
for tool in "${tools[@]}"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "test-drop-in-programs: $tool not found (install MPICH: scripts/install-deps.sh)" >&2
        exit 2
    fi
done
# shellcheck disable=SC2086
"$root/scripts/install-mpis.sh" $mpis

mkdir -p "$build/logs"
build=$(cd "$build" && pwd)
case "$lib" in /*) ;; *) lib="$(pwd)/$lib" ;; esac

shopt -s nullglob
sources=("$src"/*.c "$src"/*.f90)
if [ -n "${DROP_IN_PROGRAMS:-}" ]; then
    sources=()
    for name in $DROP_IN_PROGRAMS; do
        if [ -f "$src/$name.f90" ]; then
            sources+=("$src/$name.f90")
        else
            sources+=("$src/$name.c")
        fi
    done
fi
shopt -u nullglob
if [ "${#sources[@]}" -eq 0 ]; then
    echo "test-drop-in-programs: no programs in $src" >&2
    exit 2
fi

failures=0
total=0
noted=0
leaky=0
start_all=$(date +%s.%N)

# first line of a log worth showing for a failure
first_error() {
    local log=$1 line
    line=$(grep -m1 -E 'check failed|returned [0-9-]+ \(class|FAILED|Assertion|Abort|signal|error' "$log" || true)
    if [ -z "$line" ]; then
        line=$(grep -m1 -v '^[[:space:]]*$' "$log" || true)
    fi
    printf '%s' "${line:0:300}"
}

# whether the program at SOURCE names the runtime RT in its line "WHAT: RT..."
named_in() {
    local over
    over=$(sed -n "s/.*$2:\\([a-z0-9 ]*\\).*/\\1/p" "$1" | head -n1)
    [[ " $over " == *" $3 "* ]]
}

line() { # STATUS PROGRAM RUNTIME MODE TEXT
    printf '%-5s %-12s %-7s %-8s %s\n' "$@"
}

# a program's name: its file's without the directory and the extension
program_name() {
    local file=${1##*/}
    echo "${file%.*}"
}

# builds the program SOURCE into OUT for the runtime RT with the compiler of the ABI: Debian's
# MPICH, MPICH 5.0.2's wrapper of the standard ABI, or that Open MPI's own. A Fortran program
# (.f90) is built by the Fortran wrapper of MPICH or Open MPI; MPICH's `mpi` module declares
# no interfaces for buffers, so gfortran needs -fallow-argument-mismatch to take one program's
# buffers of several types (it warns). The modules a Fortran program defines (.mod files) go
# next to it (-J).
build_program() {
    local rt=$1 out=$2 source=$3
    if [[ "$source" == *.f90 ]]; then
        local flags=(-Wall -O1 -J "$(dirname "$out")" -o "$out" "$source")
        case "$abi" in
            ompi) "$root/scripts/with-mpi.sh" "$rt" mpifort -Werror "${flags[@]}" ;;
            *) mpif90.mpich -fallow-argument-mismatch "${flags[@]}" ;;
        esac
        return
    fi
    local flags=(-Wall -Wextra -Werror -O1 -pthread -I"$src" -o "$out" "$source")
    case "$abi" in
        standard) "$root/scripts/with-mpi.sh" mpich5 mpicc_abi "${flags[@]}" ;;
        ompi) "$root/scripts/with-mpi.sh" "$rt" mpicc "${flags[@]}" ;;
        *) mpicc.mpich "${flags[@]}" ;;
    esac
}

# where the programs for runtime RT are: one build for every runtime of MPICH's ABI and of the
# standard ABI, one per runtime for Open MPI's
programs_of() {
    if [ "$abi" = ompi ]; then echo "$build/$1"; else echo "$build/all"; fi
}

# the programs, built once per directory of programs_of
built_dirs=" "
for rt in $mpis; do
    dir=$(programs_of "$rt")
    case "$built_dirs" in *" $dir "*) continue ;; esac
    built_dirs="$built_dirs$dir "
    rm -rf "$dir"
    mkdir -p "$dir"
    for c in "${sources[@]}"; do
        name=$(program_name "$c")
        blog="$build/logs/$name.$(basename "$dir").build.log"
        if [ "$abi" = standard ] && [[ "$c" == *.f90 ]]; then
            line NOTE "$name" all build "not built: MPICH 5.0.2 has no Fortran wrapper for the standard ABI"
            continue
        fi
        if [ -f "$c" ] && build_program "$rt" "$dir/$name" "$c" >"$blog" 2>&1; then
            continue
        fi
        [ -f "$c" ] || echo "no such program: $c" >"$blog"
        total=$((total + 1))
        where=all
        [ "$abi" = ompi ] && where=$rt
        if [ "$abi" = ompi ] && [ -f "$c" ]; then
            noted=$((noted + 1))
            line NOTE "$name" "$where" build "does not build against its mpi.h, not counted: $(first_error "$blog")"
        else
            failures=$((failures + 1))
            line FAIL "$name" "$where" build "build failed: $(first_error "$blog")"
        fi
    done
done

for rt in $mpis; do
    for c in "${sources[@]}"; do
        name=$(program_name "$c")
        exe="$(programs_of "$rt")/$name"
        [ -x "$exe" ] || continue
        plain_ok=""
        for mode in $ordered_modes; do
            if named_in "$c" "Cannot run over" "$rt"; then
                line NOTE "$name" "$rt" "$mode" "not run: the program says this MPI cannot run it here"
                continue
            fi
            if [ "$mode" = plain ] && named_in "$c" "Fails plainly over" "$rt"; then
                line NOTE "$name" "$rt" "$mode" "not run: the program says this MPI fails it plainly"
                continue
            fi
            total=$((total + 1))
            log="$build/logs/$name.$rt.$mode.log"
            args=(-n 4)
            if [ "$mode" = preload ]; then
                if [ ! -f "$lib" ]; then
                    failures=$((failures + 1))
                    line FAIL "$name" "$rt" "$mode" "library not found: $lib"
                    continue
                fi
                # MPI_DTYPE_DEBUG=1: mpi-dtype says on stderr that it forwards to the MPI library
                # shellcheck disable=SC2207 # words without spaces
                args+=($(every_rank "$abi" LD_PRELOAD "$lib") $(every_rank "$abi" MPI_DTYPE_DEBUG 1))
                for setting in $(sed -n 's/^.*Preloaded with: *//p' "$c" | head -1); do
                    # shellcheck disable=SC2207 # words without spaces
                    args+=($(every_rank "$abi" "${setting%%=*}" "${setting#*=}"))
                done
            fi
            t0=$(date +%s.%N)
            rc=0
            # files a program makes (mpiio) go under a scratch directory, emptied after each
            # run, so that a run that aborts leaves nothing behind
            scratch="$build/tmp"
            clear_scratch "$scratch"
            mkdir -p "$scratch"
            # shellcheck disable=SC2207 # two words, neither with spaces
            args+=($(every_rank "$abi" TMPDIR "$scratch"))
            # standard output apart from standard error: mpiexec merges the ranks' lines as
            # it reads them, so a result line on stdout could land inside a diagnostic line
            # of another rank on stderr (MPI_DTYPE_DEBUG prints a line per type); the log
            # holds both, stdout first
            (cd "$build" && timeout -k 5 "$run_timeout" "$root/scripts/with-mpi.sh" "$rt" mpiexec "${args[@]}" "$exe") \
                </dev/null >"$log.stdout" 2>"$log.stderr" || rc=$?
            cat "$log.stdout" "$log.stderr" >"$log"
            clear_scratch "$scratch"
            t1=$(date +%s.%N)
            secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
            passed=$(grep -m1 -E "^$name: all [0-9]+ checks passed\$" "$log.stdout" || true)
            rm -f "$log.stdout" "$log.stderr"
            unforwarded=0
            if [ "$mode" = preload ] && ! grep -q '^mpi-dtype: forwarding to ' "$log"; then
                unforwarded=1 # the preload did not reach the processes, or found no MPI
            fi
            leak=$(grep -m1 -oE '[0-9]+ leaked handle pool objects' "$log" || true)
            note=""
            if [ -n "$leak" ]; then
                leaky=$((leaky + 1))
                note=" [MPICH at MPI_Finalize: $leak]"
            fi
            ok=0
            if [ "$rc" -eq 0 ] && [ -n "$passed" ] && [ "$unforwarded" -eq 0 ] &&
                { [ -z "$leak" ] || [ "$leaks_policy" = note ]; }; then
                ok=1
                line PASS "$name" "$rt" "$mode" "${passed#"$name: "} (${secs}s)$note"
            elif [ "$rc" -eq 0 ] && [ -n "$passed" ] && [ "$unforwarded" -eq 1 ]; then
                what="${passed#"$name: "} (${secs}s), but no \"mpi-dtype: forwarding to\" line"
            elif [ "$rc" -eq 0 ] && [ -n "$passed" ]; then
                what="${passed#"$name: "} (${secs}s), but$note"
            else
                if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
                    why="timed out after ${run_timeout}s"
                else
                    why="exit $rc"
                fi
                what="$why (${secs}s): $(first_error "$log")"
            fi
            [ "$mode" = plain ] && plain_ok=$ok
            if [ "$ok" -eq 1 ]; then
                continue
            fi
            # not counted: a plain failure where plain runs need not pass, and a preload
            # failure of a pair that fails plainly too
            if { [ "$mode" = plain ] && [[ " $must_pass " != *" $rt "* ]]; } ||
                { [ "$mode" = preload ] && [ "$plain_ok" = 0 ]; }; then
                noted=$((noted + 1))
                if [ "$mode" = plain ]; then
                    line NOTE "$name" "$rt" "$mode" "fails without mpi-dtype, not counted: $what"
                else
                    line NOTE "$name" "$rt" "$mode" "fails, not counted (fails plainly too): $what"
                fi
            else
                failures=$((failures + 1))
                line FAIL "$name" "$rt" "$mode" "$what"
            fi
        done
    done
done

end_all=$(date +%s.%N)
elapsed=$(awk -v a="$start_all" -v b="$end_all" 'BEGIN { printf "%.1f", b - a }')
extra=""
if [ "$noted" -gt 0 ]; then
    extra=", $noted failing where the program fails without mpi-dtype too (not counted)"
fi
if [ "$leaky" -gt 0 ]; then
    extra="$extra, $leaky with leaked MPICH handles at MPI_Finalize"
fi
counted=$((total - noted))
echo "test-drop-in-programs: $((counted - failures)) of $counted counted runs passed$extra, over $mpis, in ${elapsed}s (logs in $build/logs)"
[ "$failures" -eq 0 ]
