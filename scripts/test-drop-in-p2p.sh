#!/usr/bin/env bash
# Point-to-point communication, MPI_Bcast and the collectives with a block per rank of random
# derived datatypes, with mpi-dtype preloaded in each of its communication modes, against the
# plain MPI library.  The 4-rank
# program c_tests/drop_in/p2p/p2p_random.c (built once with Debian's mpicc.mpich) builds, from
# each seed, random types with every constructor and sends them from each rank to every other
# rank through every send mode, nonblocking and persistent request, completion function,
# probe, MPI_Sendrecv(_replace), truncation, cancel and MPI_Bcast, checking every received
# byte and every status (c_tests/drop_in/p2p/README.md lists the cases).  It runs with
# `mpiexec -n 4` under `timeout` over each runtime of MPICH's ABI in P2P_MPIS
# (scripts/with-mpi.sh), in eight modes:
#
#   plain         no preload
#   mpi           LD_PRELOAD=libmpi_dtype.so, MPI_DTYPE_COMM=mpi     (the MPI library moves the twins)
#   engine        LD_PRELOAD=libmpi_dtype.so, MPI_DTYPE_COMM=engine  (mpi-dtype packs every derived type)
#   auto          LD_PRELOAD=libmpi_dtype.so, MPI_DTYPE_COMM=auto    (mpi-dtype decides per type)
#   engine-any    engine, with MPI_DTYPE_PEERS=any (nothing is learnt of the peers): the sends
#                 of types whose basic entries differ in size and whose signature has short
#                 runs go as over ranks without mpi-dtype, with their twins, so on mpich4,
#                 where some type is so sent, fewer types are sent on the engine than in
#                 engine mode, where the ranks learn at MPI_Init that every rank runs
#                 mpi-dtype
#   mixed-engine  ranks 0-1 as in engine, ranks 2-3 without the preload (MPMD launch:
#   mixed-auto    `mpiexec -genv ... -n 2 -env LD_PRELOAD lib prog : -n 2 prog`), and the same
#                 with auto: processes with and without mpi-dtype exchange every message
#   shm           auto, with MPI_DTYPE_TRANSPORT=shm: messages of derived types of 8 KiB
#                 or more go through the senders' rings in shared memory
#
# The seeds are run in groups, one `mpiexec` per group; every other group runs with
# MPI_THREAD_MULTIPLE (`p2p_random -t`), which adds the case with 2 threads per rank.  A run
# passes if it exits 0 and prints "p2p_random: all N checks passed"; a preloaded run must also
# print mpi-dtype's "forwarding to" line (MPI_DTYPE_DEBUG=1) once per preloaded rank (4, or 2
# when mixed), the very same result lines as the plain run of its group, and, from each
# preloaded rank, "mpi-dtype: at MPI_Finalize, 0 engine requests pending, 0 pooled buffers
# lent": the program completes or frees every request (cancelled and freed ones included),
# so mpi-dtype must keep no request of its engine's path and lend no pooled buffer by then.
# The path lines of MPI_DTYPE_DEBUG must follow the mode: with `engine` some type is sent on
# mpi-dtype's engine, with `mpi` none. So must what the preloaded ranks learn at MPI_Init of
# their peers: with 4 preloaded ranks each says that every process runs mpi-dtype (but with
# engine-any and mpi, where none says anything), with 2 each says that not every one is
# known to.
# A plain failure is reported (a NOTE line) and does not fail the script, except on the
# runtimes in P2P_PLAIN_MUST_PASS (default mpich4: the program is written to pass there and
# avoids MPICH 4.0.2's own bugs); the preloaded runs of a group that fails plainly would not
# count, and are not run (a SKIP line each). Open MPI 4.1 fails most seeds plainly (it hangs,
# or delivers wrong bytes, in the types' own messages and collectives).
#
# With P2P_ABI=ompi the program is built for Open MPI's ABI, once per Open MPI with its own
# mpicc (its mpi.h has none of MPI 4.0's _c forms, so their calls are left out), and runs over
# Open MPI 4.1.4 and 5.0.11 (runtimes ompi4 and ompi5) with libmpi_dtype_ompi.so preloaded:
# mpiexec passes the variables with -x, and in the mixed modes the preloaded ranks start under
# `env LD_PRELOAD=...`.
#
# usage: scripts/test-drop-in-p2p.sh [LIBDIR]
#   LIBDIR               directory of libmpi_dtype.so (default: build/prefix/lib)
#   MPI_DTYPE_LIB        full path of the library; overrides LIBDIR
#   P2P_ABI              mpich (default) or ompi (libmpi_dtype_ompi.so; runtimes ompi4 ompi5,
#                        none of which a plain failure fails)
#   P2P_SEEDS            number of seeds (default 20)
#   P2P_FIRST_SEED       first seed (default 1)
#   P2P_SEEDS_PER_RUN    seeds per mpiexec (default 5)
#   P2P_SEED_LIST        the seeds to run instead, one per mpiexec (overrides the three above)
#   P2P_THREADS          0: no group runs with MPI_THREAD_MULTIPLE (default 1: every other)
#   P2P_MPIS             runtimes, default "mpich4 mpich5 impi"; one that is not installed
#                        (scripts/install-mpis.sh) is skipped with a message
#   P2P_MODES            modes, default "plain mpi engine auto engine-any mixed-engine
#                        mixed-auto shm" (plain
#                        always runs first)
#   P2P_PLAIN_MUST_PASS  runtimes where a plain failure fails the script (default mpich4)
#   P2P_TIMEOUT          seconds allowed for each mpiexec (default 120)
#   P2P_LEAKS            "note" (default): a run in which MPICH reports leaked handles at
#                        MPI_Finalize ("yaksa: N leaked handle pool objects"; MPICH 4.0.2 leaks
#                        the datatype of a cancelled receive itself) passes, with the count on
#                        its line; "fail": such a run fails
#   P2P_BUILD_DIR        where the program and the logs go (default: build/drop-in-p2p)
#
# Prints one line per (runtime, group of seeds, mode) and a summary; exits nonzero if the
# build or any counted run failed, after running everything.  Reproduce a run with the command
# its log starts with.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=mpi-runtimes.bash
. "$root/scripts/mpi-runtimes.bash"
src="$root/c_tests/drop_in/p2p"
build="${P2P_BUILD_DIR:-$root/build/drop-in-p2p}"
libdir="${1:-$root/build/prefix/lib}"
abi="${P2P_ABI:-mpich}"
drop_in_abi test-drop-in-p2p "$abi" mpich ompi
lib="${MPI_DTYPE_LIB:-$libdir/$lib_name}"
nseeds="${P2P_SEEDS:-20}"
first="${P2P_FIRST_SEED:-1}"
per_run="${P2P_SEEDS_PER_RUN:-5}"
mpis="${P2P_MPIS:-$default_mpis}"
all_modes="plain mpi engine auto engine-any mixed-engine mixed-auto shm"
modes="${P2P_MODES:-$all_modes}"
must_pass="${P2P_PLAIN_MUST_PASS:-$default_must}"
run_timeout="${P2P_TIMEOUT:-120}"
leaks_policy="${P2P_LEAKS:-note}"

