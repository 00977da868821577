#!/usr/bin/env python3
"""The drop-in comparison: the random datatype harness (harness.c, with HARNESS_DROP_IN=1)
built against mpi-dtype alone, and built against MPICH and run with libmpi_dtype.so
preloaded, must print the same lines for every seed.

In drop-in mode every datatype must follow the standard exactly as mpi-dtype does
standalone, whatever MPICH does with the handles behind it (docs/drop-in.md). The harness
builds random nested types (every constructor, the pair types, f90 types, children that
MPI_Type_get_contents returned reused in new constructors, dups; up to 4 levels), decodes
them, packs and unpacks them, and prints what the library says. Here:

* the standalone run is the reference. Its `decode` line must be its `expect` line (the
  recipe, each reused child written out), and it must neither crash nor hang;
* each preloaded run (over Debian's MPICH 4.0.2, and over MPICH 5.0.2 and Intel MPI 2021.19
  where scripts/with-mpi.sh provides them: scripts/install-mpis.sh installs them) must print,
  seed by seed, exactly the standalone lines.

Every harness process runs under `timeout`, and is also stopped when it prints nothing for
--stall seconds: the seed it was on is reported as hung (the harness flushes after each
seed), and the rest of its seeds go to a new process. Prints, per MPI, "N seeds, D differ,
H hung, C crashed", the differing seeds grouped by the fields that differ, the first few
in full with a command that reproduces each, and exits 1 if anything differed, hung or
crashed.

  drop_in.py --standalone build/harness_standalone --preloaded build/harness_mpich \\
             --lib build/prefix/lib/libmpi_dtype.so [--with-mpi scripts/with-mpi.sh] \\
             [--seeds 10000] [--first 0] [--jobs 2] [--show 5]

  drop_in.py ... --minimize 'RECIPE'   reduces a recipe (from the output above) to a smaller
                                       one that still differs in the same way, and prints it
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import dataclasses
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

# Every EXTRA_EVERY-th seed also gets the external32, large-count and partial-data lines.
EXTRA_EVERY = 10
DEBIAN_MPICH = "/lib/x86_64-linux-gnu/libmpich.so.12"
RUNTIME_NAMES = {"mpich5": "MPICH 5.0.2", "impi": "Intel MPI 2021.19"}


@dataclasses.dataclass
class Failure:
    """A seed on which a harness crashed or hung."""

    what: str  # "hang" or "crash"
    detail: str
    partial: list  # the lines the seed printed before


@dataclasses.dataclass
class Runner:
    """How to run one harness: the command before its arguments, and its environment."""

    name: str
    prefix: list
    env: dict
    expect_mode: str  # a regular expression the MPI_DTYPE_DEBUG=1 line must match
    # and one the harness's line must match: where its behind nodes are made
    expect_behind: str = r"harness: behind nodes are made by .*(libmpich\.so\.12|libmpi_abi\.so\.1|libmpi\.so\.40[.0-9]*)"

    def command(self, args):
        return self.prefix + list(args)


def base_env(extra=None):
    env = dict(os.environ)
    for key in ("LD_PRELOAD", "MPI_DTYPE_DEBUG", "MPI_DTYPE_MPI_LIBRARY", "HARNESS_EXTRA_LINES"):
        env.pop(key, None)
    env["HARNESS_DROP_IN"] = "1"
    env["HARNESS_EXTRA_LINES"] = str(EXTRA_EVERY)
    env.update(extra or {})
    return env


def kill_group(proc):
    """Stops a harness process this script started, and what it started (its own group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_process(runner: Runner, args, stall: float, bound: float):
    """Runs one harness process. Returns (stdout lines, exit status or None if it was
    stopped, stderr tail, why it was stopped)."""
    cmd = ["timeout", "-k", "5", str(int(bound))] + runner.command(args)
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=err, env=runner.env, start_new_session=True
        )
        lines: queue.Queue = queue.Queue()

        def reader():
            for raw in proc.stdout:
                lines.put(raw.decode(errors="replace").rstrip("\n"))
            lines.put(None)

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        out, stopped = [], None
        while True:
            try:
                line = lines.get(timeout=stall)
            except queue.Empty:
                stopped = f"no output for {stall:g} s"
                kill_group(proc)
                break
            if line is None:
                break
            out.append(line)
        code = proc.wait()
        thread.join(5)
        while not lines.empty():
            line = lines.get()
            if line is not None:
                out.append(line)
        if code == 124 and stopped is None:
            stopped = f"still running after {int(bound)} s (timeout)"
        err.seek(0)
        text = err.read().decode(errors="replace").strip().splitlines()
    # The first line that says what went wrong, and the last one.
    said = [l for l in text if re.search(r"[Aa]ssert|[Ff]atal|[Ee]rror|[Aa]bort|[Ss]ignal|[Ff]ault|panick", l)]
    tail = list(dict.fromkeys(said[:1] + text[-1:]))
    return out, (None if stopped else code), " | ".join(tail)[:400], stopped


