#!/usr/bin/env python3
"""Derived-type messages in drop-in mode: builds benches/comm_bench.c (with
benches/app_patterns.c) with mpicc.mpich, runs it on two processes over plain MPICH and with
libmpi_dtype.so preloaded under each MPI_DTYPE_COMM mode (mpi, engine, auto), and prints one
table: milliseconds per message of each pattern, for each configuration, for the message
packed and unpacked by hand with MPI_Pack, and for the application's own copy loop, with the
speed-ups plain / auto and plain / engine.

The patterns (--set): `basic`, the benchmark's own seven (an array of structs, two vectors, a
random gather, two faces of a 256^3 grid, a 3-D halo exchange); `apps`, the exchange patterns
of real applications as the field's datatype benchmarks describe them (WRF's halos as vectors
and as subarrays, MILC, NAS LU and MG, LAMMPS, SPECFEM3D, and a 2-D FFT's transpose by
MPI_Alltoall, MPI_Ialltoall and MPI_Alltoallv: app_patterns.c); `all`, both.

    python3 benches/comm.py [--set basic|apps|all] [--rounds R] [--reps N] [--stat best|median]
                            [--lib PATH] [--mpi RUNTIME] [--timeout S] [--peers auto|any|preloaded]
                            [--patterns NAME,...] [--openmpi] [--shm]

What is timed (comm_bench.c says more): one message from rank 0 to rank 1, as a ping with a
zero-byte acknowledgement, so that the time covers packing, transfer and unpacking; wall
time (MPI_Wtime) on rank 0, after an MPI_Barrier. Each run times N messages (default 40) per
pattern, after one message whose received bytes are checked and 2 to 128 untimed ones to
warm up (MPICH over UCX runs its first 64 or so eager messages between two processes
several times slower than the rest: warmups() in comm_bench.h), and the table takes the
fastest of them (--stat best, the default: on a shared machine other work only adds time, so
the fastest message is the least disturbed one, and it moved least between runs here) or
their median (--stat median: the typical message, with the disturbances in it); the halo
pattern times one exchange of six faces with MPI_Isend / MPI_Irecv / MPI_Waitall (the
longer of the two ranks), and so does the FFT transpose (one MPI_Alltoall). Three variants of
the others: "typed" (MPI_Send / MPI_Recv of the derived type, MPI_Alltoall of the types for
the FFT), "packed" (MPI_Pack, MPI_Send of MPI_PACKED, MPI_Recv, MPI_Unpack, by hand: with
MPICH's MPI_Pack in the plain run, mpi-dtype's in the preloaded runs) and "manual" (the
application's own loop: a memcpy of each contiguous run into a buffer, MPI_BYTEs, and back).
"auto >= best of plain and the loop" asks the question of an application: is sending the
type under the preload at least as fast as the better of what it does without mpi-dtype,
sending the type with MPICH or packing with its own loop?

With --shm the plain run also times a fourth variant, "shm" (benches/shm_pipeline.c): the
application's loop pipelined through memory the two processes share, rank 0 copying the runs
in chunks of 16 KiB into a ring of 16 slots and rank 1 copying each chunk out as soon as it
is there. It is no MPI path but what a node-local transport of mpi-dtype's own would do
(Open MPI's shared-memory transport moves a derived type so): its column tells how fast such
a transport could move each pattern on this machine.

The four configurations, each one `timeout S mpiexec.mpich -n 2 ...` (default S = 300):
  plain    no preload;
  mpi      -genv LD_PRELOAD <lib> -genv MPI_DTYPE_COMM mpi: MPICH moves the types itself;
  engine   ... MPI_DTYPE_COMM engine: mpi-dtype packs every derived type and sends bytes;
  auto     ... MPI_DTYPE_COMM auto: mpi-dtype chooses per type.
With --openmpi a fifth configuration, "openmpi", runs the same program built with Debian's
Open MPI 4.1 (mpicc.openmpi; `timeout S mpiexec.openmpi --oversubscribe -n 2 ...`, allowed to
run as root) with no preload, in the same interleaved rounds: its column is the time Open MPI
takes to move each type, and "auto >= Open MPI" asks whether sending the type under the
preload is at least as fast as Open MPI sending it.
The preloaded runs get -genv MPI_DTYPE_PEERS with the value of --peers: auto (the default:
both ranks learn at MPI_Init that both run mpi-dtype, so the sends of types whose basic
entries differ in size may be sent as bytes over MPICH 4 too, also those whose type
signature has short runs), any (they learn nothing, and send those as to a rank without
mpi-dtype) or preloaded (they are told that both run mpi-dtype). They run one after the
other, R times over (default 3), the order turning by one each round (plain, mpi, engine,
auto; then mpi, engine, auto, plain; ...), so that the figures a ratio
compares were taken seconds apart and none is always first. A cell of milliseconds is the
median over the rounds of each run's figure; a ratio is computed within each round (plain
time / other time: above 1, the other is faster) and given as the median of the per-round
ratios with their min-max.

"auto >= plain" says whether auto is at least as fast as plain MPICH: "yes" when the median
of the per-round ratios plain / auto is 1 or more; "within noise" when it is below 1 by less
than the noise; "no" when it is below 1 by more than that. The noise of a pattern is how far
the same program moved from round to round in this run: for each configuration, (max - min)
/ median of its per-round times, and the largest of these over the four configurations. On
a quiet machine it is a few hundredths and the verdict is sharp; while other work competes
for the two cores it grows, and the cell shows by how much.

--lib names the library to preload (default build/prefix/lib/libmpi_dtype.so); it is copied
to build/comm-bench/ first, so that an install during the run changes nothing. --mpi runs
every configuration on another runtime of MPICH's ABI through scripts/with-mpi.sh (mpich4,
mpich5, impi; the program is built with mpicc.mpich either way), or on Open MPI 4.1 or 5.0
(ompi4, ompi5: the program built with that Open MPI's mpicc, libmpi_dtype_ompi.so preloaded
by default, the variables passed with -x; "plain" is then plain Open MPI). Exits nonzero if the build
or a run fails (a wrong message makes comm_bench exit nonzero), if a run times out, or if a
preloaded run did not forward to an MPI library.
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from run import spread  # benches/run.py: `median (min-max)` of a list of numbers

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "comm-bench"
SOURCES = [ROOT / "benches" / "comm_bench.c", ROOT / "benches" / "app_patterns.c",
           ROOT / "benches" / "shm_pipeline.c"]
FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"]

# (configuration, MPI_DTYPE_COMM or None for no preload)
CONFIGS = [("plain", None), ("mpi", "mpi"), ("engine", "engine"), ("auto", "auto")]
# plain Open MPI (--openmpi): the program built with mpicc.openmpi, no preload
OPEN_MPI = ("openmpi", None)
# What running Open MPI as root takes, and two ranks on two cores.
OPEN_MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}

# (comm_bench's name, label in the table): the benchmark's own patterns
BASIC_PATTERNS = [
    ("struct_int_double_char3", "2^18 structs {int; double; char[3]}"),
    ("vector_1_of_2", "vector, 1 double of 2"),
    ("gather_random_1", "random gather, 1 double at 2^18 indices"),
    ("face_x", "256^3 grid, x face: single doubles"),
    ("vector_16_of_32", "vector, 128 B of 256 B"),
    ("face_y", "256^3 grid, y face: rows of 2 KiB"),
    ("halo_3d", "halo exchange, 6 faces of 128^3"),
]
# and the exchange patterns of real applications (benches/app_patterns.c)
APP_PATTERNS = [
    ("wrf_x_vec", "WRF x halo, vectors (12 B runs)"),
    ("wrf_y_vec", "WRF y halo, vectors (64 B runs)"),
    ("wrf_x_sa", "WRF x halo, subarrays"),
    ("wrf_y_sa", "WRF y halo, subarrays"),
    ("milc_su3_zd", "MILC su3 z down (1.5 KiB runs)"),
    ("nas_lu_x", "NAS LU x (contiguous)"),
    ("nas_lu_y", "NAS LU y (40 B runs)"),
    ("nas_mg_x", "NAS MG x face (single doubles)"),
    ("nas_mg_y", "NAS MG y face (1 KiB rows)"),
    ("nas_mg_z", "NAS MG z face (1 KiB rows)"),
    ("lammps_full", "LAMMPS full: struct of indexed blocks, doubles and ints"),
    ("lammps_atomic", "LAMMPS atomic: struct of indexed blocks"),
    ("specfem3d_oc", "SPECFEM3D outer core: single floats, random"),
    ("specfem3d_cm", "SPECFEM3D crust-mantle: struct of indexed blocks of 3 floats"),
    ("specfem3d_mt", "SPECFEM3D mesh transpose: every other 3 floats"),
    ("fft_transpose", "2-D FFT transpose, MPI_Alltoall (4.7 MB a rank)"),
    ("fft_transpose_i", "2-D FFT transpose, MPI_Ialltoall and MPI_Wait"),
    ("fft_transpose_v", "2-D FFT transpose, MPI_Alltoallv"),
    ("fft_transpose_w", "2-D FFT transpose, MPI_Alltoallw"),
]
SETS = {"basic": BASIC_PATTERNS, "apps": APP_PATTERNS, "all": BASIC_PATTERNS + APP_PATTERNS}


# the runtimes of Open MPI's ABI (--mpi): the program is built with their own mpicc, and
# libmpi_dtype_ompi.so is preloaded
OPEN_MPI_RUNTIMES = ("ompi4", "ompi5")


def is_open_mpi(options):
    return options.mpi in OPEN_MPI_RUNTIMES


def build(compiler=("mpicc.mpich",), name="comm_bench"):
    BUILD.mkdir(parents=True, exist_ok=True)
    program = BUILD / name
    command = [*compiler, *FLAGS, *map(str, SOURCES), "-o", str(program)]
    if subprocess.run(command).returncode != 0:
        sys.exit(f"comm.py: build failed: {' '.join(command)}")
    return program


def configs(options):
    """The configurations of this run: the four, and plain Open MPI with --openmpi."""
    return CONFIGS + [OPEN_MPI] if options.openmpi else CONFIGS


def exports_point_to_point(lib):
    """Whether the library defines MPI_Send: the preload can only take over point-to-point
    calls if it does."""
    done = subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True,
                          text=True)
    return any(line.split()[-1] == "MPI_Send" for line in done.stdout.splitlines()
               if line.split())


def launcher(runtime):
    if runtime:
        return [str(ROOT / "scripts" / "with-mpi.sh"), runtime, "mpiexec"]
    return ["mpiexec.mpich"]


def run_once(name, mode, program, lib, options, env):
    if (name, mode) == OPEN_MPI:
        program, env = program.with_name(program.name + "_openmpi"), {**env, **OPEN_MPI_ENV}
        start = ["mpiexec.openmpi", "--oversubscribe"]
    else:
        start = launcher(options.mpi)
    command = ["timeout", "--kill-after=10", str(options.timeout), *start, "-n", "2"]
    if mode:
        variables = [("LD_PRELOAD", str(lib)), ("MPI_DTYPE_COMM", mode),
                     ("MPI_DTYPE_PEERS", options.peers), ("MPI_DTYPE_DEBUG", "1")]
        for variable, value in variables:
            # Open MPI's mpiexec: -x NAME=VALUE; Hydra's: -genv NAME VALUE
            command += (["-x", f"{variable}={value}"] if is_open_mpi(options)
                        else ["-genv", variable, value])
    variants = "typed,packed,manual" + (",shm" if options.shm and name == "plain" else "")
    command += [str(program), "--reps", str(options.reps), "--variants", variants,
                "--only", ",".join(name for name, _ in chosen(options))]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode == 124 or done.returncode == 137:
        sys.stderr.write(done.stdout + done.stderr)
        sys.exit(f"comm.py: the {name} run timed out after {options.timeout} s")
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        sys.exit(f"comm.py: the {name} run failed (exit status {done.returncode})")
    if mode and "mpi-dtype: forwarding to" not in done.stderr:
        sys.stderr.write(done.stderr)
        sys.exit(f"comm.py: {lib} was not preloaded in the {name} run, or did not forward "
                 "to an MPI library")
    out = {}
    for line in done.stdout.splitlines():
        fields = line.split()
        if len(fields) != 6:
            continue
        pattern, variant, size, median, best, _reps = fields
        out[(pattern, variant)] = (int(size), float(best if options.stat == "best" else median))
    return out


def measure(program, lib, options):
    """samples[(config, pattern, variant)] = per-round seconds; sizes[pattern] = bytes."""
    env = {k: v for k, v in os.environ.items()
           if k != "LD_PRELOAD" and not k.startswith("MPI_DTYPE_")}
    samples, sizes = {}, {}
    every = configs(options)
    for r in range(options.rounds):
        order = every[r % len(every):] + every[:r % len(every)]
        for name, mode in order:
            start = time.monotonic()
            out = run_once(name, mode, program, lib, options, env)
            print(f"round {r + 1}/{options.rounds}: {name} in {time.monotonic() - start:.1f} s",
                  file=sys.stderr, flush=True)
            for (pattern, variant), (size, seconds) in out.items():
                sizes[pattern] = size
                samples.setdefault((name, pattern, variant), []).append(seconds)
    return samples, sizes


def ms(values):
    if not values:
        return "-"
    value = 1e3 * statistics.median(values)
    # Three significant figures or more: the messages of a few KB take a few µs.
    return f"{value:.5f}" if value < 0.01 else f"{value:.3f}" if value < 1 else f"{value:.2f}"


def ratios(samples, pattern, other, variant="typed"):
    """Per-round plain time / `other` time (above 1: `other` is faster)."""
    plain = samples.get(("plain", pattern, variant), [])
    mine = samples.get((other, pattern, variant), [])
    return [p / m for p, m in zip(plain, mine) if m > 0]


def noise(samples, pattern, compared=CONFIGS):
    """The largest relative round-to-round spread of the times of one of the configurations
    `compared`."""
    spreads = []
    for config, _ in compared:
        values = samples.get((config, pattern, "typed"), [])
        if values and statistics.median(values) > 0:
            spreads.append((max(values) - min(values)) / statistics.median(values))
    return max(spreads, default=0.0)


def judged(versus, noise_):
    """`yes`, `within noise (r, noise n)` or `no (r, noise n)` for per-round ratios `versus`
    of another time over auto's (1 or more: auto is at least as fast)."""
    if not versus:
        return "-"
    med = statistics.median(versus)
    if med >= 1:
        return "yes"
    if len(versus) < 2:
        return f"no ({med:.2f}; one round, no noise to compare with)"
    if med >= 1 - noise_:
        return f"within noise ({med:.2f}, noise {noise_:.2f})"
    return f"no ({med:.2f}, noise {noise_:.2f})"


