#!/usr/bin/env bash
# mpi4py's own test suite over MPICH, plainly and with mpi-dtype preloaded.
#
#   scripts/test-mpi4py.sh [LIBPATH]      (default: build/prefix/lib/libmpi_dtype.so)
#
# 1. A venv (MPI4PY_VENV, default build/mpi4py-venv; reused when it already has this mpi4py
#    built against MPICH) gets mpi4py built from its PyPI source against MPICH
#    (MPICC=mpicc.mpich), and numpy from its wheel: with numpy the buffer tests also run on
#    numpy arrays and test_util_dtlib converts datatypes to and from numpy dtypes, which
#    decodes and builds struct, subarray and vector types.
# 2. The test/ directory of the same mpi4py sdist is extracted into MPI4PY_BUILD (default
#    build/mpi4py).
# 3. The suite runs with one process (python test/main.py) and with two
#    (mpiexec.mpich -n 2), over plain MPICH and with LD_PRELOAD=LIBPATH, each run under
#    timeout. tests/mpi4py/run_suite.py records every test's outcome per rank.
# 4. tests/mpi4py/compare.py: the tests passing under the preload must be those passing over
#    plain MPICH, but for the tests listed in docs/semantics.md ("mpi4py tests that differ
#    under the preload").
#
# The plain MPICH results do not depend on mpi-dtype: they are kept in MPI4PY_BUILD and
# reused while mpi4py, numpy, MPICH, Python and the runner are the same
# (MPI4PY_FRESH_PLAIN=1 runs them again). MPI4PY_TIMEOUT (seconds, default 600) bounds each run.
# Excluded everywhere: test_spawn (as mpi4py's own tox run does; spawning needs a process
# manager set up for it). Excluded with two processes: test_util_sync, whose condition
# variables over MPI windows hang in MPICH 4.0.2 (ch4:ucx) already without mpi-dtype.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lib="${1:-$root/build/prefix/lib/libmpi_dtype.so}"
MPI4PY_VERSION=4.1.2
NUMPY_VERSION=2.3.5
venv="${MPI4PY_VENV:-$root/build/mpi4py-venv}"
work="${MPI4PY_BUILD:-$root/build/mpi4py}"
tmo="${MPI4PY_TIMEOUT:-600}"
here="$root/tests/mpi4py"

t_start=$(date +%s)
step_start=$t_start
step() {
  local now
  now=$(date +%s)
  echo "   ($(( now - step_start )) s)"
  step_start=$now
  echo "== $*"
}

[ -f "$lib" ] || { echo "no library at $lib (build it, or give its path)" >&2; exit 2; }
lib="$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")"
command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null ||
  { echo "MPICH (mpicc.mpich, mpiexec.mpich) is missing: run scripts/install-deps.sh" >&2; exit 2; }

echo "== python with headers and venv"
if ! python3 -c 'import venv, ensurepip, sysconfig, os, sys
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing python3-dev python3-venv"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-dev python3-venv >/dev/null
fi

step "venv $venv with mpi4py $MPI4PY_VERSION built against MPICH"
py="$venv/bin/python"
mkdir -p "$work/dl"
sdist="$work/dl/mpi4py-$MPI4PY_VERSION.tar.gz"
venv_ok() {
  [ -x "$py" ] && "$py" - "$MPI4PY_VERSION" <<'EOF' >/dev/null 2>&1
import sys, mpi4py
from mpi4py import MPI
sys.exit(mpi4py.__version__ != sys.argv[1] or not MPI.Get_library_version().startswith("MPICH"))
EOF
}
if ! venv_ok; then
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
if [ ! -f "$sdist" ]; then
  "$py" -m pip download -q --no-deps --no-binary mpi4py "mpi4py==$MPI4PY_VERSION" -d "$work/dl"
fi
if ! venv_ok; then
  # -O1: about 2 minutes to compile on 2 cores instead of about 4 at Python's -O2, and the
  # suite runs as fast (at -O0 it compiles in 30 s but the suite runs a quarter slower).
  echo "building mpi4py $MPI4PY_VERSION from source (about 2 minutes)"
  env MPICC=mpicc.mpich CFLAGS="${CFLAGS:-} -O1" "$py" -m pip install -q --no-cache-dir --no-binary mpi4py "$sdist" \
    >"$work/pip-install.log" 2>&1 || { tail -30 "$work/pip-install.log"; exit 2; }
  venv_ok || { echo "mpi4py in $venv is not built against MPICH" >&2; exit 2; }
