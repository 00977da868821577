# shellcheck shell=bash
# What the scripts that run mpi4py's test suite share (scripts/test-mpi4py.sh, over MPI
# runtimes with and without the preload, and scripts/test-mpi4py-serial.sh, over mpi-dtype
# standalone): timed steps, Python's headers and venv, and running the suite in parts that go
# on after a test ends its processes. Sourced; the caller sets root, here (tests/mpi4py),
# testdir (the suite's test/), py (the venv's python), tmo, stall and max_resumes.

t_start=$(date +%s)
step_start=$t_start
# step TEXT...: ends the step before (printing how long it took) and starts one
step() {
  local now
  now=$(date +%s)
  echo "   ($(( now - step_start )) s)"
  step_start=$now
  echo "== $*"
}

# python_with_headers: Python's headers and venv module, installed from the distribution
# when missing (mpi4py is built from source)
python_with_headers() {
  echo "== python with headers and venv"
  if ! python3 -c 'import venv, ensurepip, sysconfig, os, sys
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing python3-dev python3-venv"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-dev python3-venv >/dev/null
  fi
}

# watch PREFIX CMD...: runs CMD (a `timeout` command: it leads a process group of its own);
# kills the group when PREFIX.*.progress and PREFIX.*.tsv have not changed for $stall seconds,
# and then sets stalled=1
watch() {
  local prefix=$1 pid seen="" now last
  shift
  stalled=0
  "$@" &
  pid=$!
  last=$(date +%s)
  while kill -0 "$pid" 2>/dev/null; do
    sleep 2
    now=$(cat "$prefix".*.progress "$prefix".*.tsv 2>/dev/null | wc -c)
    if [ "$now" != "$seen" ]; then
      seen=$now
      last=$(date +%s)
    elif [ $(( $(date +%s) - last )) -ge "$stall" ]; then
      stalled=1
      kill -TERM -- "-$pid" 2>/dev/null || true
      sleep 5
      kill -KILL -- "-$pid" 2>/dev/null || true
      break
    fi
  done
  wait "$pid"
}

# suite_parts OUT NP [EXCLUDE...]: the suite (test_spawn and the EXCLUDEs left out) run by
# "${launcher[@]}" "$py" run_suite.py on NP processes, under timeout ($tmo seconds for all
# its parts) and watch, in parts OUT.p<N>: after a test that ended the processes (or made no
# progress for $stall seconds) the next part goes on without it (resume.py), up to
# $max_resumes times. The parts are merged into OUT.<rank>.tsv, .details, .progress; the exit
# code of the last part goes to OUT.rc, and suite_summary says how it went.
suite_parts() {
  local out=$1 np=$2 part=0 rc t0 left crashed why complete r exclude
  shift 2
  local -a args cmd excludes=()
  for exclude in "$@"; do excludes+=(-e "$exclude"); done
  rm -f "$out".*
  t0=$(date +%s)
  while :; do
    args=(--testdir "$testdir" --out "$out.p$part" -v --no-builddir -e spawn "${excludes[@]}")
    [ "$part" -gt 0 ] && args+=(--xfile "$out.done")
    cmd=("${launcher[@]}" "$py" "$here/run_suite.py" "${args[@]}")
    left=$(( tmo - ($(date +%s) - t0) ))
    [ "$left" -gt 0 ] || left=1
    rc=0
    echo "== part $part: ${cmd[*]}" >>"$out.log"
    watch "$out.p$part" timeout "$left" "${cmd[@]}" </dev/null >>"$out.log" 2>&1 || rc=$?
    complete=1 # every rank ran the suite to its end (run_suite.py's .end)
    for ((r = 0; r < np; r++)); do
      [ -f "$out.p$part.$r.end" ] || complete=0
    done
    [ "$complete" -eq 0 ] && [ "$rc" -ne 124 ] && [ "$part" -lt "$max_resumes" ] || break
    why="the processes died (exit code $rc)"
    [ "$stalled" -eq 1 ] && why="no progress for ${stall} s, the processes were killed"
    crashed=$("$py" "$here/resume.py" next "$out" "$np" "$part" "$why")
    [ -n "$crashed" ] || break # not in a test: nothing to go on from
    part=$((part + 1))
  done
  "$py" "$here/resume.py" merge "$out" "$np" $((part + 1))
  suite_summary="exit code $rc$([ "$rc" -eq 124 ] && echo ' (TIMEOUT)') ($(( $(date +%s) - t0 )) s)"
  if [ "$part" -gt 0 ]; then
    suite_summary="$suite_summary; went on after $part stops in a test: $(cut -f2 "$out.crashed" | sort -u | head -3 | tr '\n' ' ')$(
      [ "$(cut -f2 "$out.crashed" | sort -u | wc -l)" -gt 3 ] && echo '... ')(all in $out.crashed)"
  fi
  echo "$rc" >"$out.rc"
}