def verdict(samples, pattern):
    return judged(ratios(samples, pattern, "auto"), noise(samples, pattern))


def best_of_plain(samples, pattern):
    """Per round, the faster of plain MPICH moving the type and the application's own loop
    (plain run, manual variant), over auto's time."""
    plain = samples.get(("plain", pattern, "typed"), [])
    manual = samples.get(("plain", pattern, "manual"), [])
    auto = samples.get(("auto", pattern, "typed"), [])
    return [min(p, m) / a for p, m, a in zip(plain, manual, auto) if a > 0]


def versus_open_mpi(samples, pattern):
    """Per round, Open MPI's time moving the type over auto's."""
    open_mpi = samples.get(("openmpi", pattern, "typed"), [])
    auto = samples.get(("auto", pattern, "typed"), [])
    return [o / a for o, a in zip(open_mpi, auto) if a > 0]


def table(samples, sizes, patterns, open_mpi, shm):
    head = ("| pattern | MB sent | plain | preload mpi | preload engine | preload auto "
            "| by hand, MPICH's pack | by hand, mpi-dtype's pack | the application's loop "
            "| plain / auto | plain / engine | auto >= plain | auto >= best of plain and the loop |")
    columns = 13
    if open_mpi:
        head += " plain Open MPI | auto >= Open MPI |"
        columns += 2
    if shm:
        head += " the loop through shared memory |"
        columns += 1
    lines = [head, "|" + "---|" * columns]
    for pattern, label in patterns:
        if pattern not in sizes:
            continue
        cells = [ms(samples.get((config, pattern, "typed"), [])) for config, _ in CONFIGS]
        by_hand = [ms(samples.get(("plain", pattern, "packed"), [])),
                   ms(samples.get(("mpi", pattern, "packed"), [])),
                   ms(samples.get(("plain", pattern, "manual"), []))]
        noise_ = noise(samples, pattern)
        line = (f"| {label} | {sizes[pattern] / 1e6:.3f} | "
                + " | ".join(cells + by_hand)
                + f" | {spread(ratios(samples, pattern, 'auto'))}"
                + f" | {spread(ratios(samples, pattern, 'engine'))}"
                + f" | {verdict(samples, pattern)}"
                + f" | {judged(best_of_plain(samples, pattern), noise_)} |")
        if open_mpi:
            line += (f" {ms(samples.get(('openmpi', pattern, 'typed'), []))}"
                     f" | {judged(versus_open_mpi(samples, pattern), noise(samples, pattern, [OPEN_MPI, ('auto', 'auto')]))} |")
        if shm:
            line += f" {ms(samples.get(('plain', pattern, 'shm'), []))} |"
        lines.append(line)
    return lines