fi
"$py" -c "import numpy" 2>/dev/null || "$py" -m pip install -q "numpy==$NUMPY_VERSION"
"$py" -c 'from mpi4py import MPI; print("   ", MPI.Get_library_version().splitlines()[0])'

step "mpi4py $MPI4PY_VERSION test suite from its sdist"
src="$work/mpi4py-$MPI4PY_VERSION"
if [ ! -f "$src/test/main.py" ]; then
  rm -rf "$src"
  tar -xzf "$sdist" -C "$work" "mpi4py-$MPI4PY_VERSION/test"
fi
testdir="$src/test"
res="$work/results"
mkdir -p "$res"

# run LABEL NPROCS PRELOAD(0|1): the suite, outcomes in $res/LABEL.<rank>.tsv, exit code in $res/LABEL.rc
run() {
  local label=$1 np=$2 preload=$3 rc=0
  local -a args=(--testdir "$testdir" --out "$res/$label" -v --no-builddir -e spawn)
  [ "$np" -gt 1 ] && args+=(-e util_sync)
  rm -f "$res/$label".*
  if [ "$np" -eq 1 ]; then
    if [ "$preload" -eq 1 ]; then
      LD_PRELOAD="$lib" timeout "$tmo" "$py" "$here/run_suite.py" "${args[@]}" >"$res/$label.log" 2>&1 || rc=$?
    else
      timeout "$tmo" "$py" "$here/run_suite.py" "${args[@]}" >"$res/$label.log" 2>&1 || rc=$?
    fi
  else
    local -a genv=()
    [ "$preload" -eq 1 ] && genv=(-genv LD_PRELOAD "$lib")
    timeout "$tmo" mpiexec.mpich -n "$np" "${genv[@]}" "$py" "$here/run_suite.py" "${args[@]}" \
      >"$res/$label.log" 2>&1 || rc=$?
  fi
  echo "$rc" >"$res/$label.rc"
  echo "   $label: exit code $rc$([ "$rc" -eq 124 ] && echo ' (TIMEOUT)')"
}

# What the plain results depend on; they are reused while it is unchanged.
stamp="$("$py" - "$here/run_suite.py" "$0" <<'EOF'
import hashlib, sys, numpy, mpi4py
from mpi4py import MPI
h = hashlib.sha256()
for p in sys.argv[1:]:
    h.update(open(p, "rb").read())
h.update(f"{sys.version}|{mpi4py.__version__}|{numpy.__version__}|{MPI.Get_library_version()}".encode())
print(h.hexdigest())
EOF
)"
step "plain MPICH: 1 and 2 processes"
if [ "${MPI4PY_FRESH_PLAIN:-0}" != 1 ] && [ -f "$res/plain.stamp" ] && [ "$(cat "$res/plain.stamp")" = "$stamp" ] &&
   [ "$(cat "$res/plain-np1.rc" 2>/dev/null)" = 0 ] && [ "$(cat "$res/plain-np2.rc" 2>/dev/null)" = 0 ]; then
  echo "   reusing the results of an earlier run ($res/plain-np*; MPI4PY_FRESH_PLAIN=1 runs them again)"
else
  rm -f "$res/plain.stamp"
  run plain-np1 1 0
  run plain-np2 2 0
  echo "$stamp" >"$res/plain.stamp"
fi

step "LD_PRELOAD=$lib: 1 and 2 processes"
run preload-np1 1 1
run preload-np2 2 1

step "comparison"
status=0
"$py" "$here/compare.py" --differences "$root/docs/semantics.md" \
  "plain-np1:$res/plain-np1:1:$(cat "$res/plain-np1.rc")" \
  "plain-np2:$res/plain-np2:2:$(cat "$res/plain-np2.rc")" \
  "preload-np1:$res/preload-np1:1:$(cat "$res/preload-np1.rc"):plain-np1" \
  "preload-np2:$res/preload-np2:2:$(cat "$res/preload-np2.rc"):plain-np2" || status=$?
step "done in $(( $(date +%s) - t_start )) s; logs and outcomes in $res"
exit "$status"
