#!/usr/bin/env python3
"""What drop-in mode costs: builds benches/drop_in_bench.c against MPICH (and, for the
standalone column, against mpi-dtype alone), runs it over plain MPICH, with libmpi_dtype.so
preloaded, and standalone, and prints one table: ns per call of queries and MPI_Pack on
MPICH's own types and on the program's, us per construction + commit + free of five derived
types, us per MPI_Sendrecv to self of a derived type, and ns per message to itself
(MPI_Isend, MPI_Recv, MPI_Wait) of a predefined and of a derived type.

    python3 benches/drop_in.py [--rounds R] [--trials N] [--lib PATH] [--include DIR]

The three programs run one after the other, R times over (default 3). Each program times
the CPU time of its thread: the median of N trials (default 5) of a batch lasting at least
4 ms. Each figure of the table is the lowest of these medians over the rounds: on a shared
machine other work only adds time (shared caches, the hypervisor), so the lowest round is
the least disturbed one. glibc's malloc runs with a fixed mmap threshold and no heap
trimming (MALLOC_TUNABLES), so that large types do not pay page faults anew each time.

--lib names the library to preload (default build/prefix/lib/libmpi_dtype.so, else
target/release/libmpi_dtype.so); the standalone build uses the headers installed next to it
(<prefix>/include/mpi_dtype) or the repository's include/. Needs mpicc.mpich and gcc. Exits
nonzero if a build or a run fails, or if the preloaded run did not forward to MPICH.
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "drop-in-bench"
SOURCE = ROOT / "benches" / "drop_in_bench.c"
FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"]

# glibc's malloc with a fixed mmap threshold and no trimming of the heap: the large arrays of
# the hindexed type are then reused from one construction to the next instead of going back
# to the kernel and being faulted in again, which made that row swing between 1 and 5 ms in
# MPICH alone from one run to the next.
MALLOC_TUNABLES = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824"

# (key, label); the key is the program's name of the measurement.
CALLS = [
    ("call/size/MPI_DOUBLE", "`MPI_Type_size(MPI_DOUBLE)`"),
    ("call/extent/MPI_DOUBLE", "`MPI_Type_get_extent(MPI_DOUBLE)`"),
    ("call/pack/MPI_DOUBLE", "`MPI_Pack` of 4 `MPI_DOUBLE`"),
    ("call/size/mpich_vector", "`MPI_Type_size`, vector MPICH made"),
    ("call/extent/mpich_vector", "`MPI_Type_get_extent`, vector MPICH made"),
    ("call/pack/mpich_vector", "`MPI_Pack`, vector MPICH made (1000 x 1 double, stride 2)"),
    ("call/size/own_vector", "`MPI_Type_size`, vector the program made"),
    ("call/extent/own_vector", "`MPI_Type_get_extent`, vector the program made"),
    ("call/pack/own_vector", "`MPI_Pack`, vector the program made (1000 x 1 double, stride 2)"),
]
KINDS = [
    ("vector_1000", "vector, 1000 x 1 double, stride 2"),
    ("indexed_16", "indexed, 16 blocks of doubles"),
    ("struct_3", "struct {int; double; char[3]}"),
    ("subarray_3d", "subarray 6x64x64 of 40x128x128 floats"),
    ("hindexed_100000", "hindexed, 10^5 blocks of 1-4 doubles"),
]
COMMS = [
    ("comm/sendrecv/own_vector", "`MPI_Sendrecv` to self, vector the program made"),
    ("comm/sendrecv/mpich_vector", "`MPI_Sendrecv` to self, vector MPICH made"),
    ("comm/build-sendrecv-free/vector_1000",
     "build + commit + one `MPI_Sendrecv` + free of the vector"),
    ("comm/self-message/MPI_DOUBLE",
     "a message to itself of one `MPI_DOUBLE` (`MPI_Isend`, `MPI_Recv`, `MPI_Wait`)"),
    ("comm/self-message/contiguous_512",
     "a message to itself of a contiguous type of 512 doubles (the same three calls)"),
]


def default_lib():
    for candidate in (ROOT / "build" / "prefix" / "lib" / "libmpi_dtype.so",
                      ROOT / "target" / "release" / "libmpi_dtype.so"):
        if candidate.exists():
            return candidate
    sys.exit("drop_in.py: no libmpi_dtype.so in build/prefix/lib or target/release; "
             "build it (cargo build --release) or pass --lib")


def header_dir(lib):
    installed = lib.parent.parent / "include" / "mpi_dtype"
    if (installed / "mpi.h").exists():
        return installed
    return ROOT / "include"


def build(lib, include):
    BUILD.mkdir(parents=True, exist_ok=True)
    mpich = BUILD / "drop_in_bench_mpich"
    standalone = BUILD / "drop_in_bench_standalone"
    commands = [
        ["mpicc.mpich", *FLAGS, str(SOURCE), "-o", str(mpich)],
        ["gcc", *FLAGS, "-DBENCH_STANDALONE", f"-I{include}", str(SOURCE), f"-L{lib.parent}",
         "-lmpi_dtype", f"-Wl,-rpath,{lib.parent}", "-o", str(standalone)],
    ]
    for command in commands:
        if subprocess.run(command).returncode != 0:
            sys.exit(f"drop_in.py: build failed: {' '.join(command)}")
    return mpich, standalone


def run(name, command, env):
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        sys.exit(f"drop_in.py: the {name} run timed out")
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        sys.exit(f"drop_in.py: the {name} run failed (exit status {done.returncode})")
    return done


def measure(lib, programs, rounds, trials):
    mpich, standalone = programs
    base = {k: v for k, v in os.environ.items()
            if k not in ("LD_PRELOAD", "MPI_DTYPE_DEBUG", "MPI_DTYPE_MPI_LIBRARY")}
    base["GLIBC_TUNABLES"] = MALLOC_TUNABLES
    args = ["--trials", str(trials)]
    preloaded = dict(base, LD_PRELOAD=str(lib))
    runs = {
        "MPICH": ([str(mpich), *args], base),
        "preload": ([str(mpich), *args], preloaded),
        "standalone": ([str(standalone), *args], base),
    }
    # One short run with MPI_DTYPE_DEBUG=1 shows that the library is preloaded and forwards to
    # MPICH; the timed runs go without it, since it prints a line per new type's first message.
    check = [str(mpich), "--trials", "1", "--min-ms", "0.01"]
    done = run("preload check", check, dict(preloaded, MPI_DTYPE_DEBUG="1"))
    if "mpi-dtype: forwarding to" not in done.stderr:
        sys.stderr.write(done.stderr)
        sys.exit(f"drop_in.py: {lib} was not preloaded, or did not forward to MPICH")
    samples = {}
    for _ in range(rounds):
        for name, (command, env) in runs.items():
            done = run(name, command, env)
            for line in done.stdout.splitlines():
                key, value, unit = line.split()
                samples.setdefault((name, key), []).append(float(value))
    return {key: min(values) for key, values in samples.items()}


def fmt(value):
    if value is None:
        return "-"
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}" if value < 10 else f"{value:.1f}"


def table(results):
    def get(column, key):
        return results.get((column, key))

    lines = [
        "| measurement | unit | MPICH | preload | standalone | preload / MPICH "
        "| preload / standalone |",
        "|---|---|---|---|---|---|---|",
    ]

    def ratio(a, b):
        return f"{a / b:.2f}" if a and b else "-"

    def row(label, unit, key):
        plain, preload, alone = get("MPICH", key), get("preload", key), get("standalone", key)
        lines.append(f"| {label} | {unit} | {fmt(plain)} | {fmt(preload)} | {fmt(alone)} "
                     f"| {ratio(preload, plain)} | {ratio(preload, alone)} |")

    for key, label in CALLS:
        row(label, "ns / call", key)
    for kind, label in KINDS:
        row(f"build + commit + free: {label}", "us / type", f"build/{kind}")
    for key, label in COMMS:
        unit = "ns / message" if "self-message" in key else "us / call"
        row(label, "us / type" if "build" in key else unit, key)
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--lib", type=Path, help="the libmpi_dtype.so to preload")
    parser.add_argument("--include", type=Path, help="mpi-dtype's headers, for the standalone build")
    options = parser.parse_args()
    lib = (options.lib or default_lib()).resolve()
    if not lib.exists():
        sys.exit(f"drop_in.py: {lib} does not exist")
    programs = build(lib, (options.include or header_dir(lib)).resolve())
    results = measure(lib, programs, max(1, options.rounds), max(1, options.trials))
    print(f"Library: {lib}; lowest over {max(1, options.rounds)} rounds of medians of "
          f"{max(1, options.trials)} trials, CPU time of the thread.")
    print()
    print(table(results))


if __name__ == "__main__":
    main()
