#!/usr/bin/env bash
# mpi4py's own test suite over every MPI runtime of MPICH's ABI in MPI4PY_MPIS, plainly and
# with mpi-dtype preloaded.
#
#   scripts/test-mpi4py.sh [LIBPATH]      (default: build/prefix/lib/libmpi_dtype.so)
#
# Runtimes (scripts/with-mpi.sh; installed first by scripts/install-mpis.sh, which does
# nothing for those already there): mpich4 (Debian's MPICH 4.0.2), mpich5 (MPICH 5.0.2 from
# PyPI), impi (Intel MPI 2021.19 from PyPI).
#
# 1. For each runtime, mpi4py is built from its PyPI source in a venv with that runtime's
#    compiler wrapper (with-mpi.sh's MPICC: mpicc.mpich; the mpich package's bin/mpicc; the
#    impi-devel package's bin/mpicc), so that it is compiled against the MPI version the
#    library reports (mpi4py built against MPICH 4.0.2's headers and run on Intel MPI, which
#    reports MPI 4.1, fails test_util_pkl5's testGetStatusAll for want of
#    MPI_Request_get_status_all, and the request that test leaves pending hangs the next one),
#    and numpy from its wheel (with numpy the buffer tests also run on numpy arrays and
#    test_util_dtlib converts datatypes to and from numpy dtypes, which decodes and builds
#    struct, subarray and vector types). The venvs live in MPI4PY_VENVS (default:
#    MPI_DTYPE_RUNTIMES/mpi4py, outside the clone, beside the runtimes) as <runtime>-venv, and
#    are reused while they hold this mpi4py and numpy built with that MPICC (concurrent runs
#    wait for each other's builds).
# 2. The test/ directory of the same mpi4py sdist is extracted into MPI4PY_BUILD (default
#    build/mpi4py).
# 3. The suite runs with one process (python test/main.py) and, on the runtimes in
#    MPI4PY_NP2_MPIS (default: mpich4 alone, for time; "" for none), with two (mpiexec -n 2),
#    plainly and with LD_PRELOAD=LIBPATH, each run under timeout (MPI4PY_TIMEOUT seconds,
#    default 600, for all its parts). tests/mpi4py/run_suite.py records every test's outcome
#    per rank. A run whose processes end in a test (a crash, MPI_Abort), or that makes no
#    progress for MPI4PY_STALL seconds (default 180; then it is killed), goes on without the
#    tests done and that one, up to MPI4PY_RESUMES times (default 25, within the run's
#    timeout; tests/mpi4py/resume.py, which skips a class whole once 3 of its tests have
#    died): the test is recorded as an error, and the tests after it are still compared.
# A runtime written <runtime>-abi (default MPI4PY_MPIS has mpich5-abi) stands for the MPI-5.0
# standard ABI on that runtime: mpi4py is built with its mpicc_abi and MPI4PY_BUILD_MPIABI=1
# (linked with libmpi_abi.so.1), and the library preloaded is libmpi_dtype_abi.so beside
# LIBPATH (MPI4PY_ABI_LIB overrides it). On the runtimes of Open MPI (ompi5: Open MPI 5.0.11,
# mpi4py built with its mpicc) the library preloaded is libmpi_dtype_ompi.so beside LIBPATH
# (MPI4PY_OMPI_LIB overrides it), and mpiexec passes it with -x. ompi4-debian stands for
# Debian's own python3-mpi4py (mpi4py 3.1.4, built for Debian's Open MPI 4.1.4) run by
# Debian's /usr/bin/python3 and its numpy, with the test/ directory of the mpi4py sdist of the
# same version (its runner is test/runtests.py).
# 4. tests/mpi4py/compare.py: on each runtime, the tests passing under the preload must be
#    those passing plainly, but for the tests listed in docs/semantics.md ("mpi4py tests that
#    differ under the preload").
#
# The plain results do not depend on mpi-dtype: they are kept in MPI4PY_VENVS/plain/<runtime>
# and reused, also by other clones, while mpi4py, numpy, the MPI library, Python and these
# scripts are the same and the earlier runs reached their end (MPI4PY_FRESH_PLAIN=1 runs them
# again). The runs under the preload go to MPI4PY_BUILD/results/<runtime>.
# Excluded everywhere: test_spawn (as mpi4py's own tox run does; spawning needs a process
# manager set up for it). Excluded with two processes: test_util_sync, whose condition
# variables over MPI windows hang in MPICH 4.0.2 (ch4:ucx) already without mpi-dtype, and on
# Intel MPI test_dynproc, whose MPI_Comm_accept / MPI_Comm_connect hang there with
# I_MPI_FABRICS=shm already without mpi-dtype. Excluded on Open MPI 5.0.11 with one process:
# test_util_pool, whose pools spawn their workers, which a singleton of Open MPI 5.0.11 cannot
# (MPI_Comm_spawn fails with MPI_ERR_UNKNOWN and the pool waits for ever) already without
# mpi-dtype.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lib="${1:-$root/build/prefix/lib/libmpi_dtype.so}"
MPI4PY_VERSION=4.1.2
NUMPY_VERSION=2.3.5
MPI4PY_OPT=-O0 # the optimisation mpi4py is compiled at (build_venv)
# shellcheck source=mpi-runtimes.bash
. "$root/scripts/mpi-runtimes.bash"
mpis="${MPI4PY_MPIS:-mpich4 mpich5 impi mpich5-abi ompi4-debian ompi5}"
np2_mpis="${MPI4PY_NP2_MPIS-mpich4}"
venvs="${MPI4PY_VENVS:-$MPI_DTYPE_RUNTIMES/mpi4py}"
work="${MPI4PY_BUILD:-$root/build/mpi4py}"
tmo="${MPI4PY_TIMEOUT:-600}"
stall="${MPI4PY_STALL:-180}"
max_resumes="${MPI4PY_RESUMES:-25}"
here="$root/tests/mpi4py"
with="$root/scripts/with-mpi.sh"

