#!/usr/bin/env bash
# libmpi_dtype_ompi, the build of Open MPI's ABI, standalone: programs compiled with Open MPI's
# own mpi.h and linked with libmpi_dtype_ompi alone (no libmpi) get the standard's answers.
#
# For Debian's Open MPI 4.1.4 and Open MPI 5.0.11 (scripts/install-mpis.sh ompi4 ompi5):
# 1. scripts/check_abi_ompi.py: the constants of the table equal that mpi.h's, every
#    prototype of mpi-dtype's header of Open MPI's ABI agrees with its declaration there, and
#    every ompi_* object libmpi_dtype_ompi.so exports is as large as that libmpi.so.40's;
# 2. the random datatype harness (conformance/harness.c: every constructor, pair and f90
#    types, decoding, pack and unpack, external32) compiled with that mpi.h and linked with
#    libmpi_dtype_ompi.so prints, seed by seed, what the same harness prints built against
#    mpi-dtype's MPICH-ABI header and libmpi_dtype.so (itself checked against the naive model by
#    the conformance suite). So does the harness compiled with mpi-dtype's own header of Open
#    MPI's ABI (include/mpi_dtype_ompi).
#
# usage: scripts/test-ompi-standalone.sh [PREFIX]
#   PREFIX                  the installation (default build/prefix)
#   OMPI_STANDALONE_SEEDS   seeds of the harness (default 20000)
#   OMPI_STANDALONE_DIR     where the programs and their output go (default
#                           build/ompi-standalone)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$(cd "${1:-$root/build/prefix}" && pwd)
seeds=${OMPI_STANDALONE_SEEDS:-20000}
build=${OMPI_STANDALONE_DIR:-$root/build/ompi-standalone}
mkdir -p "$build"
lib="$prefix/lib"
for file in "$lib/libmpi_dtype_ompi.so" "$lib/libmpi_dtype.so" "$prefix/include/mpi_dtype_ompi/mpi.h"; do
    [ -e "$file" ] || {
        echo "test-ompi-standalone: no $file (build and install first)" >&2
        exit 2
    }
done
"$root/scripts/install-mpis.sh" ompi4 ompi5

flags=(-std=c11 -O2 -Wall -Wextra -Werror -I"$root/c_tests")
harness="$root/conformance/harness.c"
# The reference: the harness on mpi-dtype's MPICH ABI.
gcc "${flags[@]}" -I"$prefix/include/mpi_dtype" "$harness" -L"$lib" -lmpi_dtype \
    -Wl,-rpath,"$lib" -o "$build/harness_mpich_abi"
timeout 600 "$build/harness_mpich_abi" 0 "$seeds" >"$build/reference.txt"

# runs NAME INCLUDE_DIR: the harness compiled with INCLUDE_DIR's mpi.h, linked with
# libmpi_dtype_ompi alone, against the reference
compare() {
    local name=$1 include=$2
    gcc "${flags[@]}" -I"$include" "$harness" -L"$lib" -lmpi_dtype_ompi -Wl,-rpath,"$lib" \
        -o "$build/harness_$name"
    if readelf -d "$build/harness_$name" | grep -q 'libmpi\.so'; then
        echo "FAIL  $name: the harness links an MPI library" >&2
        exit 1
    fi
    timeout 600 "$build/harness_$name" 0 "$seeds" >"$build/$name.txt"
    local differ
    differ=$(diff "$build/reference.txt" "$build/$name.txt" | grep -c '^>' || true)
    echo "$name: $seeds seeds, $(wc -l <"$build/$name.txt") lines, $differ differ from libmpi_dtype's"
    if [ "$differ" != 0 ]; then
        diff "$build/reference.txt" "$build/$name.txt" | head -20 >&2
        exit 1
    fi
}

for rt in ompi4 ompi5; do
    include=$("$root/scripts/with-mpi.sh" "$rt" mpicc --showme:incdirs | awk '{print $1}')
    [ -f "$include/mpi.h" ] || {
        echo "test-ompi-standalone: $rt's mpicc names no directory with mpi.h ($include)" >&2
        exit 2
    }
    python3 "$root/scripts/check_abi_ompi.py" --header "$prefix/include/mpi_dtype_ompi" "$include"
    # the library itself: Debian's lib directory has only the link libmpi.so to it
    libdir=$("$root/scripts/with-mpi.sh" "$rt" mpicc --showme:libdirs | awk '{print $1}')
    libmpi="$libdir/libmpi.so.40"
    [ -e "$libmpi" ] || libmpi=$(readlink -f "$libdir/libmpi.so")
    python3 "$root/scripts/check_abi_ompi.py" --objects "$lib/libmpi_dtype_ompi.so" "$libmpi"
    compare "$rt" "$include"
done
compare mpi_dtype_ompi_header "$prefix/include/mpi_dtype_ompi"
echo "libmpi_dtype_ompi standalone: Open MPI 4.1's and 5.0's mpi.h and mpi-dtype's own agree"
