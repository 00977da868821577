#!/usr/bin/env bash
# mpi4py with mpi-dtype standalone as its MPI: mpi4py built against an installation of
# mpi-dtype (libmpi_dtype.so linked alone, a whole MPI for a world of one process) and its own
# test suite run on one process, compared with the same suite on one process over plain MPICH 4.
#
#   scripts/test-mpi4py-serial.sh [PREFIX]      (default: build/prefix, an installed mpi-dtype)
#
# 1. mpi4py (the sdist scripts/test-mpi4py.sh uses, downloaded into the same directory
#    MPI4PY_BUILD/dl) is built with MPICC=PREFIX/bin/mpi-dtype-cc and CFLAGS=-O0 (half a
#    minute on 2 cores where -O1 takes four; the one-process suite is short) in the venv
#    MPI4PY_VENVS/serial-venv (default: MPI_DTYPE_RUNTIMES/mpi4py, beside the venvs of
#    test-mpi4py.sh), with numpy from its wheel. mpi4py's build probes every MPI symbol it
#    binds and stubs those the header lacks (they raise NotImplementedError, and its tests skip
#    what they find missing), so the build depends on the header alone: the venv is reused
#    while it holds this mpi4py and numpy, built with this PREFIX's wrapper against the same
#    mpi.h and mpi_dtype.h (a hash of them is in the venv's mpi-dtype-build). The wrapper
#    links with an rpath to PREFIX/lib and the suite runs with LD_LIBRARY_PATH=PREFIX/lib, so
#    every run loads the library installed now (checked before the suite starts).
# 2. The suite (python test/main.py, through tests/mpi4py/run_suite.py) runs on one process
#    as scripts/test-mpi4py.sh runs its one-process runs: under timeout (MPI4PY_TIMEOUT
#    seconds, default 600, for all its parts), killed after MPI4PY_STALL seconds without
#    progress (default 180), and going on after a test that ended the process up to
#    MPI4PY_RESUMES times (default 25; tests/mpi4py/resume.py). Excluded as there: test_spawn.
#    MPI4PY_TEST_SPAWN=0 also makes mpi4py skip test_util_pool's TestProcessPool, which
#    spawns its workers from a thread and would wait for them for ever (MPI_Comm_spawn is
#    absent; over MPICH 4.0.2 mpi4py skips that class by itself).
# 3. The plain results of MPICH 4 on one process are those test-mpi4py.sh keeps in
#    MPI4PY_VENVS/plain/mpich4 (plain-np1.*): reused when present, else made first by
#    running `MPI4PY_MPIS=mpich4 MPI4PY_NP2_MPIS= scripts/test-mpi4py.sh PREFIX/lib/libmpi_dtype.so`
#    (whose own comparison, under the preload, is not this script's outcome).
# 4. tests/mpi4py/serial_compare.py: every test passing over MPICH 4 must pass over
#    mpi-dtype too, but for the tests mpi4py skips because a whole chapter mpi-dtype does not
#    have is absent (counted by chapter) and a few individually documented differences (listed
#    there, each with its reason). Anything else fails the script.
# The run's logs and outcomes go to MPI4PY_BUILD/results/serial (default build/mpi4py).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${1:-$root/build/prefix}"
MPI4PY_VERSION=4.1.2
NUMPY_VERSION=2.3.5
# shellcheck source=mpi-runtimes.bash
. "$root/scripts/mpi-runtimes.bash"
venvs="${MPI4PY_VENVS:-$MPI_DTYPE_RUNTIMES/mpi4py}"
work="${MPI4PY_BUILD:-$root/build/mpi4py}"
tmo="${MPI4PY_TIMEOUT:-600}"
stall="${MPI4PY_STALL:-180}"
max_resumes="${MPI4PY_RESUMES:-25}"
here="$root/tests/mpi4py"

# shellcheck source=mpi4py-suite.bash
. "$root/scripts/mpi4py-suite.bash"

[ -d "$prefix" ] || { echo "no installation of mpi-dtype at $prefix (install it, or give its prefix)" >&2; exit 2; }
prefix="$(cd "$prefix" && pwd)"
lib="$prefix/lib/libmpi_dtype.so"
mpicc="$prefix/bin/mpi-dtype-cc"
headers=("$prefix/include/mpi_dtype/mpi.h" "$prefix/include/mpi_dtype/mpi_dtype.h")
for f in "$lib" "$mpicc" "${headers[@]}"; do
  [ -e "$f" ] || { echo "$prefix is not an installation of mpi-dtype: $f is missing" >&2; exit 2; }
done
# the wrapper's link line must name this prefix's library directory, as its rpath
case " $("$mpicc" -link-info) " in
  *" -Wl,-rpath,$prefix/lib "*) ;;
  *) echo "$mpicc does not link with an rpath to $prefix/lib" >&2; exit 2 ;;