# shellcheck source=mpi4py-suite.bash
. "$root/scripts/mpi4py-suite.bash"

[ -f "$lib" ] || { echo "no library at $lib (build it, or give its path)" >&2; exit 2; }
lib="$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")"
abi_lib="${MPI4PY_ABI_LIB:-$(dirname "$lib")/libmpi_dtype_abi.so}"
ompi_lib="${MPI4PY_OMPI_LIB:-$(dirname "$lib")/libmpi_dtype_ompi.so}"
# runtime_of NAME: the runtime a name of MPI4PY_MPIS runs on; lib_of NAME: the library preloaded
runtime_of() { local rt=${1%-abi}; echo "${rt%-debian}"; }
lib_of() {
  case "$1" in
    *-abi) echo "$abi_lib" ;;
    ompi*) echo "$ompi_lib" ;;
    *) echo "$lib" ;;
  esac
}
# is_debian NAME: mpi4py is Debian's python3-mpi4py, not built here
is_debian() { case "$1" in *-debian) true ;; *) false ;; esac; }
# python_of NAME: the python that runs mpi4py
python_of() { if is_debian "$1"; then echo /usr/bin/python3; else echo "$venvs/$1-venv/bin/python"; fi; }
command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null ||
  { echo "MPICH (mpicc.mpich, mpiexec.mpich) is missing: run scripts/install-deps.sh" >&2; exit 2; }
runtimes=""
for rt in $mpis; do
  runtime_dir "$(runtime_of "$rt")" >/dev/null ||
    { echo "test-mpi4py: unknown runtime $rt (known: $MPI_RUNTIMES_ALL, each also as <runtime>-abi)" >&2; exit 2; }
  [ -f "$(lib_of "$rt")" ] || { echo "no library at $(lib_of "$rt")" >&2; exit 2; }
  if is_debian "$rt" && ! /usr/bin/python3 -c 'import mpi4py, numpy' 2>/dev/null; then
    echo "Debian's python3-mpi4py is missing: run scripts/install-deps.sh" >&2
    exit 2
  fi
  runtimes="$runtimes $(runtime_of "$rt")"
done
# shellcheck disable=SC2086
"$root/scripts/install-mpis.sh" $runtimes

python_with_headers

mkdir -p "$work/dl" "$venvs"
sdist="$work/dl/mpi4py-$MPI4PY_VERSION.tar.gz"
# mpicc_of NAME: the compiler wrapper mpi4py is built with for it (for <runtime>-abi, the
# runtime's mpicc_abi, beside its mpicc)
mpicc_of() {
  case "$1" in
    *-abi) "$with" "$(runtime_of "$1")" sh -c 'echo "$(dirname "$MPICC")/mpicc_abi"' ;;
    *) "$with" "$1" sh -c 'echo "$MPICC"' ;;
  esac
}
# abi_env NAME: what the build of mpi4py is told of the ABI
abi_env() { case "$1" in *-abi) echo MPI4PY_BUILD_MPIABI=1 ;; *) echo MPI4PY_BUILD_MPIABI= ;; esac; }
build_stamp() { echo "mpi4py $MPI4PY_VERSION numpy $NUMPY_VERSION MPICC=$(mpicc_of "$1") $MPI4PY_OPT"; }
# venv_ok RUNTIME: its venv holds this mpi4py and numpy, built with the runtime's MPICC (written
# in the venv's mpi-dtype-build after the build), and answers on the runtime
venv_ok() {
  local venv="$venvs/$1-venv"
  [ -x "$venv/bin/python" ] && [ "$(cat "$venv/mpi-dtype-build" 2>/dev/null)" = "$(build_stamp "$1")" ] &&
    "$with" "$(runtime_of "$1")" "$venv/bin/python" - "$MPI4PY_VERSION" "$NUMPY_VERSION" <<'EOF' >/dev/null 2>&1
import sys, mpi4py, numpy
from mpi4py import MPI
sys.exit(mpi4py.__version__ != sys.argv[1] or numpy.__version__ != sys.argv[2])
EOF
}

