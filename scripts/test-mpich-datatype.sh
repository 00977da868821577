#!/usr/bin/env bash
# MPICH's own datatype tests (test/mpi/datatype of MPICH 4.0.2, with its harness
# test/mpi/util/mtest.c) built against an installation of mpi-dtype alone, with its mpi.h and
# bin/mpi-dtype-cc, and run as one process; every test that passes on one process over MPICH
# 4.0.2 (Debian's, built from the same sources with mpicc.mpich and run with mpiexec.mpich
# -n 1) must pass, but for the documented exceptions below.
#
#   scripts/test-mpich-datatype.sh [PREFIX]      (default: build/prefix)
#
# The sources are Debian's source package of MPICH 4.0.2 (the package registry the MPICH
# runtime comes from), fetched once with apt-get source --download-only through a list of
# source packages of the script's own (nothing is installed, the system's apt lists are not
# touched) into MPI_DTYPE_RUNTIMES/mpich-4.0.2-src, beside the runtimes. The tests' configure
# is not run: mpitestconf.h, which it would write, is written here with this platform's
# answers (x86-64 Linux, POSIX threads). Each test runs under `timeout` (MPICH_TEST_TIMEOUT
# seconds, default 30: on one process tresized and tresized2 wait for ever over MPICH, and
# darray_cyclic divides by zero in its own arithmetic over both). A test passes when it exits
# with 0 and prints "No Errors", as MPICH's runtests says.
#
# Documented exceptions (passing over MPICH, not over mpi-dtype, for a reason of their own):
#   indexed_misc, indexed_misc_oldapi: the test builds a struct of a datatype handle it freed
#     (types[0] still holds the indexed type it freed before making the hindexed one), which
#     works over MPICH only because MPICH gives the next type the freed handle's value again;
#     mpi-dtype's handles carry a generation, so the stale one is MPI_ERR_TYPE, as the
#     standard's "a freed handle is invalid" has it.
#   struct_no_real_types: a struct whose only entry is an MPI_LB marker at 10. docs/semantics.md
#     ("Marker equations"): ub is the greatest disp + size of any entry, markers counting with
#     size 0, so ub = 10 and the extent is 0; MPICH puts ub at 0 (extent -10).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$(cd "${1:-$root/build/prefix}" && pwd)"
# shellcheck source=mpi-runtimes.bash
. "$root/scripts/mpi-runtimes.bash"
version=4.0.2
src="$MPI_DTYPE_RUNTIMES/mpich-$version-src"
work="${MPICH_TEST_BUILD:-$root/build/mpich-datatype}"
tmo="${MPICH_TEST_TIMEOUT:-30}"
exceptions="indexed_misc indexed_misc_oldapi struct_no_real_types"
mpicc="$prefix/bin/mpi-dtype-cc"
[ -x "$mpicc" ] || { echo "no mpi-dtype installation at $prefix" >&2; exit 2; }
command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null ||
  { echo "MPICH (mpicc.mpich, mpiexec.mpich) is missing: run scripts/install-deps.sh" >&2; exit 2; }

