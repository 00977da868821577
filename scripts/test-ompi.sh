#!/usr/bin/env bash
# libmpi_dtype_ompi, the build of Open MPI's ABI, standalone and preloaded over Open MPI:
# programs compiled with Open MPI's own mpi.h get the standard's answers, linked with
# libmpi_dtype_ompi alone or run in front of Open MPI's libmpi.
#
# For Debian's Open MPI 4.1.4 and Open MPI 5.0.11 (scripts/install-mpis.sh ompi4 ompi5):
# 1. scripts/check_abi_ompi.py: the constants of the table equal that mpi.h's, every
#    prototype of mpi-dtype's header of Open MPI's ABI agrees with its declaration there, and
#    every ompi_* object libmpi_dtype_ompi.so exports is as large as that libmpi.so.40's;
# 2. standalone: the random datatype harness (conformance/harness.c: every constructor, pair
#    and f90 types, decoding, pack and unpack, external32) compiled with that mpi.h and linked
#    with libmpi_dtype_ompi.so alone prints, seed by seed, what the same harness prints built
#    against mpi-dtype's MPICH-ABI header and libmpi_dtype.so (itself checked against the
#    naive model by the conformance suite). So does the harness compiled with mpi-dtype's own
#    header of Open MPI's ABI (include/mpi_dtype_ompi);
# 3. preloaded: the harness built with that Open MPI's mpicc and run as a singleton with
#    libmpi_dtype_ompi.so preloaded prints what step 2 printed, and mpi-dtype says
#    (MPI_DTYPE_DEBUG=1) that it forwards to that libmpi.so.40.
# Open MPI's mpi.h declares none of MPI 4.0's large-count (_c) functions and its libmpi
# defines none: the harness built with it declares them itself (-DHARNESS_LARGE_COUNTS) and
# calls mpi-dtype's, which serve them, alone and preloaded. Every line of every run must equal
# the reference's.
#
# The harness's drop-in mode (types Open MPI builds on mpi-dtype's) runs in
# scripts/test-drop-in-random.sh (DROP_IN_RANDOM_ABI=ompi). Every run is under `timeout`.
#
# usage: scripts/test-ompi.sh [PREFIX]
#   PREFIX          the installation (default build/prefix)
#   OMPI_SEEDS      seeds of the harness (default 20000)
#   OMPI_TEST_DIR   where the programs and their output go (default build/ompi)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$(cd "${1:-$root/build/prefix}" && pwd)
seeds=${OMPI_SEEDS:-20000}
build=${OMPI_TEST_DIR:-$root/build/ompi}
mkdir -p "$build"
lib="$prefix/lib"
for file in "$lib/libmpi_dtype_ompi.so" "$lib/libmpi_dtype.so" "$prefix/include/mpi_dtype_ompi/mpi.h"; do
    [ -e "$file" ] || {
        echo "test-ompi: no $file (build and install first)" >&2
        exit 2
    }
done
"$root/scripts/install-mpis.sh" ompi4 ompi5

flags=(-std=c11 -O2 -Wall -Wextra -Werror -I"$root/c_tests")
# Open MPI's mpi.h (MPI 3.1) declares none of MPI 4.0's large-count functions, which
# mpi-dtype serves, alone or preloaded: the harness declares and calls them itself.
large=(-DHARNESS_LARGE_COUNTS)
harness="$root/conformance/harness.c"
# The reference: the harness on mpi-dtype's MPICH ABI.
gcc "${flags[@]}" -I"$prefix/include/mpi_dtype" "$harness" -L"$lib" -lmpi_dtype \
    -Wl,-rpath,"$lib" -o "$build/harness_mpich_abi"
timeout 600 "$build/harness_mpich_abi" 0 "$seeds" >"$build/reference.txt"

# same NAME FILE: FILE (a run's output) against the reference, every line of each
same() {
    local name=$1 file=$2 differ
    differ=$(diff "$build/reference.txt" "$file" | grep -c '^[<>]' || true)
    echo "$name: $seeds seeds, $(wc -l <"$file") lines, $differ differ from libmpi_dtype's"
    if [ "$differ" != 0 ]; then
        diff "$build/reference.txt" "$file" | head -20 >&2
        exit 1
    fi
}

# standalone NAME INCLUDE_DIR: the harness compiled with INCLUDE_DIR's mpi.h, linked with
# libmpi_dtype_ompi alone, against the reference
standalone() {
    local name=$1 include=$2
    gcc "${flags[@]}" "${large[@]}" -I"$include" "$harness" -L"$lib" -lmpi_dtype_ompi \
        -Wl,-rpath,"$lib" \
        -o "$build/harness_$name"
    if readelf -d "$build/harness_$name" | grep -q 'libmpi\.so'; then
        echo "FAIL  $name: the harness links an MPI library" >&2
        exit 1
    fi
    timeout 600 "$build/harness_$name" 0 "$seeds" >"$build/$name.txt"
    same "$name standalone" "$build/$name.txt"
}

# preloaded RUNTIME: the harness built by that Open MPI's mpicc, libmpi_dtype_ompi.so
# preloaded in front of its libmpi, against the reference
preloaded() {
    local rt=$1 with=("$root/scripts/with-mpi.sh" "$1") said
    "${with[@]}" mpicc "${flags[@]}" "${large[@]}" "$harness" -o "$build/preloaded_$rt"
    said=$("${with[@]}" env LD_PRELOAD="$lib/libmpi_dtype_ompi.so" MPI_DTYPE_DEBUG=1 \
        timeout 120 "$build/preloaded_$rt" 0 1 2>&1 >/dev/null | grep -m1 '^mpi-dtype: ' || true)
    case "$said" in
        "mpi-dtype: forwarding to "*libmpi.so.40*) ;;
        *)
            echo "FAIL  $rt: the preloaded harness does not run in front of Open MPI ($said)" >&2
            exit 1
            ;;
    esac
    "${with[@]}" env LD_PRELOAD="$lib/libmpi_dtype_ompi.so" timeout 600 \
        "$build/preloaded_$rt" 0 "$seeds" >"$build/preloaded_$rt.txt"
    same "$rt preloaded (${said#mpi-dtype: })" "$build/preloaded_$rt.txt"
}

for rt in ompi4 ompi5; do
    include=$("$root/scripts/with-mpi.sh" "$rt" mpicc --showme:incdirs | awk '{print $1}')
    [ -f "$include/mpi.h" ] || {
        echo "test-ompi: $rt's mpicc names no directory with mpi.h ($include)" >&2
        exit 2
    }
    python3 "$root/scripts/check_abi_ompi.py" --header "$prefix/include/mpi_dtype_ompi" "$include"
    # the library itself: Debian's lib directory has only the link libmpi.so to it
    libdir=$("$root/scripts/with-mpi.sh" "$rt" mpicc --showme:libdirs | awk '{print $1}')
    libmpi="$libdir/libmpi.so.40"
    [ -e "$libmpi" ] || libmpi=$(readlink -f "$libdir/libmpi.so")
    python3 "$root/scripts/check_abi_ompi.py" --objects "$lib/libmpi_dtype_ompi.so" "$libmpi"
    standalone "$rt" "$include"
    preloaded "$rt"
done
standalone mpi_dtype_ompi_header "$prefix/include/mpi_dtype_ompi"
echo "libmpi_dtype_ompi: Open MPI 4.1's and 5.0's mpi.h and mpi-dtype's own agree, standalone and preloaded"