# build_venv NAME: mpi4py and numpy built into NAME's venv, under its lock (another run may be
# building it meanwhile, and then this one reuses its build)
build_venv() {
  local rt=$1 venv="$venvs/$1-venv" py="$venvs/$1-venv/bin/python" mpicc
  mpicc=$(mpicc_of "$rt")
  (
    flock 9
    venv_ok "$rt" && exit 0 # built by another run meanwhile
    rm -rf "$venv"
    python3 -m venv "$venv"
    # -O0: 34 s to compile against 133 at -O1 and about 4 minutes at Python's -O2; the suite
    # on one process then takes 22 s against 17, a loss the runs below repay many times over
    # on a machine that builds every venv.
    "$with" "$(runtime_of "$rt")" env MPICC="$mpicc" "$(abi_env "$rt")" CFLAGS="${CFLAGS:-} $MPI4PY_OPT" \
      "$py" -m pip install -q --no-cache-dir \
      --no-binary mpi4py "$sdist" >"$work/pip-install-$rt.log" 2>&1 ||
      { tail -30 "$work/pip-install-$rt.log"; exit 2; }
    "$py" -m pip install -q "numpy==$NUMPY_VERSION"
    build_stamp "$rt" >"$venv/mpi-dtype-build"
    venv_ok "$rt" || { echo "mpi4py in $venv does not run on $rt" >&2; exit 2; }
  ) 9>"$venvs/.$rt.lock"
}

to_build=()
for rt in $mpis; do
  is_debian "$rt" && continue
  step "venv $venvs/$rt-venv: mpi4py $MPI4PY_VERSION built with $(mpicc_of "$rt")"
  if venv_ok "$rt"; then
    echo "   reusing it"
  else
    to_build+=("$rt")
  fi
