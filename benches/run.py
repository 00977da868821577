#!/usr/bin/env python3
"""The benchmark of record: builds benches/pack_bench.c three times (against mpi-dtype, MPICH
and Open MPI), runs the three programs back to back on this machine, and prints one table:
GB/s of packed bytes for pack and unpack of every pattern, with the ratios ours / best peer,
ours / hand-written loop and ours / memcpy, then per-call latency, construction time and
memory, and thread scaling.

    python3 benches/run.py [--trials N] [--rounds R] [--output FILE]

Needs cargo, gcc, mpicc.mpich and mpicc.openmpi (scripts/install-deps.sh installs them).
The three programs run one after the other, R times over (default 3), so that a slow spell
of the machine does not fall on one library only; each figure is the median over the rounds
of the median of N trials (default 5), each trial repeating the operation for at least 20 ms. Small allocations are counted with glibc's thread cache off, so that the heap
figures see them.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "bench"
SOURCE = ROOT / "benches" / "pack_bench.c"
FLAGS = ["-std=c11", "-O3", "-Wall", "-Wextra", "-Werror"]
PEERS = ["MPICH", "Open MPI"]


def build():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    BUILD.mkdir(parents=True, exist_ok=True)
    lib = ROOT / "target" / "release"
    builds = {
        "mpi-dtype": ["gcc", *FLAGS, f"-I{ROOT / 'include'}", str(SOURCE), f"-L{lib}",
                      "-lmpi_dtype", f"-Wl,-rpath,{lib}", "-lpthread"],
        "MPICH": ["mpicc.mpich", *FLAGS, str(SOURCE), "-lpthread"],
        "Open MPI": ["mpicc.openmpi", *FLAGS, str(SOURCE), "-lpthread"],
    }
    programs = {}
    for name, command in builds.items():
        program = BUILD / ("pack_bench_" + name.lower().replace(" ", ""))
        subprocess.run([*command, "-o", str(program)], check=True)
        programs[name] = program
    return programs


def run(programs, trials, rounds):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               GLIBC_TUNABLES="glibc.malloc.tcache_count=0")
    samples = {}
    for _ in range(rounds):
        for name, program in programs.items():
            out = subprocess.run(["timeout", "900", str(program), name, str(trials)], env=env,
                                 check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                pattern, op, rest = line.split(" ", 2)
                impl, value, unit = rest.rsplit(" ", 2)
                samples.setdefault((pattern, op, impl), ([], unit))[0].append(float(value))
    return {key: (statistics.median(values), unit) for key, (values, unit) in samples.items()}


def ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def table(results):
    ours = "mpi-dtype"
    lines = []
    patterns = []
    for (pattern, op, impl) in results:
        if op in ("pack", "unpack") and not pattern.startswith("threads") and pattern not in patterns:
            patterns.append(pattern)
    lines.append("| pattern | op | mpi-dtype | MPICH | Open MPI | hand loop | memcpy "
                 "| ours / best peer | ours / hand | ours / memcpy |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    misses = []
    for pattern in patterns:
        for op in ("pack", "unpack"):
            get = lambda impl: results.get((pattern, op, impl), (0.0, ""))[0]
            mine, peers = get(ours), [get(p) for p in PEERS]
            best = max(peers)
            hand, copy = get("hand"), get("memcpy")
            lines.append(f"| {pattern} | {op} | {mine:.2f} | {peers[0]:.2f} | {peers[1]:.2f} "
                         f"| {hand:.2f} | {copy:.2f} | {ratio(mine, best)} | {ratio(mine, hand)} "
                         f"| {ratio(mine, copy)} |")
            if best and mine < best:
                misses.append(f"{pattern} {op}: {ratio(mine, best)}x the best peer")
            if hand and mine < 0.9 * hand:
                misses.append(f"{pattern} {op}: {ratio(mine, hand)}x the hand loop")
    lines.append("")
    lines.append("| measurement | mpi-dtype | MPICH | Open MPI |")
    lines.append("|---|---|---|---|")
    for (pattern, op) in [("small_struct", "call"), ("hindexed_1000000", "build"),
                          ("hindexed_1000000", "memory"), ("vector_1e9_blocks", "memory"),
                          ("threads_1", "pack"), ("threads_2", "pack")]:
        row = [results.get((pattern, op, impl)) for impl in [ours, *PEERS]]
        if not any(row):
            continue
        unit = next(r[1] for r in row if r)
        cells = " | ".join(f"{r[0]:.2f} {unit}" if r else "-" for r in row)
        lines.append(f"| {pattern} {op} | {cells} |")
    args = results.get(("hindexed_1000000", "memory", "arguments"))
    if args:
        lines.append("")
        lines.append(f"The argument arrays of the hindexed type take {args[0]:.2f} MiB.")
    lines.append("")
    lines.append("Below target: " + ("; ".join(misses) if misses else "none") + ".")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    programs = build()
    results = run(programs, args.trials, args.rounds)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    text = (f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} "
            f"{platform.release()}; medians over {args.rounds} rounds of medians of "
            f"{args.trials} trials.\n\n" + table(results))
    print(text)
    if args.output:
        args.output.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