echo "== MPICH $version's test sources in $src"
if [ ! -f "$src/.complete" ]; then
  (
    flock 9
    [ -f "$src/.complete" ] && exit 0
    rm -rf "$src"
    mkdir -p "$src/apt/lists/partial" "$src/apt/cache/archives/partial" "$src/apt/sources"
    cat >"$src/apt/sources/debian-src.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt_own=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$src/apt/sources"
      -o Dir::State::Lists="$src/apt/lists" -o Dir::Cache="$src/apt/cache")
    apt-get "${apt_own[@]}" update -qq
    (cd "$src" && apt-get "${apt_own[@]}" source --download-only -qq "mpich=$version-3" 2>&1 |
      grep -v "unsandboxed" || true)
    tar -xJf "$src/mpich_$version.orig.tar.xz" -C "$src" \
      "mpich-$version/test/mpi/datatype" "mpich-$version/test/mpi/util" "mpich-$version/test/mpi/include"
    rm -rf "$src/apt" "$src"/*.tar.xz "$src"/*.dsc
    touch "$src/.complete"
  ) 9>"$MPI_DTYPE_RUNTIMES/.mpich-src.lock"
fi
tests="$src/mpich-$version/test/mpi"

rm -rf "$work"
mkdir -p "$work/mpi-dtype" "$work/mpich"
# What test/mpi's configure would find on x86-64 Linux with POSIX threads.
cat >"$work/mpitestconf.h" <<'EOF'
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define HAVE_STDARG_H 1
#define HAVE_USLEEP 1
#define HAVE_STRDUP 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_PTHREAD_H 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
#define POINTERINT_t int64_t
#define SIZEOF_INT 4
#define SIZEOF_LONG 8
#define SIZEOF_LONG_LONG 8
#define SIZEOF_MPI_OFFSET 8
#define SIZEOF_SHORT 2
#define SIZEOF_VOID_P 8
#define STDC_HEADERS 1
#endif
EOF
# The tests of one process and more, but not the large ones (@largetest@: many GB).
names=$(grep -v '^@' "$tests/datatype/testlist.in" | awk 'NF {print $1}' | sort -u)

# build CC DIR: the harness and every test with the compiler wrapper CC into DIR
build() {
  local cc=$1 dir=$2 u t
  for u in mtest mtest_common mtest_single dtypes; do
    "$cc" -c -O1 -I"$work" -I"$tests/include" "$tests/util/$u.c" -o "$dir/$u.o" >>"$dir/build.log" 2>&1 ||
      { echo "   the harness ($u.c) does not build with $cc:"; tail -5 "$dir/build.log"; return 1; }
  done
  for t in $names; do
    "$cc" -O1 -I"$work" -I"$tests/include" "$tests/datatype/$t.c" \
      "$dir"/mtest.o "$dir"/mtest_common.o "$dir"/mtest_single.o "$dir"/dtypes.o -o "$dir/$t" -lm \
      >>"$dir/build.log" 2>&1 || { echo "   $t does not build with $cc:"; tail -5 "$dir/build.log"; return 1; }
  done
}

# run DIR LAUNCH...: each test of DIR on one process, its outcome (pass or fail) in DIR/outcomes
run() {
  local dir=$1 t out rc
  shift
  : >"$dir/outcomes"
  for t in $names; do
    rc=0
    out=$(cd "$dir" && timeout "$tmo" "$@" "./$t" 2>&1 </dev/null) || rc=$?
    echo "== $t (exit code $rc)" >>"$dir/run.log"
    echo "$out" >>"$dir/run.log"
    if [ "$rc" -eq 0 ] && grep -qi "No Errors" <<<"$out"; then
      echo "$t pass" >>"$dir/outcomes"
    else
      echo "$t fail" >>"$dir/outcomes"
    fi
  done
}

echo "== building $(wc -w <<<"$names") tests with mpi-dtype's mpi.h alone ($mpicc) and with mpicc.mpich"
build "$mpicc" "$work/mpi-dtype"
build mpicc.mpich "$work/mpich"

echo "== running each on one process"
run "$work/mpi-dtype" env -u LD_PRELOAD
run "$work/mpich" mpiexec.mpich -n 1

status=0
passed() { awk '$2 == "pass" {print $1}' "$1/outcomes"; }
both=0
for t in $(passed "$work/mpich"); do
  if grep -qx "$t pass" "$work/mpi-dtype/outcomes"; then
    both=$((both + 1))
  elif grep -qw "$t" <<<"$exceptions"; then
    echo "   documented exception: $t (see the head of this script)"
  else
    echo "   FAIL: $t passes over MPICH $version and fails over mpi-dtype (log: $work/mpi-dtype/run.log)"
    status=1
  fi
done
for t in $exceptions; do
  grep -qx "$t pass" "$work/mpi-dtype/outcomes" &&
    { echo "   $t passes now: take it off the documented exceptions"; status=1; }
done
echo "   $(passed "$work/mpich" | wc -l) of $(wc -w <<<"$names") pass over MPICH $version on one process," \
  "$(passed "$work/mpi-dtype" | wc -l) over mpi-dtype alone; $both pass over both"
only=$(comm -13 <(passed "$work/mpich" | sort) <(passed "$work/mpi-dtype" | sort) | tr '\n' ' ')
[ -z "$only" ] || echo "   passing over mpi-dtype only: $only"
exit "$status"