def parse_blocks(lines):
    """({seed: lines of its complete block}, the seed begun last and not ended, its lines)."""
    blocks, current, body = {}, None, []
    for line in lines:
        if line.startswith("seed "):
            current, body = int(line.split()[1]), []
        elif line.startswith("end ") and current is not None:
            blocks[current] = body
            current = None
        elif current is not None:
            body.append(line)
    return blocks, current, body


def run_chunk(runner: Runner, path, first, count, stall):
    """Seeds [first, first + count) of one harness: {seed: lines or Failure}. A seed that
    crashed or hung is recorded and the harness restarted on the next one."""
    results = {}
    start = first
    while start < first + count:
        n = first + count - start
        out, code, tail, stopped = run_process(runner, [path, str(start), str(n)], stall, 60 + 0.05 * n)
        blocks, open_seed, partial = parse_blocks(out)
        results.update(blocks)
        done = max(blocks, default=start - 1)
        if code == 0 and done == first + count - 1:
            break
        # The seed that did not end (the one begun, else the one after the last complete).
        broken = open_seed if open_seed is not None else done + 1
        if stopped:
            failure = Failure("hang", stopped, partial)
        else:
            reason = f"signal {-code}" if code < 0 else f"exit status {code}"
            failure = Failure("crash", f"{reason}: {tail}", partial)
        if broken > first + count - 1:
            # Every seed ended: the process failed after them (MPI_Finalize).
            results[("finalize", first)] = failure
            break
        results[broken] = failure
        start = broken + 1
    return results