def chosen(options):
    """The patterns of the set, or those of them --patterns names."""
    names = options.patterns.split(",") if options.patterns else None
    return [(name, title) for name, title in SETS[options.set] if not names or name in names]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=40, help="timed messages per pattern and run")
    parser.add_argument("--stat", choices=["best", "median"], default="best",
                        help="each run's figure: its fastest message, or the median one")
    parser.add_argument("--lib", type=Path,
                        help="the library to preload (default build/prefix/lib/libmpi_dtype.so, "
                             "or libmpi_dtype_ompi.so over Open MPI)")
    parser.add_argument("--mpi", choices=["mpich4", "mpich5", "impi", *OPEN_MPI_RUNTIMES],
                        help="run on this runtime through scripts/with-mpi.sh")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per mpiexec")
    parser.add_argument("--set", choices=sorted(SETS), default="basic",
                        help="the benchmark's own patterns, the applications', or both")
    parser.add_argument("--peers", choices=["auto", "any", "preloaded"], default="auto",
                        help="MPI_DTYPE_PEERS of the preloaded runs")
    parser.add_argument("--patterns", help="only these patterns of the set (names, comma-separated)")
    parser.add_argument("--openmpi", action="store_true",
                        help="also time plain Open MPI (mpicc.openmpi, mpiexec.openmpi)")
    parser.add_argument("--shm", action="store_true",
                        help="also time the application's loop pipelined through shared memory "
                             "(the plain run's shm variant)")
    options = parser.parse_args()
    if not chosen(options):
        sys.exit(f"comm.py: --patterns names none of the patterns of the set {options.set}")
    options.rounds = max(1, options.rounds)
    options.reps = max(1, options.reps)
    if options.openmpi and is_open_mpi(options):
        sys.exit("comm.py: --openmpi adds plain Open MPI to a run over MPICH's ABI; over Open "
                 "MPI (--mpi ompi4|ompi5) the plain column is Open MPI already")
    default_lib = "libmpi_dtype_ompi.so" if is_open_mpi(options) else "libmpi_dtype.so"
    lib = (options.lib or ROOT / "build" / "prefix" / "lib" / default_lib).resolve()
    if not lib.exists():
        sys.exit(f"comm.py: {lib} does not exist (cmake --build build/lib && "
                 "cmake --install build/lib, or pass --lib)")
    if is_open_mpi(options):
        program = build((str(ROOT / "scripts" / "with-mpi.sh"), options.mpi, "mpicc"),
                        f"comm_bench_{options.mpi}")
    else:
        program = build()
    if options.openmpi:
        build(("mpicc.openmpi",), program.name + "_openmpi")
    frozen = BUILD / lib.name
    shutil.copy2(lib, frozen)
    samples, sizes = measure(program, frozen, options)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    load = os.getloadavg()
    runtime = options.mpi or "Debian's MPICH 4.0.2 (mpiexec.mpich)"
    if is_open_mpi(options):
        runtime += " (plain: Open MPI itself)"
    open_mpi = ", and Debian's Open MPI 4.1 (mpiexec.openmpi)" if options.openmpi else ""
    if exports_point_to_point(lib):
        p2p = "defines MPI_Send: MPI_DTYPE_COMM chooses the path of the preloaded runs"
    else:
        p2p = ("does not define MPI_Send: MPI_DTYPE_COMM changes nothing, and the three "
               "preload columns all measure MPICH moving the types")
    print(f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
          f"runtime {runtime}{open_mpi}; MPI_DTYPE_PEERS={options.peers}; {options.rounds} "
          f"interleaved rounds of {len(configs(options))} runs; ms per message "
          f"(wall time), each run's {'fastest' if options.stat == 'best' else 'median'} of "
          f"{options.reps} messages, the median over the rounds; load average at the end "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}.")
    print(f"Library: {lib}, which {p2p}.")
    print()
    lines = table(samples, sizes, chosen(options), options.openmpi, options.shm)
    if is_open_mpi(options):
        lines[0] = lines[0].replace("MPICH's pack", "Open MPI's pack")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
