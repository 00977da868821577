#!/usr/bin/env bash
# libmpi_dtype_ompi.so preloaded over Open MPI: the datatypes a program builds with mpi-dtype's
# constructors follow the standard in front of Open MPI's own libmpi, as they do standalone.
#
# For Debian's Open MPI 4.1.4 and Open MPI 5.0.11 (scripts/install-mpis.sh ompi4 ompi5): the
# random datatype harness (conformance/harness.c: every constructor, pair and f90 types,
# decoding, pack and unpack, external32) is built with that Open MPI's mpicc and run as a
# singleton with libmpi_dtype_ompi.so preloaded; it must print, seed by seed, what the harness
# built with Open MPI's mpi.h and linked with libmpi_dtype_ompi.so alone prints, and
# mpi-dtype must say (MPI_DTYPE_DEBUG=1) that it forwards to that libmpi.so.40. Every run is
# under `timeout`.
#
# Not yet compared: the harness's drop-in mode (HARNESS_DROP_IN=1), whose "behind" nodes are
# types Open MPI builds on mpi-dtype's; Open MPI hands back duplicates of mpi-dtype's handles
# from MPI_Type_get_contents and MPI_File_get_view, which mpi-dtype does not recognize yet
# (docs/drop-in.md, "Open MPI").
#
# usage: scripts/test-drop-in-ompi.sh [PREFIX]
#   PREFIX                the installation (default build/prefix)
#   DROP_IN_OMPI_SEEDS    seeds (default 10000)
#   DROP_IN_OMPI_DIR      where the programs and their output go (default build/drop-in-ompi)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$(cd "${1:-$root/build/prefix}" && pwd)
seeds=${DROP_IN_OMPI_SEEDS:-10000}
build=${DROP_IN_OMPI_DIR:-$root/build/drop-in-ompi}
lib="$prefix/lib/libmpi_dtype_ompi.so"
[ -f "$lib" ] || {
    echo "test-drop-in-ompi: no $lib (build and install first)" >&2
    exit 2
}
mkdir -p "$build"
"$root/scripts/install-mpis.sh" ompi4 ompi5

flags=(-std=c11 -O2 -Wall -Wextra -Werror -I"$root/c_tests")
harness="$root/conformance/harness.c"
failed=0
for rt in ompi4 ompi5; do
    with=("$root/scripts/with-mpi.sh" "$rt")
    include=$("${with[@]}" mpicc --showme:incdirs | awk '{print $1}')
    # standalone: Open MPI's mpi.h, libmpi_dtype_ompi alone
    gcc "${flags[@]}" -I"$include" "$harness" -L"$prefix/lib" -lmpi_dtype_ompi \
        -Wl,-rpath,"$prefix/lib" -o "$build/standalone_$rt"
    timeout 600 "$build/standalone_$rt" 0 "$seeds" >"$build/standalone_$rt.txt"
    # preloaded: built by Open MPI's mpicc, linked with its libmpi
    "${with[@]}" mpicc "${flags[@]}" "$harness" -o "$build/preloaded_$rt"
    said=$("${with[@]}" env LD_PRELOAD="$lib" MPI_DTYPE_DEBUG=1 timeout 120 \
        "$build/preloaded_$rt" 0 1 2>&1 >/dev/null | grep -m1 '^mpi-dtype: ' || true)
    case "$said" in
        "mpi-dtype: forwarding to "*libmpi.so.40*) ;;
        *)
            echo "FAIL  $rt: the preloaded harness does not run in front of Open MPI ($said)"
            failed=1
            continue
            ;;
    esac
    "${with[@]}" env LD_PRELOAD="$lib" timeout 600 "$build/preloaded_$rt" 0 "$seeds" \
        >"$build/preloaded_$rt.txt"
    differ=$(diff "$build/standalone_$rt.txt" "$build/preloaded_$rt.txt" | grep -c '^>' || true)
    lines=$(wc -l <"$build/preloaded_$rt.txt")
    if [ "$differ" = 0 ] && [ "$lines" -gt "$seeds" ]; then
        echo "PASS  $rt: $seeds seeds, $lines lines, preloaded as standalone (${said#mpi-dtype: })"
    else
        echo "FAIL  $rt: $differ of $lines lines differ from the standalone run"
        diff "$build/standalone_$rt.txt" "$build/preloaded_$rt.txt" | head -20
        failed=1
    fi
done
exit "$failed"
