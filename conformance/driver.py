#!/usr/bin/env python3
"""Runs the conformance harness built against mpi-dtype, MPICH and Open MPI over the same
seeds and compares what they say.

* mpi-dtype must agree with the naive type-map model (model.py) on every line of every seed
  and must never crash: any difference is a failure.
* Every line where MPICH (or Open MPI) differs from mpi-dtype must be explained by a known
  deviation of that library (deviations/<library>.toml): a deviation names the feature of a
  type it depends on and the lines it can change. An unexplained difference is a failure.
  A crash or hang of MPICH or Open MPI is recorded, not a failure.
* With --reproducers, every listed deviation's reproducer is run too: mpi-dtype must give
  the standard's answer and the library the answer the list says it gives.

Example (what ctest runs):
  driver.py --mpi-dtype build/harness_mpi_dtype --mpich build/harness_mpich \
            --openmpi build/harness_openmpi --seeds 20000 --reproducers
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import dataclasses
import os
import re
import subprocess
import sys
import time
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Seeds run and compared at a time.
BATCH = 20000

# Environment for the MPI libraries' singleton runs (Open MPI refuses root without it).
MPI_ENV = dict(
    os.environ,
    OMPI_ALLOW_RUN_AS_ROOT="1",
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
    OMPI_MCA_btl="self",
)


@dataclasses.dataclass
class Failure:
    """A seed on which a harness crashed, hung or failed to start."""

    what: str  # "crash" or "hang"
    detail: str


# Lines the harness prints with HARNESS_EXTRA_LINES=1: MPI_Pack_external / MPI_Unpack_external
# and MPI_Get_elements / MPI_Get_count on partial data. mpi-dtype always prints them (checked
# against the model); MPICH and Open MPI only with --extra-lines (docs/conformance.md).
EXTRA_FIELDS = (
    "ext", "unext", "elements", "size_c", "extent_c", "true_extent_c", "pack_c", "unpack_c", "elements_c",
)
# The large-count lines: a library without the MPI-4 `_c` functions (Open MPI 4.1) prints none.
LARGE_COUNT_FIELDS = ("size_c", "extent_c", "true_extent_c", "pack_c", "unpack_c", "elements_c")
# Every EXTRA_EVERY-th seed (and every reproducer) gets them.
EXTRA_EVERY = 10
EXTRA_ENV = dict(MPI_ENV, HARNESS_EXTRA_LINES=str(EXTRA_EVERY))


def field(line: str) -> str:
    """The key of an output line: its first word."""
    return line.split(" ", 1)[0]


def parse_blocks(stdout: str):
    """The complete `seed S` ... `end S` blocks of a harness's output: {S: lines between}."""
    blocks, current, lines = {}, None, []
    for line in stdout.split("\n"):
        if line.startswith("seed "):
            current, lines = int(line.split()[1]), []
        elif line.startswith("end ") and current is not None:
            blocks[current] = lines
            current = None
        elif current is not None:
            lines.append(line)
    return blocks


def run_chunk(path: str, first: int, count: int, timeout: float, env=MPI_ENV):
    """Runs one harness over seeds [first, first + count). Returns {seed: lines or Failure}.
    After a crash or hang the remaining seeds are run by a new process."""
    results = {}
    start = first
    while start < first + count:
        try:
            proc = subprocess.run(
                [path, str(start), str(first + count - start)],
                capture_output=True,
                text=True,
                errors="replace",
                env=env,
                timeout=timeout,
            )
            stdout, code, stderr = proc.stdout, proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as exc:
            stdout = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else exc.stdout or ""
            code, stderr = None, "timed out"
        blocks = parse_blocks(stdout)
        results.update(blocks)
        last_done = max(blocks, default=start - 1)
        if code == 0 and last_done == first + count - 1:
            break
        broken = last_done + 1
        if code is None:
            results[broken] = Failure("hang", f"no answer within {timeout:.0f} s")
        else:
            reason = f"signal {-code}" if code < 0 else f"exit status {code}"
            tail = " | ".join(stderr.strip().splitlines()[-3:])
            results[broken] = Failure("crash", f"{reason}: {tail}"[:300])
        start = broken + 1
    return results


