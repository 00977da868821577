#!/usr/bin/env python3
"""The benchmark of record: builds benches/pack_bench.c against mpi-dtype, MPICH and Open MPI,
runs the programs interleaved on this machine, and prints the tables: GB/s of packed bytes for
pack and unpack of every pattern with the ratios ours / best peer and ours / hand-written loop,
per-call latencies, construction time and memory, thread scaling, and the issue's targets, each
met or not.

    python3 benches/run.py [--trials N] [--rounds R] [--only G1,G2] [--baseline LIBDIR]
                           [--output FILE]

Needs cargo, gcc, mpicc.mpich and mpicc.openmpi (scripts/install-deps.sh installs them). The
library is taken from $CARGO_TARGET_DIR/release (target/release when the variable is unset),
after `cargo build --release`.

How it tells a tie from a loss on a shared machine:
- Interleaved: each round runs every group of measurements (one pattern, the per-call rows, ...)
  in every program before the next group starts (ours, MPICH, Open MPI, ours, ...), so the
  figures a ratio compares were taken seconds apart, under the same load; the order of the
  programs turns by one each round, so that none is always the first of a group.
- Ratios per round: every ratio is computed within a round, and the table gives the median of
  the per-round ratios with their min-max over the R rounds (default 3), so a slow spell that
  hits one program once shows as a wide range, not as a loss.
- CPU time: the programs time with the CPU clock of the calling thread (each figure is the
  median of N trials, default 5, each repeating the call for at least 20 ms of CPU time), so
  time spent waiting for a core is not counted. The run also reports the share of a core each
  program got (CPU time over wall time, from the children's resource usage).

--baseline LIBDIR adds a fourth program: the same benchmark linked against the
libmpi_dtype.so found in LIBDIR (a build of an earlier commit), interleaved with the others,
and a column ours / baseline. Small allocations are counted with glibc's thread cache off, so
that the heap figures see them.
"""
import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "bench"
SOURCE = ROOT / "benches" / "pack_bench.c"
FLAGS = ["-std=c11", "-O3", "-Wall", "-Wextra", "-Werror"]
OURS = "mpi-dtype"
PEERS = ["MPICH", "Open MPI"]
BASELINE = "baseline"

# Rows whose unit is a time: lower is better.
# The first six are the queries: through a function pointer, then called directly in a loop.
QUERY_ROWS = 6
CALL_ROWS = [
    ("query_size_double", "call", "`MPI_Type_size(MPI_DOUBLE)`"),
    ("query_extent_double", "call", "`MPI_Type_get_extent(MPI_DOUBLE)`"),
    ("query_extent_vector", "call", "`MPI_Type_get_extent` of a committed vector"),
    ("query_size_double_direct", "call", "`MPI_Type_size(MPI_DOUBLE)`, called directly"),
    ("query_extent_double_direct", "call", "`MPI_Type_get_extent(MPI_DOUBLE)`, called directly"),
    ("query_extent_vector_direct", "call",
     "`MPI_Type_get_extent` of a committed vector, called directly"),
    ("small_struct", "call", "one `MPI_Pack` of `struct {int; double;}`"),
    ("build_pack_free_vector", "call", "build + commit + pack + free of a small vector"),
    ("hindexed_1000000", "build", "build + commit of an hindexed of 10^6 blocks"),
]
# Rows that are not compared: memory held, and aggregate bandwidth of threads.
OTHER_ROWS = [("hindexed_1000000", "memory"), ("vector_1e9_blocks", "memory"),
              ("threads_1", "pack"), ("threads_2", "pack")]


def library_dir():
    """Where cargo puts the release library: $CARGO_TARGET_DIR/release, else target/release."""
    target = os.environ.get("CARGO_TARGET_DIR")
    base = Path(target) if target else ROOT / "target"
    if not base.is_absolute():
        base = ROOT / base
    return base / "release"


def build(baseline):
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    BUILD.mkdir(parents=True, exist_ok=True)
    lib = library_dir()

    def against(libdir):
        return ["gcc", *FLAGS, f"-I{ROOT / 'include'}", str(SOURCE), f"-L{libdir}",
                "-lmpi_dtype", f"-Wl,-rpath,{libdir}", "-lpthread"]

    def frozen(libdir, name):
        # A copy, so that a build during the run (of this tree or the baseline's) changes
        # nothing in the programs being measured.
        copy = BUILD / name
        copy.mkdir(exist_ok=True)
        shutil.copy2(Path(libdir) / "libmpi_dtype.so", copy / "libmpi_dtype.so")
        return copy

    builds = {
        OURS: against(frozen(lib, "lib")),
        "MPICH": ["mpicc.mpich", *FLAGS, str(SOURCE), "-lpthread"],
        "Open MPI": ["mpicc.openmpi", *FLAGS, str(SOURCE), "-lpthread"],
    }
    if baseline:
        builds[BASELINE] = against(frozen(baseline, "baseline_lib"))
    programs = {}
    for name, command in builds.items():
        program = BUILD / ("pack_bench_" + name.lower().replace(" ", ""))
        subprocess.run([*command, "-o", str(program)], check=True)
        programs[name] = program
    return programs