esac

python_with_headers

mkdir -p "$work/dl" "$venvs"
sdist="$work/dl/mpi4py-$MPI4PY_VERSION.tar.gz"
venv="$venvs/serial-venv"
py="$venv/bin/python"
build_stamp() {
  echo "mpi4py $MPI4PY_VERSION numpy $NUMPY_VERSION MPICC=$mpicc headers $(cat "${headers[@]}" | sha256sum | cut -c1-16)"
}
# in_env CMD...: CMD with this installation's library first on the search path, nothing preloaded
run_env=(env -u LD_PRELOAD LD_LIBRARY_PATH="$prefix/lib")
in_env() { "${run_env[@]}" "$@"; }
# venv_ok: the venv holds this mpi4py and numpy built against this header (written in the
# venv's mpi-dtype-build after the build), and its mpi4py loads this prefix's library
venv_ok() {
  [ -x "$py" ] && [ "$(cat "$venv/mpi-dtype-build" 2>/dev/null)" = "$(build_stamp)" ] &&
    in_env "$py" - "$MPI4PY_VERSION" "$NUMPY_VERSION" "$lib" <<'EOF' >/dev/null 2>&1
import os, sys, mpi4py, numpy
from mpi4py import MPI
maps = open("/proc/self/maps").read()
loaded = {l.split()[-1] for l in maps.splitlines() if "libmpi" in l.rsplit("/", 1)[-1]}
sys.exit(mpi4py.__version__ != sys.argv[1] or numpy.__version__ != sys.argv[2]
         or {os.path.realpath(p) for p in loaded} != {os.path.realpath(sys.argv[3])})
EOF
}

step "venv $venv: mpi4py $MPI4PY_VERSION built with $mpicc"
if venv_ok; then
  echo "   reusing it"
else
  (
    flock 9
    venv_ok && exit 0 # built by another run meanwhile
    rm -rf "$venv"
    python3 -m venv "$venv"
    if [ ! -f "$sdist" ]; then
      "$py" -m pip download -q --no-deps --no-binary mpi4py "mpi4py==$MPI4PY_VERSION" -d "$work/dl"
    fi
    echo "   building mpi4py $MPI4PY_VERSION from source (about a minute)"
    in_env env MPICC="$mpicc" MPI4PY_BUILD_MPIABI= CFLAGS="${CFLAGS:-} -O0" \
      "$py" -m pip install -q --no-cache-dir --no-binary mpi4py "$sdist" \
      >"$work/pip-install-serial.log" 2>&1 ||
      { tail -30 "$work/pip-install-serial.log"; exit 2; }
    "$py" -m pip install -q "numpy==$NUMPY_VERSION"
    build_stamp >"$venv/mpi-dtype-build"
    venv_ok || { echo "mpi4py in $venv does not run on $lib" >&2; exit 2; }
  ) 9>"$venvs/.serial.lock"
fi
in_env "$py" -c 'from mpi4py import MPI; print("   ", MPI.Get_library_version().splitlines()[0], "- MPI", MPI.Get_version())'

step "mpi4py $MPI4PY_VERSION test suite from its sdist"
src="$work/mpi4py-$MPI4PY_VERSION"
if [ ! -f "$src/test/main.py" ]; then
  rm -rf "$src"
  tar -xzf "$sdist" -C "$work" "mpi4py-$MPI4PY_VERSION/test"
fi
testdir="$src/test"

plain="$venvs/plain/mpich4"
step "plain results of MPICH 4 on one process ($plain/plain-np1.*)"
plain_ok() {
  [ -f "$plain/plain-np1.0.tsv" ] && case "$(cat "$plain/plain-np1.rc" 2>/dev/null)" in 0 | 1) true ;; *) false ;; esac
}
if plain_ok; then
  echo "   reusing them"
else
  echo "   none yet: running scripts/test-mpi4py.sh on mpich4, one process"
  MPI4PY_MPIS=mpich4 MPI4PY_NP2_MPIS="" "$root/scripts/test-mpi4py.sh" "$lib" || true
  plain_ok || { echo "scripts/test-mpi4py.sh made no plain results in $plain" >&2; exit 2; }
fi

res="$work/results/serial"
out="$res/serial-np1"
mkdir -p "$res"
step "the suite over $lib, one process"
launcher=("${run_env[@]}" MPI4PY_TEST_SPAWN=0)
suite_parts "$out" 1
rc=$(cat "$out.rc")
echo "   $suite_summary"

step "comparison with MPICH 4 on one process"
status=0
"$py" "$here/serial_compare.py" "mpich4-np1:$plain/plain-np1:1:$(cat "$plain/plain-np1.rc")" \
  "mpi-dtype-np1:$out:1:$rc" || status=$?
step "done in $(( $(date +%s) - t_start )) s; log and outcomes in $res"
exit "$status"
