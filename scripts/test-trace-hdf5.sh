#!/usr/bin/env bash
# Traces parallel HDF5 under the preload: c_tests/drop_in/hdf5/collective_io.c runs on 4 ranks
# of one MPI runtime of MPICH's ABI with libmpi_dtype.so preloaded and
# MPI_DTYPE_TRACE=trace.%r.jsonl, then the trace is checked (one file per rank, every line a
# record, types built by HDF5's functions: a frame whose function starts with H5) and its
# report is rendered by mpi-dtype-explain --trace --format html in headless Chromium
# (scripts/test-explain-render.sh, which also renders its eight example types).
#
# usage: scripts/test-trace-hdf5.sh [PREFIX]
#   PREFIX           an install of mpi-dtype (lib/libmpi_dtype.so, bin/mpi-dtype-explain);
#                    default build/prefix
#   TRACE_MPI        the runtime (default mpich4; scripts/install-mpis.sh installs it)
#   TRACE_BUILD_DIR  where the program, the trace and the report go (default build/trace-hdf5)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$(cd "${1:-$root/build/prefix}" && pwd)
lib="$prefix/lib/libmpi_dtype.so"
tool="$prefix/bin/mpi-dtype-explain"
rt="${TRACE_MPI:-mpich4}"
build="${TRACE_BUILD_DIR:-$root/build/trace-hdf5}"
h5inc=/usr/include/hdf5/mpich
h5lib=/usr/lib/x86_64-linux-gnu/hdf5/mpich
if ! command -v mpicc.mpich >/dev/null 2>&1 || [ ! -f "$h5inc/hdf5.h" ]; then
    echo "test-trace-hdf5: needs MPICH and HDF5 built on it (scripts/install-deps.sh)" >&2
    exit 2
fi
"$root/scripts/install-mpis.sh" "$rt"
mkdir -p "$build"
build=$(cd "$build" && pwd)
mpicc.mpich -std=c99 -Wall -Wextra -Werror -O1 -I"$h5inc" -o "$build/collective_io" \
    "$root/c_tests/drop_in/hdf5/collective_io.c" -L"$h5lib" -lhdf5

rm -rf "$build"/trace.*.jsonl "$build/tmp"
mkdir -p "$build/tmp"
(cd "$build" && timeout -k 5 180 "$root/scripts/with-mpi.sh" "$rt" mpiexec -n 4 \
    -genv LD_PRELOAD "$lib" -genv MPI_DTYPE_TRACE "$build/trace.%r.jsonl" \
    -genv TMPDIR "$build/tmp" ./collective_io) </dev/null >"$build/run.log" 2>&1 || {
    echo "test-trace-hdf5: the traced run failed (see $build/run.log)" >&2
    tail -5 "$build/run.log" >&2
    exit 1
}
grep -q '^collective_io: all [0-9]* checks passed$' "$build/run.log"

python3 - "$build" <<'PY'
import json, sys
build = sys.argv[1]
for rank in range(4):
    path = f"{build}/trace.{rank}.jsonl"
    records = [json.loads(line) for line in open(path)]
    assert records, f"{path} is empty"
    assert all(r["rank"] == rank for r in records), f"{path}: records of another rank"
    hdf5 = [r for r in records
            if any((f["function"] or "").startswith("H5") for f in r["built_at"])]
    assert len(hdf5) >= len(records) // 2, f"{path}: {len(hdf5)} of {len(records)} built by H5*"
    built_by = {next(f["function"] for f in r["built_at"] if f["function"]) for r in hdf5}
    print(f"rank {rank}: {len(records)} types, {len(hdf5)} built under HDF5's functions "
          f"({', '.join(sorted(built_by)[:4])}...)")
PY

"$root/scripts/test-explain-render.sh" "$tool" "$build/render" "$build"/trace.*.jsonl
echo "test-trace-hdf5: the report is $build/render/trace.html"