def run(programs, trials, rounds, only):
    """samples[(pattern, op, impl)] = (list of one value per round, unit); share[impl] = list of
    CPU time / wall time per program run."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # The heap bytes of the "build" group are glibc's count of bytes in use, which counts the
    # chunks its per-thread cache holds as in use: that group runs without the cache. Every
    # other group runs with the allocator as programs have it (the cache makes MPICH's and
    # Open MPI's type construction 1.4 to 1.9 times faster).
    measured_heap = dict(env, GLIBC_TUNABLES="glibc.malloc.tcache_count=0")
    first = next(iter(programs.values()))
    groups = subprocess.run([str(first), OURS, "1", "list"], env=env, check=True,
                            capture_output=True, text=True).stdout.split()
    if only:
        unknown = set(only) - set(groups)
        if unknown:
            sys.exit(f"unknown groups: {', '.join(sorted(unknown))}; known: {', '.join(groups)}")
        groups = [g for g in groups if g in only]
    samples, share = {}, {}
    names = list(programs)
    for r in range(rounds):
        # The order turns by one program each round, so that none is always the first to run
        # after the previous group (which pays for the memory the previous programs freed).
        order = names[r % len(names):] + names[:r % len(names)]
        for group in groups:
            for name in order:
                program = programs[name]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.monotonic()
                out = subprocess.run(["timeout", "900", str(program), name, str(trials), group],
                                     env=measured_heap if group == "build" else env,
                                     check=True, capture_output=True, text=True).stdout
                wall = time.monotonic() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                share.setdefault(name, []).append(cpu / wall if wall > 0 else 1.0)
                for line in out.splitlines():
                    pattern, op, rest = line.split(" ", 2)
                    impl, value, unit = rest.rsplit(" ", 2)
                    samples.setdefault((pattern, op, impl), ([], unit))[0].append(float(value))
    return samples, share


def spread(values, digits=2):
    """`median (min-max)` of a list of numbers, or - when there are none."""
    if not values:
        return "-"
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.{digits}f}"
    return f"{med:.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


class Results:
    def __init__(self, samples):
        self.samples = samples

    def values(self, pattern, op, impl):
        return self.samples.get((pattern, op, impl), ([], ""))[0]

    def unit(self, pattern, op):
        return next((u for (p, o, _), (_, u) in self.samples.items() if (p, o) == (pattern, op)), "")

    def median(self, pattern, op, impl):
        v = self.values(pattern, op, impl)
        return statistics.median(v) if v else 0.0

    def ratios(self, pattern, op, versus, faster_is_lower=False, of=OURS):
        """Per-round speed ratios of `of` (ours by default) against `versus` (a name, or a
        list whose best is taken in each round): > 1 means `of` is faster."""
        mine = self.values(pattern, op, of)
        names = versus if isinstance(versus, list) else [versus]
        others = [self.values(pattern, op, n) for n in names]
        out = []
        for r, m in enumerate(mine):
            row = [o[r] for o in others if r < len(o) and o[r] > 0]
            if not row or m <= 0:
                continue
            if faster_is_lower:
                out.append(min(row) / m)
            else:
                out.append(m / max(row))
        return out


def pattern_table(res, has_baseline):
    patterns = []
    for (pattern, op, _impl) in res.samples:
        if op in ("pack", "unpack") and not pattern.startswith("threads") \
                and pattern not in patterns:
            patterns.append(pattern)
    head = "| pattern | op | mpi-dtype | MPICH | Open MPI | hand loop | memcpy " \
           "| ours / best peer | ours / hand |"
    rule = "|---|---|---|---|---|---|---|---|---|"
    if has_baseline:
        head += " ours / baseline |"
        rule += "---|"
    lines = [head, rule]
    for pattern in patterns:
        for op in ("pack", "unpack", "sendrecv"):
            cells = [f"{res.median(pattern, op, impl):.2f}"
                     for impl in (OURS, *PEERS, "hand", "memcpy")]
            row = (f"| {pattern} | {op} | " + " | ".join(cells)
                   + f" | {spread(res.ratios(pattern, op, PEERS))}"
                   + f" | {spread(res.ratios(pattern, op, 'hand'))} |")
            if has_baseline:
                row += f" {spread(res.ratios(pattern, op, BASELINE))} |"
            lines.append(row)
    return lines


def call_table(res, has_baseline):
    head = "| measurement | unit | mpi-dtype | MPICH | Open MPI | speed: best peer / ours |"
    rule = "|---|---|---|---|---|---|"
    if has_baseline:
        head = head.replace(" | mpi-dtype", " | baseline | mpi-dtype")
        rule += "---|"
    lines = [head, rule]
    for pattern, op, label in CALL_ROWS:
        if not res.values(pattern, op, OURS):
            continue
        impls = ([BASELINE] if has_baseline else []) + [OURS, *PEERS]
        cells = " | ".join(spread(res.values(pattern, op, i)) for i in impls)
        ratio = spread(res.ratios(pattern, op, PEERS, faster_is_lower=True))
        lines.append(f"| {label} | {res.unit(pattern, op)} | {cells} | {ratio} |")
    other = [(p, o) for p, o in OTHER_ROWS if res.values(p, o, OURS)]
    if other:
        lines.append("")
        lines.append("| measurement | unit | mpi-dtype | MPICH | Open MPI |")
        lines.append("|---|---|---|---|---|")
    for pattern, op in other:
        cells = " | ".join(spread(res.values(pattern, op, i)) for i in [OURS, *PEERS])
        lines.append(f"| {pattern} {op} | {res.unit(pattern, op)} | {cells} |")
    args = res.values("hindexed_1000000", "memory", "arguments")
    if args:
        lines.append("")
        lines.append(f"The argument arrays of the hindexed type take {args[0]:.2f} MiB.")
    return lines


def targets(res):
    """The issue's targets: (description, per-round values, threshold, higher is better)."""
    rows = []

    def speed(label, pattern, op, versus, faster_is_lower=False):
        rows.append((label, res.ratios(pattern, op, versus, faster_is_lower), "≥ 1", 1.0))

    for pattern, _op, label in CALL_ROWS[:QUERY_ROWS]:
        speed(f"{label}: speed vs the best peer", pattern, "call", PEERS, True)
    speed("build + commit + pack + free of a small vector: speed vs the best peer",
          "build_pack_free_vector", "call", PEERS, True)
    small = res.values("small_struct", "call", OURS)
    rows.append(("one `MPI_Pack` of `struct {int; double;}`, ns (every round)", small,
                 "≤ 20", 20.0))
    for op in ("pack", "unpack"):
        speed(f"indexed runs of 1 to 64 doubles, {op} vs the best peer",
              "indexed_runs_1_to_64", op, PEERS)
    speed("HDF5 irregular selection, unpack vs the best peer", "hdf5_irregular", "unpack", PEERS)
    speed("array of structs, pack vs the hand-written loop", "array_of_structs", "pack", "hand")
    speed("128-byte blocks of 256, pack vs the best peer", "blocks_128_bytes", "pack", PEERS)
    lines = ["| target | measured: median (min-max over rounds) | target | met |",
             "|---|---|---|---|"]
    for label, values, text, limit in rows:
        if not values:
            continue
        med = statistics.median(values)
        if text.startswith("≤"):
            met = "met" if max(values) <= limit else "not met"
        else:
            met = "met" if med >= limit else "not met"
        lines.append(f"| {label} | {spread(values)} | {text} | {met} |")
    return lines