def run_all(runner: Runner, path, first, count, jobs, stall):
    chunk = max(1, -(-count // jobs))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(run_chunk, runner, path, s, min(chunk, first + count - s), stall)
            for s in range(first, first + count, chunk)
        ]
        for f in futures:
            results.update(f.result())
    return results


def check_mode(runner: Runner, path):
    """The MPI_DTYPE_DEBUG=1 line of a one-seed run, checked against the mode expected."""
    env = dict(runner.env, MPI_DTYPE_DEBUG="1")
    probe = dataclasses.replace(runner, env=env)
    try:
        proc = subprocess.run(
            ["timeout", "-k", "5", "60"] + probe.command([path, "0", "1"]),
            capture_output=True, text=True, errors="replace", env=env,
        )
    except OSError as e:
        return False, str(e)
    said = proc.stderr.splitlines()
    lines = [l for l in said if l.startswith("mpi-dtype: ")]
    line = lines[0] if lines else f"(no mpi-dtype line; exit status {proc.returncode}: {proc.stderr.strip()[-300:]})"
    behind = [l for l in said if l.startswith("harness: ")] or ["(no harness line)"]
    ok = re.fullmatch(runner.expect_mode, line) and re.fullmatch(runner.expect_behind, behind[0])
    return bool(ok), f"{line}; {behind[0]}"


def field(line):
    return line.split(" ", 1)[0]


@dataclasses.dataclass
class Comparison:
    name: str
    seeds: int = 0
    differ: dict = dataclasses.field(default_factory=dict)  # seed -> (ours, theirs)
    hung: dict = dataclasses.field(default_factory=dict)
    crashed: dict = dataclasses.field(default_factory=dict)

    def failed(self):
        return bool(self.differ or self.hung or self.crashed)

    elapsed: float = 0.0

    def summary(self):
        took = f" ({self.elapsed:.0f} s)" if self.elapsed else ""
        return (
            f"{self.seeds} seeds, {len(self.differ)} differ, {len(self.hung)} hung, "
            f"{len(self.crashed)} crashed{took}"
        )


def record_failure(comp, seed, failure):
    (comp.hung if failure.what == "hang" else comp.crashed)[seed] = failure


def check_standalone(results, first, count):
    """The reference run: complete, and every decode line is the expect line."""
    comp = Comparison("standalone")
    for seed in range(first, first + count):
        comp.seeds += 1
        lines = results.get(seed)
        if lines is None:
            lines = Failure("crash", "no output", [])
        if isinstance(lines, Failure):
            record_failure(comp, seed, lines)
            continue
        fields = {field(l): l for l in lines}
        expect = fields.get("expect", "expect ?")[len("expect ") :]
        decode = fields.get("decode", "decode ?")[len("decode ") :]
        if "build" not in fields and decode != expect:
            comp.differ[seed] = (lines, None)
    for key, failure in results.items():
        if isinstance(key, tuple):
            record_failure(comp, f"after seeds from {key[1]} ({key[0]})", failure)
    return comp


def compare(name, ours, theirs, first, count):
    comp = Comparison(name)
    for seed in range(first, first + count):
        comp.seeds += 1
        mine, other = ours.get(seed), theirs.get(seed)
        if other is None:
            other = Failure("crash", "no output", [])
        if isinstance(other, Failure):
            record_failure(comp, seed, other)
        elif isinstance(mine, list) and mine != other:
            comp.differ[seed] = (mine, other)
    for key, failure in theirs.items():
        if isinstance(key, tuple):
            record_failure(comp, f"after seeds from {key[1]} ({key[0]})", failure)
    return comp


def signature(mine, other):
    """The fields of the lines that differ, in order (a rough grouping by cause)."""
    fields = []
    for i in range(max(len(mine), len(other))):
        a = mine[i] if i < len(mine) else "(nothing)"
        b = other[i] if i < len(other) else "(nothing)"
        if a != b:
            f = field(a if a != "(nothing)" else b)
            if f not in fields:
                fields.append(f)
    return fields


def recipe_of(lines):
    for line in lines:
        if line.startswith("recipe "):
            return line[len("recipe ") :]
    return "?"


def reproduce(runner: Runner, path, recipe):
    env = " ".join(
        f"{k}={shlex.quote(v)}" for k, v in runner.env.items()
        if k in ("LD_PRELOAD", "LD_LIBRARY_PATH", "HARNESS_DROP_IN", "HARNESS_EXTRA_LINES")
        and os.environ.get(k) != v
    )
    cmd = " ".join(shlex.quote(c) for c in runner.command([path, "--recipe", recipe]))
    return f"{env} {cmd}".strip()


def print_comparison(comp, show, runners, paths):
    print(f"{comp.name}: {comp.summary()}")
    if comp.name == "standalone":
        for seed, (lines, _) in list(comp.differ.items())[:show]:
            print(f"  seed {seed}: decode is not the recipe")
            print(f"    recipe {recipe_of(lines)}")
            for line in lines:
                if field(line) in ("expect", "decode"):
                    print(f"    {line}")
    else:
        groups = collections.defaultdict(list)
        for seed, (mine, other) in comp.differ.items():
            groups[",".join(signature(mine, other))].append(seed)
        for sig, seeds in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            shown = ", ".join(str(s) for s in seeds[:6])
            print(f"  {len(seeds):6d} differ on {sig} (seeds {shown}{', ...' if len(seeds) > 6 else ''})")
        for seed, (mine, other) in list(comp.differ.items())[:show]:
            print(f"  seed {seed} differs:")
            print(f"    recipe {recipe_of(mine)}")
            for i in range(max(len(mine), len(other))):
                a = mine[i] if i < len(mine) else "(nothing)"
                b = other[i] if i < len(other) else "(nothing)"
                if a != b:
                    print(f"    standalone: {a}")
                    print(f"    preloaded:  {b}")
            recipe = recipe_of(mine)
            print(f"    reproduce:  {reproduce(runners['standalone'], paths['standalone'], recipe)}")
            print(f"                {reproduce(runners[comp.name], paths['preloaded'], recipe)}")
    for kind, failures in (("hung", comp.hung), ("crashed", comp.crashed)):
        for seed, failure in list(failures.items())[:show]:
            print(f"  seed {seed} {kind}: {failure.detail}")
            if failure.partial:
                print(f"    {failure.partial[0]}")
                for line in failure.partial[1:][-3:]:
                    print(f"    ... {line}")


# ---- minimizing a recipe ------------------------------------------------------------------

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?\d+|[(),;=]")


def parse(text):
    """A recipe as nested lists: a name, or [combiner, ints, addrs, types]."""
    tokens = TOKEN.findall(text)
    pos = 0

    def node():
        nonlocal pos
        name = tokens[pos]
        pos += 1
        if pos >= len(tokens) or tokens[pos] != "(":
            return name
        pos += 1
        lists = []
        for key in ("i", "a"):
            assert tokens[pos] == key and tokens[pos + 1] == "="
            pos += 2
            values = []
            while tokens[pos] != ";":
                if tokens[pos] != ",":
                    values.append(tokens[pos])
                pos += 1
            pos += 1
            lists.append(values)
        assert tokens[pos] == "t" and tokens[pos + 1] == "="
        pos += 2
        types = []
        while tokens[pos] != ")":
            if tokens[pos] == ",":
                pos += 1
                continue
            types.append(node())
        pos += 1
        return [name, lists[0], lists[1], types]

    return node()


def show(node):
    if isinstance(node, str):
        return node
    name, ints, addrs, types = node
    return f"{name}(i={','.join(ints)};a={','.join(addrs)};t={','.join(show(t) for t in types)})"


def candidates(node):
    """Smaller variants of a recipe tree (not all valid: the harness rejects those)."""
    if isinstance(node, str):
        for leaf in ("MPI_INT", "MPI_CHAR"):
            if node != leaf:
                yield leaf
        return
    name, ints, addrs, types = node
    for child in types:
        yield child
    for leaf in ("MPI_INT", "MPI_DOUBLE_INT"):
        yield leaf
    # Drop one block or member of the list constructors.
    n = int(ints[0]) if ints and re.fullmatch(r"-?\d+", ints[0]) else 0
    for j in range(n):
        if name == "struct":
            yield [name, [str(n - 1)] + [v for k, v in enumerate(ints[1:]) if k != j],
                   [v for k, v in enumerate(addrs) if k != j], [t for k, t in enumerate(types) if k != j]]
        elif name in ("indexed",):
            rest = ints[1:]
            yield [name, [str(n - 1)] + [v for k, v in enumerate(rest) if k not in (j, n + j)], addrs, types]
        elif name == "hindexed":
            yield [name, [str(n - 1)] + [v for k, v in enumerate(ints[1:]) if k != j],
                   [v for k, v in enumerate(addrs) if k != j], types]
        elif name == "indexed_block":
            yield [name, [str(n - 1), ints[1]] + [v for k, v in enumerate(ints[2:]) if k != j], addrs, types]
        elif name == "hindexed_block":
            yield [name, [str(n - 1), ints[1]], [v for k, v in enumerate(addrs) if k != j], types]
    # Smaller counts.
    if name in ("contiguous", "vector", "hvector") and ints[0] not in ("0", "1"):
        yield [name, ["1"] + ints[1:], addrs, types]
    for k, child in enumerate(types):
        for smaller in candidates(child):
            yield [name, ints, addrs, types[:k] + [smaller] + types[k + 1 :]]


def resolve(node):
    """The constructor a from_contents or behind node stands for (as harness.c resolves)."""
    while not isinstance(node, str) and node[0] in ("behind", "from_contents"):
        node = node[3][0] if node[0] == "behind" else resolve(node[3][0])[3][int(node[1][0])]
    return node


def made_behind(node):
    """Whether the harness expects MPICH to have made the type (made_behind() of harness.c)."""
    if isinstance(node, str):
        return False
    name, ints, _, types = node
    if name == "behind":
        return True
    if name == "dup":
        return made_behind(types[0])
    if name == "from_contents":
        return made_behind(types[0]) and made_behind(resolve(types[0])[3][int(ints[0])])
    return False


def generated_form(node, top=True):
    """Whether a recipe has a form the generator gives: no type MPICH made (made_behind)
    as the type itself or as the child of a dup (see harness.c)."""
    try:
        if isinstance(node, str):
            return True
        if top and made_behind(node):
            return False
        if node[0] == "dup" and made_behind(node[3][0]):
            return False
        return all(generated_form(t, False) for t in node[3])
    except (IndexError, ValueError):
        return False


def run_recipe(runner: Runner, path, recipe, stall):
    out, code, _, stopped = run_process(runner, [path, "--recipe", recipe], stall, 60)
    if code == 2 and not out:
        return None  # not a valid recipe
    blocks, open_seed, partial = parse_blocks(out)
    if stopped:
        return "hang"
    if code != 0 or 0 not in blocks:
        return "crash"
    return blocks[0]


def outcome(runners, paths, recipe, stall):
    """How the preloaded run departs from the standalone one for `recipe`: the fields that
    differ, "hang" or "crash"; None when they agree or the recipe is not valid."""
    mine = run_recipe(runners["standalone"], paths["standalone"], recipe, stall)
    if not isinstance(mine, list):
        return None
    results = []
    for name, runner in runners.items():
        if name == "standalone":
            continue
        other = run_recipe(runner, paths["preloaded"], recipe, stall)
        if other is None:
            return None
        results.append(other if isinstance(other, str) else tuple(signature(mine, other)))
    return tuple(results) if any(results) else None


def minimize(runners, paths, recipe, stall):
    target = outcome(runners, paths, recipe, stall)
    if target is None:
        print(f"the recipe does not differ: {recipe}")
        return 1
    print(f"differs as {target}: {recipe}", flush=True)
    best = recipe
    improved = True
    while improved:
        improved = False
        seen = set()
        for cand in sorted({show(c) for c in candidates(parse(best))}, key=len):
            if len(cand) >= len(best) or cand in seen or not generated_form(parse(cand)):
                continue
            seen.add(cand)
            if outcome(runners, paths, cand, stall) == target:
                best, improved = cand, True
                print(f"  {best}", flush=True)
                break
    print(f"smallest: {best}")
    for name, runner in runners.items():
        path = paths["standalone" if name == "standalone" else "preloaded"]
        lines = run_recipe(runner, path, best, stall)
        print(f"{name}:")
        for line in lines if isinstance(lines, list) else [lines]:
            print(f"    {line}")
    return 0


def save(path, results):
    """Writes the blocks of a run, in seed order, as the harness prints them."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        for seed in sorted(s for s in results if not isinstance(s, tuple)):
            lines = results[seed]
            f.write(f"seed {seed}\n")
            if isinstance(lines, Failure):
                f.write("".join(f"{l}\n" for l in lines.partial))
                f.write(f"{lines.what}: {lines.detail}\n")
            else:
                f.write("".join(f"{l}\n" for l in lines))
                f.write(f"end {seed}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--standalone", required=True, help="the harness built against mpi-dtype")
    parser.add_argument("--preloaded", required=True, help="the harness built with mpicc.mpich")
    parser.add_argument("--lib", required=True, help="libmpi_dtype.so, preloaded")
    parser.add_argument("--standalone-lib-dir", help="LD_LIBRARY_PATH of the standalone harness")
    parser.add_argument("--with-mpi", help="scripts/with-mpi.sh: also run over its runtimes that are installed")
    parser.add_argument("--runtimes", default="mpich5,impi",
                        help="the runtimes of --with-mpi to run over (default mpich5,impi)")
    parser.add_argument("--seeds", type=int, default=10000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--stall", type=float, default=10.0,
                        help="seconds without output after which a seed counts as hung (default 10)")
    parser.add_argument("--show", type=int, default=5, help="differing seeds shown in full (default 5)")
    parser.add_argument("--only", help="run only these MPIs (comma-separated: mpich4, mpich5, impi)")
    parser.add_argument("--minimize", metavar="RECIPE", help="reduce a differing recipe instead")
    parser.add_argument("--save", metavar="DIR", help="write each run's output there (NAME.txt)")
    args = parser.parse_args()

    lib = os.path.abspath(args.lib)
    standalone_env = {}
    if args.standalone_lib_dir:
        standalone_env["LD_LIBRARY_PATH"] = os.path.abspath(args.standalone_lib_dir)
    runners = {
        "standalone": Runner(
            "standalone", [], base_env(standalone_env), r"mpi-dtype: standalone .*",
            r"harness: behind nodes are made by the program's MPI functions",
        )
    }
    runners["mpich4"] = Runner(
        "mpich4", [], base_env({"LD_PRELOAD": lib}),
        r"mpi-dtype: forwarding to .*libmpich\.so\.12",
    )
    notes = []
    if args.with_mpi and os.access(args.with_mpi, os.X_OK):
        for rt in args.runtimes.split(","):
            probe = subprocess.run([args.with_mpi, rt, "true"], capture_output=True, text=True)
            if probe.returncode == 0:
                runners[rt] = Runner(
                    rt, [args.with_mpi, rt, "env", f"LD_PRELOAD={lib}"], base_env(),
                    rf"mpi-dtype: forwarding to (?!{re.escape(DEBIAN_MPICH)}$).*",
                )
            else:
                notes.append(f"{RUNTIME_NAMES.get(rt, rt)} skipped: `{args.with_mpi} {rt}` is not usable "
                             f"({(probe.stderr.strip() or probe.stdout.strip())[-200:]})")
    else:
        notes.append(f"{', '.join(RUNTIME_NAMES.get(rt, rt) for rt in args.runtimes.split(','))} "
                     f"skipped: no scripts/with-mpi.sh")
    if args.only:
        wanted = set(args.only.split(","))
        runners = {k: v for k, v in runners.items() if k == "standalone" or k in wanted}
    paths = {"standalone": args.standalone, "preloaded": args.preloaded}

    for name, runner in runners.items():
        ok, line = check_mode(runner, paths["standalone" if name == "standalone" else "preloaded"])
        print(f"{name}: {line}")
        if not ok:
            print(f"FAILED: the {name} harness does not run in the mode expected")
            return 1
    for note in notes:
        print(note)

    if args.minimize:
        return minimize(runners, paths, args.minimize, args.stall)

    started = time.time()
    ours = run_all(runners["standalone"], paths["standalone"], args.first, args.seeds, args.jobs, args.stall)
    comparisons = [check_standalone(ours, args.first, args.seeds)]
    for name, runner in runners.items():
        if name == "standalone":
            continue
        t0 = time.time()
        theirs = run_all(runner, paths["preloaded"], args.first, args.seeds, args.jobs, args.stall)
        comparisons.append(compare(name, ours, theirs, args.first, args.seeds))
        comparisons[-1].elapsed = time.time() - t0
        if args.save:
            save(os.path.join(args.save, f"{name}.txt"), theirs)
    if args.save:
        save(os.path.join(args.save, "standalone.txt"), ours)
        print(f"outputs in {args.save}/{{{','.join(runners)}}}.txt")
    print(f"seeds {args.first}..{args.first + args.seeds - 1}, HARNESS_DROP_IN=1 HARNESS_EXTRA_LINES={EXTRA_EVERY}")
    for comp in comparisons:
        print_comparison(comp, args.show, runners, paths)
    failed = any(c.failed() for c in comparisons)
    print(f"{'FAILED' if failed else 'passed'} in {time.time() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