def run_harness(path: str, first: int, count: int, jobs: int, env=MPI_ENV):
    """Runs a harness over seeds [first, first + count) in `jobs` parallel processes."""
    chunk = max(1, -(-count // jobs))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(run_chunk, path, s, min(chunk, first + count - s), 120 + chunk * 0.05, env)
            for s in range(first, first + count, chunk)
        ]
        for f in futures:
            results.update(f.result())
    return results


@dataclasses.dataclass
class Deviation:
    """A known way in which a library departs from the standard (one TOML table)."""

    id: str
    title: str
    verdict: str
    feature: str
    fields: list
    standard: str
    reproducer: str
    expected: list
    observed: list
    value: str | None = None
    # A departure on the external32 or partial-data lines only (EXTRA_FIELDS): used with
    # --extra-lines, and its reproducer is run with those lines.
    extra: bool = False

    def explains(self, features: set, line: str) -> bool:
        """Whether this deviation can explain the library printing `line` for a type with
        `features` where mpi-dtype printed something else."""
        key = field(line)
        if key in LARGE_COUNT_FIELDS:
            key = key[: -len("_c")]  # the large-count line of a field departs as it does
        if self.feature not in features or key not in self.fields:
            return False
        return self.value is None or re.fullmatch(self.value, line) is not None


def load_deviations(library: str):
    path = os.path.join(HERE, "deviations", f"{library}.toml")
    with open(path, "rb") as f:
        data = tomllib.load(f)
    out = [Deviation(**entry) for entry in data.get("deviation", [])]
    for dev in out:
        if dev.verdict not in ("deviation", "allowed"):
            raise SystemExit(f"{path}: {dev.id}: verdict must be 'deviation' or 'allowed'")
    return out


def model_lines(lines, seed=0):
    """The model's prediction for a block of mpi-dtype output (recipe and region lines
    first)."""
    recipe = lines[0][len("recipe ") :]
    region = int(lines[1].split()[1])
    return lines[:2] + model.predict(recipe, region, seed % EXTRA_EVERY == 0)


def check_against_model(ours, problems):
    """mpi-dtype against the model; appends a message per disagreeing seed."""
    for seed, lines in sorted(ours.items()):
        if isinstance(lines, Failure):
            problems.append(f"seed {seed}: mpi-dtype {lines.what}: {lines.detail}")
            continue
        expected = model_lines(lines, seed)
        if lines != expected:
            diff = [f"    model: {e}\n    ours:  {g}" for e, g in zip(expected, lines) if e != g]
            if len(lines) != len(expected):
                diff.append(f"    {len(expected)} lines expected, {len(lines)} printed")
            problems.append(f"seed {seed}: mpi-dtype differs from the model on {lines[0]}\n" + "\n".join(diff))


@dataclasses.dataclass
class Comparison:
    """What one library did over all seeds, relative to mpi-dtype."""

    library: str
    seeds: int = 0
    agreeing: int = 0
    explained: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    failures: dict = dataclasses.field(default_factory=dict)  # seed -> Failure
    unexplained: list = dataclasses.field(default_factory=list)

    def summary(self) -> str:
        """One sentence with the counts of the run."""
        known = self.seeds - self.agreeing - len(self.failures) - len(self.unexplained)
        return (
            f"{self.agreeing} of {self.seeds} types agree with mpi-dtype on every line; "
            f"{known} differ as known deviations, {len(self.unexplained)} differ unexplained; "
            f"{len(self.failures)} crashed or hung the library."
        )


def without_extra(lines):
    """A block without the lines of EXTRA_FIELDS."""
    return lines if isinstance(lines, Failure) else [line for line in lines if field(line) not in EXTRA_FIELDS]


def compare_library(result, ours, theirs, deviations, extra=False):
    """Adds one batch of seeds to `result`."""
    library = result.library
    for seed, our_lines in sorted(ours.items()):
        if not extra:
            our_lines = without_extra(our_lines)
        other_lines = theirs.get(seed)
        if (
            extra
            and isinstance(our_lines, list)
            and isinstance(other_lines, list)
            and not any(field(line) in LARGE_COUNT_FIELDS for line in other_lines)
        ):
            our_lines = [line for line in our_lines if field(line) not in LARGE_COUNT_FIELDS]
        other = theirs.get(seed, Failure("crash", "no output"))
        result.seeds += 1
        if isinstance(other, Failure):
            result.failures[seed] = other
            features = model.features(our_lines[0][len("recipe ") :])
            for dev in deviations:
                if dev.observed == ["crash"] and dev.feature in features:
                    result.explained[dev.id] += 1
            continue
        if other == our_lines:
            result.agreeing += 1
            continue
        features = model.features(our_lines[0][len("recipe ") :])
        used, lost = set(), []
        # After a failed build the library prints nothing more about the type.
        failed_build = len(other) > 2 and other[2].startswith("build error")
        for i in range(3 if failed_build else max(len(our_lines), len(other))):
            mine = our_lines[i] if i < len(our_lines) else "(nothing)"
            line = other[i] if i < len(other) else "(nothing)"
            if mine == line:
                continue
            # A line the library did not print departs as the field of ours.
            shown = line if line != "(nothing)" else f"{field(mine)} (nothing)"
            by = [d.id for d in deviations if d.explains(features, shown)]
            if by:
                used.update(by)
            else:
                lost.append(f"    mpi-dtype: {mine}\n    {library}: {line}")
        if lost:
            result.unexplained.append(
                f"seed {seed}: {library} differs from mpi-dtype, not explained by a known deviation\n"
                f"    {our_lines[0]}\n    features: {sorted(features) or 'none'}\n" + "\n".join(lost)
            )
        else:
            for dev in used:
                result.explained[dev] += 1


def run_recipe(path, text, env=MPI_ENV):
    """The lines a harness prints for one type (`--recipe`), or None if it crashed."""
    proc = subprocess.run([path, "--recipe", text], capture_output=True, text=True, env=env, timeout=60)
    return parse_blocks(proc.stdout).get(0) if proc.returncode == 0 else None


def check_reproducers(library, path, ours_path, deviations, problems):
    """Each deviation's reproducer: mpi-dtype gives the model's (the standard's) answer,
    which contains the `expected` lines; the library prints the `observed` lines."""
    for dev in deviations:
        mine = run_recipe(ours_path, dev.reproducer, EXTRA_ENV)
        if mine is None or mine != model_lines(mine):
            problems.append(f"{library} {dev.id}: mpi-dtype does not give the model's answer for {dev.reproducer}")
            continue
        missing = [line for line in dev.expected if line not in mine]
        if missing:
            problems.append(f"{library} {dev.id}: mpi-dtype printed {mine}, not {missing}")
        if dev.feature not in model.features(dev.reproducer):
            problems.append(f"{library} {dev.id}: the reproducer lacks the feature {dev.feature}")
        if path is None:
            continue
        theirs = run_recipe(path, dev.reproducer, EXTRA_ENV if dev.extra else MPI_ENV)
        if dev.observed == ["crash"]:
            if theirs is not None:
                problems.append(f"{library} {dev.id}: the reproducer no longer crashes {library}")
            continue
        if theirs is None:
            problems.append(f"{library} {dev.id}: the reproducer crashed {library}")
            continue
        # An observed entry "!LINE" says the library does not print LINE (for output that
        # differs from run to run).
        missing = [line for line in dev.observed if (line[1:] in theirs if line.startswith("!") else line not in theirs)]
        if missing:
            problems.append(f"{library} {dev.id}: {library} printed {theirs}, not {missing}: is it fixed?")


def report(comparisons, seeds, first, elapsed, deviations):
    """A Markdown summary of the run (for docs/conformance.md)."""
    out = [f"Seeds {first}..{first + seeds - 1} ({seeds} types), {elapsed:.0f} s.", ""]
    for comp in comparisons:
        out.append(f"### {comp.library}")
        out.append("")
        out.append(comp.summary())
        out.append("")
        out.append("| deviation | verdict | types affected |")
        out.append("|---|---|---|")
        for dev in deviations[comp.library]:
            out.append(f"| `{dev.id}` | {dev.verdict} | {comp.explained.get(dev.id, 0)} |")
        kinds = collections.Counter(f"{f.what}, {f.detail.split(':')[0]}" for f in comp.failures.values())
        out.append("")
        for kind, n in kinds.most_common():
            seeds_of_kind = sorted(s for s, f in comp.failures.items() if f"{f.what}, {f.detail.split(':')[0]}" == kind)
            shown = ", ".join(str(s) for s in seeds_of_kind[:5])
            out.append(f"- {n} seeds ended in a {kind} of {comp.library} (first: {shown}).")
        out.append("")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mpi-dtype", required=True, help="the harness built against mpi-dtype")
    parser.add_argument("--mpich", help="the harness built against MPICH")
    parser.add_argument("--openmpi", help="the harness built against Open MPI")
    parser.add_argument("--seeds", type=int, default=20000, help="how many seeds (default 20000)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--reproducers", action="store_true", help="also check every deviation's reproducer")
    parser.add_argument("--report", help="write a Markdown summary to this file")
    parser.add_argument(
        "--extra-lines",
        action="store_true",
        help="also compare MPICH and Open MPI on the external32 and partial-data lines",
    )
    args = parser.parse_args()

    started = time.time()
    libraries = [(name, path) for name, path in (("mpich", args.mpich), ("openmpi", args.openmpi)) if path]
    deviations = {name: load_deviations(name) for name in ("mpich", "openmpi")}
    comparisons = [Comparison(name) for name, _ in libraries]
    problems = []

    # Batches keep the memory small on long runs.
    for batch_first in range(args.first, args.first + args.seeds, BATCH):
        batch = min(BATCH, args.first + args.seeds - batch_first)
        ours = run_harness(args.mpi_dtype, batch_first, batch, args.jobs, EXTRA_ENV)
        check_against_model(ours, problems)
        lib_env = EXTRA_ENV if args.extra_lines else MPI_ENV
        for comp, (name, path) in zip(comparisons, libraries):
            theirs = run_harness(path, batch_first, batch, args.jobs, lib_env)
            usable = [d for d in deviations[name] if args.extra_lines or not d.extra]
            compare_library(comp, ours, theirs, usable, args.extra_lines)

    print(f"mpi-dtype: {args.seeds} types checked against the model, {len(problems)} problems")
    for comp in comparisons:
        problems += comp.unexplained
        print(f"{comp.library}: {comp.summary()}")
        for dev in deviations[comp.library]:
            print(f"    {comp.explained.get(dev.id, 0):6d}  {dev.id}")
        for seed, failure in sorted(comp.failures.items())[:5]:
            print(f"    seed {seed}: {failure.what}: {failure.detail}")
    if args.reproducers:
        for name in ("mpich", "openmpi"):
            path = dict(libraries).get(name)
            check_reproducers(name, path, args.mpi_dtype, deviations[name], problems)
        print(f"reproducers checked: {sum(len(d) for d in deviations.values())}")

    elapsed = time.time() - started
    if args.report:
        with open(args.report, "w") as f:
            f.write(report(comparisons, args.seeds, args.first, elapsed, deviations) + "\n")
    for problem in problems[:50]:
        print("FAIL " + problem)
    if len(problems) > 50:
        print(f"... and {len(problems) - 50} more problems")
    print(f"{'FAILED' if problems else 'passed'} in {elapsed:.1f} s")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