done
if [ ${#to_build[@]} -gt 0 ]; then
  [ -f "$sdist" ] ||
    python3 -m pip download -q --no-deps --no-binary mpi4py "mpi4py==$MPI4PY_VERSION" -d "$work/dl"
  # Each build spends its time compiling one large C file, on one core: two at a time keep
  # both cores busy (about half a minute each).
  step "building mpi4py $MPI4PY_VERSION from source for ${to_build[*]}, two at a time"
  building=() names=() failed=""
  # finish_oldest: waits for the oldest build still running, and prints its log if it failed
  finish_oldest() {
    if ! wait "${building[0]}"; then
      failed="$failed ${names[0]}"
      cat "$work/venv-${names[0]}.log" >&2
    fi
    building=("${building[@]:1}") names=("${names[@]:1}")
  }
  for rt in "${to_build[@]}"; do
    [ ${#building[@]} -lt 2 ] || finish_oldest
    build_venv "$rt" >"$work/venv-$rt.log" 2>&1 &
    building+=("$!") names+=("$rt")
  done
  while [ ${#building[@]} -gt 0 ]; do finish_oldest; done
  [ -z "$failed" ] || { echo "building mpi4py failed for:$failed" >&2; exit 2; }
  step "built"
fi
# version_of NAME: the version of mpi4py it runs
version_of() {
  if is_debian "$1"; then
    "$with" "$(runtime_of "$1")" /usr/bin/python3 -c 'import mpi4py; print(mpi4py.__version__)'
  else
    echo "$MPI4PY_VERSION"
  fi
}
# testdir_of NAME: the test/ directory of the sdist of its mpi4py, downloaded and extracted
# into MPI4PY_BUILD once
testdir_of() {
  local version src
  version=$(version_of "$1")
  src="$work/mpi4py-$version"
  if [ ! -f "$src/test/mpiunittest.py" ]; then
    [ -f "$work/dl/mpi4py-$version.tar.gz" ] ||
      python3 -m pip download -q --no-deps --no-binary mpi4py "mpi4py==$version" -d "$work/dl" >&2
    rm -rf "$src"
    tar -xzf "$work/dl/mpi4py-$version.tar.gz" -C "$work" "mpi4py-$version/test"
  fi
  echo "$src/test"
}
for rt in $mpis; do
  step "mpi4py $(version_of "$rt") test suite from its sdist: $(testdir_of "$rt")"
done

# run RUNTIME DIR LABEL NPROCS PRELOAD(0|1): the suite on RUNTIME, in parts DIR/LABEL.p<N>
# (see resume.py), merged into DIR/LABEL.<rank>.tsv, .details, .progress; the exit code of
# its last part in DIR/LABEL.rc
run() {
  local rt=$1 dir=$2 label=$3 np=$4 preload=$5
  local -a excludes=()
  [ "$np" -gt 1 ] && excludes+=(util_sync)
  [ "$np" -gt 1 ] && [ "$rt" = impi ] && excludes+=(dynproc)
  [ "$np" -eq 1 ] && [ "$rt" = ompi5 ] && excludes+=(util_pool)
  if [ "$np" -eq 1 ]; then
    launcher=("$with" "$(runtime_of "$rt")")
    [ "$preload" -eq 1 ] && launcher+=(env LD_PRELOAD="$(lib_of "$rt")")
  else
    launcher=("$with" "$(runtime_of "$rt")" mpiexec -n "$np")
    if [ "$preload" -eq 1 ]; then
      case "$rt" in
        ompi*) launcher+=(-x LD_PRELOAD="$(lib_of "$rt")") ;;
        *) launcher+=(-genv LD_PRELOAD "$(lib_of "$rt")") ;;
      esac
    fi
  fi
  suite_parts "$dir/$label" "$np" "${excludes[@]}"
  echo "   $rt $label: $suite_summary"
}

specs=()
for rt in $mpis; do
  py=$(python_of "$rt")
  testdir=$(testdir_of "$rt")
  plain="$venvs/plain/$rt"
  res="$work/results/$rt"
  mkdir -p "$plain" "$res"
  nps="1"
  case " $np2_mpis " in *" $rt "*) nps="1 2" ;; esac
  "$with" "$(runtime_of "$rt")" "$py" -c 'from mpi4py import MPI; print("   ", MPI.Get_library_version().splitlines()[0])'

  # What the plain results depend on; they are reused while it is unchanged.
  stamp="$("$with" "$(runtime_of "$rt")" "$py" - "$here/run_suite.py" "$here/resume.py" "$0" <<'EOF'
import hashlib, sys, numpy, mpi4py
from mpi4py import MPI
h = hashlib.sha256()
for p in sys.argv[1:]:
    h.update(open(p, "rb").read())
h.update(f"{sys.version}|{mpi4py.__version__}|{numpy.__version__}|{MPI.Get_library_version()}".encode())
print(h.hexdigest())
EOF
)"
  step "$rt plainly: $nps process(es)"
  (
    flock 9
    reuse=1
    [ "${MPI4PY_FRESH_PLAIN:-0}" != 1 ] && [ -f "$plain/plain.stamp" ] &&
      [ "$(cat "$plain/plain.stamp")" = "$stamp" ] || reuse=0
    for np in $nps; do # exit code 1: the suite ran to its end, with failures
      case "$(cat "$plain/plain-np$np.rc" 2>/dev/null)" in 0 | 1) ;; *) reuse=0 ;; esac
    done
    if [ "$reuse" = 1 ]; then
      echo "   reusing the results of an earlier run ($plain/plain-np*; MPI4PY_FRESH_PLAIN=1 runs them again)"
    else
      rm -f "$plain/plain.stamp"
      for np in $nps; do
        run "$rt" "$plain" "plain-np$np" "$np" 0
      done
      echo "$stamp" >"$plain/plain.stamp"
    fi
  ) 9>"$venvs/.$rt.plain.lock"

  step "$rt with LD_PRELOAD=$(lib_of "$rt"): $nps process(es)"
  for np in $nps; do
    run "$rt" "$res" "preload-np$np" "$np" 1
    specs+=("$rt-plain-np$np:$plain/plain-np$np:$np:$(cat "$plain/plain-np$np.rc")"
            "$rt-preload-np$np:$res/preload-np$np:$np:$(cat "$res/preload-np$np.rc"):$rt-plain-np$np")
  done
done

step "comparison"
status=0
python3 "$here/compare.py" --differences "$root/docs/semantics.md" "${specs[@]}" || status=$?
step "done in $(( $(date +%s) - t_start )) s; logs and outcomes in $work/results"
exit "$status"