fail_usage() {
    echo "test-drop-in-p2p: $*" >&2
    exit 2
}
for v in "$nseeds" "$first" "$per_run" "$run_timeout"; do
    case "$v" in '' | *[!0-9]*) fail_usage "P2P_SEEDS, P2P_FIRST_SEED, P2P_SEEDS_PER_RUN and P2P_TIMEOUT must be numbers" ;; esac
done
[ "$per_run" -ge 1 ] || fail_usage "P2P_SEEDS_PER_RUN must be at least 1"
case "$leaks_policy" in note | fail) ;; *) fail_usage "P2P_LEAKS must be note or fail" ;; esac
for mode in $modes; do
    case " $all_modes " in *" $mode "*) ;; *) fail_usage "unknown mode $mode ($all_modes)" ;; esac
done
# plain first: the preloaded runs of a group are judged by it
ordered_modes=""
for mode in $all_modes; do
    case " $modes " in *" $mode "*) ordered_modes="$ordered_modes $mode" ;; esac
done
tools=(timeout)
[ "$abi" = mpich ] && tools+=(mpicc.mpich)
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || fail_usage "$tool not found (install MPICH: scripts/install-deps.sh)"
done

mkdir -p "$build/logs"
build=$(cd "$build" && pwd)
case "$lib" in /*) ;; *) lib="$(pwd)/$lib" ;; esac
start_all=$(date +%s.%N)

line() { # STATUS RUNTIME SEEDS MODE TEXT
    printf '%-5s %-7s %-12s %-12s %s\n' "$@"
}

# exe_of RUNTIME: the program for it: one build for MPICH's ABI, one per Open MPI
exe_of() {
    if [ "$abi" = ompi ]; then echo "$build/p2p_random_$1"; else echo "$build/p2p_random"; fi
}
built=
for rt in $mpis; do
    exe=$(exe_of "$rt")
    [ "$exe" = "$built" ] && continue # built for another runtime of this run already
    built=$exe
    blog="$build/logs/build.$rt.log"
    compiler=(mpicc.mpich)
    [ "$abi" = ompi ] && compiler=("$root/scripts/with-mpi.sh" "$rt" mpicc)
    rm -f "$exe"
    if ! "${compiler[@]}" -Wall -Wextra -Werror -O1 -pthread -I"$src" -o "$exe" "$src/p2p_random.c" >"$blog" 2>&1; then
        echo "test-drop-in-p2p: build failed:" >&2
        head -20 "$blog" >&2
        exit 1
    fi
done

# the groups of seeds: "first-last"
groups=()
if [ -n "${P2P_SEED_LIST:-}" ]; then
    for s in $P2P_SEED_LIST; do
        case "$s" in '' | *[!0-9]*) fail_usage "P2P_SEED_LIST must hold numbers" ;; esac
        groups+=("$s-$s")
    done
    seeds_said="seeds $P2P_SEED_LIST"
else
    s=$first
    end=$((first + nseeds))
    while [ "$s" -lt "$end" ]; do
        e=$((s + per_run - 1))
        [ "$e" -ge "$end" ] && e=$((end - 1))
        groups+=("$s-$e")
        s=$((e + 1))
    done
    seeds_said="seeds $first-$((first + nseeds - 1))"
fi

# the lines of a run's output that must be the same in every mode
results() {
    grep -E '^(seed |p2p_random: )' "$1" || true
}

# how many times ERR holds the extended regular expression RE (lines of several processes
# may share a line of the log: not anchored)
occurrences() { # ERR RE
    { grep -oE "$2" "$1" || true; } | wc -l
}

# what the preloaded ranks of a run in MODE with RANKS preloaded ranks must have learnt of
# their peers at MPI_Init: how many say that every process runs mpi-dtype, and how many that
# not every one is known to (with MPI_DTYPE_PEERS=any, or MPI_DTYPE_COMM=mpi, whose receives
# take the twins, a rank learns nothing and leaves no marker)
expected_learnt() { # MODE RANKS
    case "$1" in
        engine-any | mpi) echo "0 0" ;;
        mixed-*) echo "0 $2" ;;
        *) echo "$2 0" ;;
    esac
}

# what mpi-dtype left at MPI_Finalize in a preloaded run of RANKS preloaded ranks: nothing if
# each of them printed "0 engine requests pending, 0 pooled buffers lent", else what is wrong
finalize_leaks() { # ERR RANKS
    local re='mpi-dtype: at MPI_Finalize, [0-9]+ engine requests pending, [0-9]+ pooled buffers lent'
    local lines clean
    lines=$(occurrences "$1" "$re")
    clean=$(occurrences "$1" 'mpi-dtype: at MPI_Finalize, 0 engine requests pending, 0 pooled buffers lent')
    if [ "$lines" -ne "$2" ]; then
        echo "$lines \"mpi-dtype: at MPI_Finalize\" lines for $2 preloaded ranks"
    elif [ "$clean" -ne "$2" ]; then
        { grep -oE "$re" "$1" | grep -v ', 0 engine requests pending, 0 pooled' || true; } |
            sed 's/^mpi-dtype: at MPI_Finalize, //' | sort | uniq -c |
            awk '{ n = $1; $1 = ""; printf "%s%s on %d rank(s)", sep, substr($0, 2), n; sep = "; " }'
    fi
}

# the first line worth showing for a failed run: a failed check or MPI call in its output or
# its log, else the log's first line (not the command, not MPICH's leak warnings)
first_error() { # OUT ERR
    local line
    line=$(grep -h -m1 -E 'FAILED|internal error|returned [0-9-]+:|Assertion|Abort|signal|rank [0-9]+.*: ' "$1" "$2" | head -1 || true)
    [ -n "$line" ] || line=$(grep -h -m1 -v -E '^#|^[[:space:]]*$|leaked handle pool objects' "$2" "$1" | head -1 || true)
    printf '%s' "${line:0:300}"
}

failures=0
total=0
noted=0
leaky=0
skipped=""

for rt in $mpis; do
    if ! runtime_dir "$rt" >/dev/null; then
        fail_usage "unknown runtime $rt (known: $MPI_RUNTIMES_ALL)"
    fi
    if ! runtime_installed "$rt"; then
        echo "SKIP  $rt: not installed (scripts/install-mpis.sh $rt installs it)"
        skipped="$skipped $rt"
        continue
    fi
    gi=0
    for g in "${groups[@]}"; do
        seeds=$(seq "${g%-*}" "${g#*-}" | tr '\n' ' ')
        threads=()
        [ $((gi % 2)) -eq 1 ] && [ "${P2P_THREADS:-1}" = 1 ] && threads=(-t)
        gi=$((gi + 1))
        plain_ok=""
        engine_mode_sends=""
        plain_out="$build/logs/$rt.$g.plain.out"
        for mode in $ordered_modes; do
            if [ "$mode" != plain ] && [ "$plain_ok" = 0 ]; then
                # not counted whatever it gives (the plain run failed): not run
                line SKIP "$rt" "$g" "$mode" "fails plainly, not run"
                continue
            fi
            total=$((total + 1))
            out="$build/logs/$rt.$g.$mode.out"
            err="$build/logs/$rt.$g.$mode.err"
            # shellcheck disable=SC2086
            prog=("$(exe_of "$rt")" "${threads[@]}" $seeds)
            preloaded=0
            # the mode's MPI_DTYPE_COMM and MPI_DTYPE_PEERS, for every preloaded rank
            comm=${mode#mixed-} peers=auto transport=mpi
            [ "$mode" = engine-any ] && comm=engine peers=any
            [ "$mode" = shm ] && comm=auto transport=shm
            # shellcheck disable=SC2207 # words without spaces
            settings=($(every_rank "$abi" MPI_DTYPE_COMM "$comm") $(every_rank "$abi" MPI_DTYPE_PEERS "$peers")
                $(every_rank "$abi" MPI_DTYPE_TRANSPORT "$transport")
                $(every_rank "$abi" MPI_DTYPE_DEBUG 1))
            # shellcheck disable=SC2207 # words without spaces
            case "$mode" in
                plain) args=(-n 4 "${prog[@]}") ;;
                mixed-*)
                    preloaded=2
                    # the first two ranks preloaded: Hydra's -env for them, else env(1)
                    first_two=(-env LD_PRELOAD "$lib" "${prog[@]}")
                    [ "$abi" = ompi ] && first_two=(env LD_PRELOAD="$lib" "${prog[@]}")
                    args=("${settings[@]}" -n 2 "${first_two[@]}" : -n 2 "${prog[@]}")
                    ;;
                *)
                    preloaded=4
                    args=($(every_rank "$abi" LD_PRELOAD "$lib") "${settings[@]}" -n 4 "${prog[@]}")
                    ;;
            esac
            if [ "$preloaded" -gt 0 ] && [ ! -f "$lib" ]; then
                failures=$((failures + 1))
                line FAIL "$rt" "$g" "$mode" "library not found: $lib"
                continue
            fi
            cmd=("$root/scripts/with-mpi.sh" "$rt" mpiexec "${args[@]}")
            echo "# ${cmd[*]}" >"$err"
            t0=$(date +%s.%N)
            rc=0
            (cd "$build" && timeout -k 5 "$run_timeout" "${cmd[@]}") </dev/null >"$out" 2>>"$err" || rc=$?
            t1=$(date +%s.%N)
            secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
            passed=$(grep -m1 -E '^p2p_random: all [0-9]+ checks passed$' "$out" || true)
            leak=$(grep -oE '[0-9]+ leaked handle pool objects' "$err" | awk '{ n += $1 } END { if (n) print n " leaked handle pool objects" }' || true)
            note=""
            if [ -n "$leak" ]; then
                leaky=$((leaky + 1))
                note=" [MPICH at MPI_Finalize: $leak]"
            fi
            forwarding=0
            leaks_left=""
            engine_sends=0
            twin_sends=0
            learnt_every=0
            learnt_not=0
            if [ "$preloaded" -gt 0 ]; then
                learnt_every=$(occurrences "$err" 'mpi-dtype: every process of MPI_COMM_WORLD runs mpi-dtype')
                learnt_not=$(occurrences "$err" 'mpi-dtype: not every process of MPI_COMM_WORLD is known')
                forwarding=$(occurrences "$err" 'mpi-dtype: forwarding to ')
                leaks_left=$(finalize_leaks "$err" "$preloaded")
                # MPI_DTYPE_DEBUG's line for each type whose sends the engine packs
                engine_sends=$(occurrences "$err" "sent: mpi-dtype's engine")
                # ... and for each type whose sends the MPI moves with the twin
                twin_sends=$(occurrences "$err" "sent: the MPI library's own path")
                [ "$mode" = engine ] && engine_mode_sends=$engine_sends
            fi
            what=""
            if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
                what="timed out after ${run_timeout}s: $(first_error "$out" "$err")"
            elif [ "$rc" -ne 0 ] || [ -z "$passed" ]; then
                what="exit $rc (${secs}s): $(first_error "$out" "$err")"
            elif [ "$forwarding" -ne "$preloaded" ]; then
                what="${passed#p2p_random: } (${secs}s), but $forwarding \"mpi-dtype: forwarding to\" lines for $preloaded preloaded ranks"
            elif [ -n "$leaks_left" ]; then
                what="${passed#p2p_random: } (${secs}s), but mpi-dtype at MPI_Finalize: $leaks_left"
            elif [ "$mode" = engine ] && [ "$engine_sends" -eq 0 ]; then
                what="${passed#p2p_random: } (${secs}s), but MPI_DTYPE_DEBUG names no type sent on mpi-dtype's engine"
            elif [ "$preloaded" -gt 0 ] && [ "$learnt_every $learnt_not" != "$(expected_learnt "$mode" "$preloaded")" ]; then
                what="${passed#p2p_random: } (${secs}s), but $learnt_every ranks learnt that every process runs mpi-dtype and $learnt_not that not every one is known to, against $(expected_learnt "$mode" "$preloaded")"
            elif [ "$mode" = engine-any ] && [ -n "$engine_mode_sends" ] &&
                { [ "$engine_sends" -gt "$engine_mode_sends" ] ||
                    { [ "$rt" = mpich4 ] && [ "$twin_sends" -gt 0 ] && [ "$engine_sends" -ge "$engine_mode_sends" ]; }; }; then
                what="${passed#p2p_random: } (${secs}s), but MPI_DTYPE_DEBUG names $engine_sends types sent on mpi-dtype's engine, against $engine_mode_sends with MPI_DTYPE_COMM=engine and every rank known to run mpi-dtype"
            elif [ "$mode" = mpi ] && [ "$engine_sends" -ne 0 ]; then
                what="${passed#p2p_random: } (${secs}s), but MPI_DTYPE_DEBUG names $engine_sends types sent on mpi-dtype's engine with MPI_DTYPE_COMM=mpi"
            elif [ "$mode" != plain ] && [ "$plain_ok" = 1 ] && ! cmp -s <(results "$plain_out") <(results "$out"); then
                first_diff=$(diff <(results "$plain_out") <(results "$out") | grep -m2 -E '^[<>]' | tr '\n' ' ' || true)
                what="${passed#p2p_random: } (${secs}s), but the output differs from plain: ${first_diff:0:300}"
            elif [ -n "$leak" ] && [ "$leaks_policy" = fail ]; then
                what="${passed#p2p_random: } (${secs}s), but$note"
            fi
            if [ -z "$what" ]; then
                [ "$mode" = plain ] && plain_ok=1
                line PASS "$rt" "$g" "$mode" "${passed#p2p_random: } (${secs}s)$note"
                continue
            fi
            [ "$mode" = plain ] && plain_ok=0
            # not counted: a plain failure where plain runs need not pass
            if [ "$mode" = plain ] && [[ " $must_pass " != *" $rt "* ]]; then
                noted=$((noted + 1))
                line NOTE "$rt" "$g" "$mode" "fails without mpi-dtype, not counted: $what"
            else
                failures=$((failures + 1))
                line FAIL "$rt" "$g" "$mode" "$what (log: $out)"
            fi
        done
    done
done

end_all=$(date +%s.%N)
elapsed=$(awk -v a="$start_all" -v b="$end_all" 'BEGIN { printf "%.1f", b - a }')
extra=""
[ "$noted" -gt 0 ] && extra=", $noted failing where the program fails without mpi-dtype too (not counted)"
[ "$leaky" -gt 0 ] && extra="$extra, $leaky with leaked MPICH handles at MPI_Finalize"
[ -n "$skipped" ] && extra="$extra, skipped (not installed):$skipped"
counted=$((total - noted))
echo "test-drop-in-p2p: $((counted - failures)) of $counted counted runs passed$extra; $seeds_said over $mpis, modes$ordered_modes, in ${elapsed}s (logs in $build/logs)"
[ "$failures" -eq 0 ]
