#!/usr/bin/env python3
"""MPI-IO of one process through file views: builds benches/io_bench.c against mpi-dtype
alone (its one-process MPI-IO), Debian's MPICH 4.0.2 (ROMIO) and Debian's Open MPI 4.1 (its
OMPIO), runs the three in turn, R rounds over (default 3), and prints one table: MB/s of data
written and read back through each pattern's view, the best of each program's rounds (on a
shared machine other work only slows a run), and mpi-dtype's speed over the faster peer's.

    python3 benches/io.py [--rounds R] [--reps N] [--dir DIR] [--lib PATH]

DIR holds the files (default /dev/shm, a tmpfs: the figures are the libraries', not a
disk's); each program writes and reads each pattern N times a round (default 5) and reports
its best. --lib names the library (default build/prefix/lib/libmpi_dtype.so), built with
the headers installed next to it. Needs gcc, mpicc.mpich and mpicc.openmpi. Exits nonzero if
a build or a run fails (a run fails if it reads back other data than it wrote).
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "io-bench"
SOURCE = ROOT / "benches" / "io_bench.c"
FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-D_POSIX_C_SOURCE=200809L"]
# Open MPI refuses to run as root without these, and its singleton needs no launcher.
OPEN_MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def build(lib):
    BUILD.mkdir(parents=True, exist_ok=True)
    include = lib.parent.parent / "include" / "mpi_dtype"
    programs = {
        "mpi-dtype": BUILD / "io_bench_mpi_dtype",
        "MPICH": BUILD / "io_bench_mpich",
        "Open MPI": BUILD / "io_bench_openmpi",
    }
    commands = [
        ["gcc", *FLAGS, f"-I{include}", str(SOURCE), f"-L{lib.parent}", "-lmpi_dtype",
         f"-Wl,-rpath,{lib.parent}", "-o", str(programs["mpi-dtype"])],
        ["mpicc.mpich", *FLAGS, str(SOURCE), "-o", str(programs["MPICH"])],
        ["mpicc.openmpi", *FLAGS, str(SOURCE), "-o", str(programs["Open MPI"])],
    ]
    for command in commands:
        if subprocess.run(command).returncode != 0:
            sys.exit(f"io.py: build failed: {' '.join(command)}")
    return programs


def measure(programs, options):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.startswith("MPI_DTYPE_")}
    best, order = {}, []
    for _ in range(options.rounds):
        for name, program in programs.items():
            run_env = dict(env, **OPEN_MPI_ENV) if name == "Open MPI" else env
            try:
                done = subprocess.run([str(program), options.dir, str(options.reps)], env=run_env,
                                      capture_output=True, text=True, timeout=600)
            except subprocess.TimeoutExpired:
                sys.exit(f"io.py: the {name} run timed out")
            if done.returncode != 0:
                sys.stderr.write(done.stdout + done.stderr)
                sys.exit(f"io.py: the {name} run failed (exit status {done.returncode})")
            for line in done.stdout.splitlines():
                pattern, op, value = line.rsplit(" ", 2)
                key = (pattern, op)
                if key not in order:
                    order.append(key)
                best[(name, key)] = max(best.get((name, key), 0.0), float(value))
    return best, order


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--dir", default="/dev/shm")
    parser.add_argument("--lib", type=Path, default=ROOT / "build" / "prefix" / "lib" / "libmpi_dtype.so")
    options = parser.parse_args()
    if not options.lib.exists():
        sys.exit(f"io.py: no library at {options.lib} (build and install it, or pass --lib)")
    programs = build(options.lib.resolve())
    best, order = measure(programs, options)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"One process, files in {options.dir}; MB/s of data, the best of {options.rounds} rounds "
          f"of {options.reps} repetitions; load average at the end {load}.\n")
    print("| pattern | op | mpi-dtype | MPICH | Open MPI | mpi-dtype / best peer |")
    print("|---|---|---|---|---|---|")
    for key in order:
        ours, mpich, ompi = (best.get((name, key), 0.0) for name in programs)
        peer = max(mpich, ompi)
        ratio = f"{ours / peer:.2f}" if peer else "-"
        print(f"| {key[0]} | {key[1]} | {ours:.0f} | {mpich:.0f} | {ompi:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