def regressions(res):
    """Patterns at or above the best peer with the baseline library and below it with ours
    (medians of the per-round ratios), split into those where ours was slower than the
    baseline in every round (a loss) and the others (a tie with the baseline that the noise
    put on the other side of the best peer)."""
    lost, tied = [], []
    for (pattern, op, impl) in res.samples:
        if impl != BASELINE or op not in ("pack", "unpack"):
            continue
        before = res.ratios(pattern, op, PEERS, of=BASELINE)
        now = res.ratios(pattern, op, PEERS)
        if not before or not now:
            continue
        b, n = statistics.median(before), statistics.median(now)
        if b >= 1 and n < 1:
            versus = res.ratios(pattern, op, BASELINE)
            text = f"{pattern} {op} ({b:.2f} -> {n:.2f} of the best peer, " \
                   f"ours / baseline {spread(versus)})"
            (lost if versus and max(versus) < 1 else tied).append(text)
    return lost, tied


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="comma-separated groups (pack_bench <lib> 1 list)")
    parser.add_argument("--baseline", help="directory holding an earlier libmpi_dtype.so")
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    programs = build(args.baseline)
    only = args.only.split(",") if args.only else None
    samples, share = run(programs, args.trials, args.rounds, only)
    res = Results(samples)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    load = os.getloadavg()
    shares = ", ".join(f"{name} {spread(v)}" for name, v in share.items())
    lines = [f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
             f"{args.rounds} interleaved rounds, each figure the median of {args.trials} trials "
             f"in CPU time; load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
             f"share of a core each program got: {shares}.", ""]
    lines += pattern_table(res, bool(args.baseline))
    lines.append("")
    lines += call_table(res, bool(args.baseline))
    lines.append("")
    lines += targets(res)
    if args.baseline:
        lost, tied = regressions(res)
        lines.append("")
        lines.append("At or above the best peer with the baseline, below it now and slower than "
                     "the baseline in every round: " + ("; ".join(lost) if lost else "none") + ".")
        lines.append("")
        lines.append("At or above the best peer with the baseline and below it now, but not "
                     "slower than the baseline in every round: "
                     + ("; ".join(tied) if tied else "none") + ".")
    text = "\n".join(lines)
    print(text)
    if args.output:
        args.output.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
