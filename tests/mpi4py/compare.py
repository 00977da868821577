"""Compare mpi4py test outcomes over plain MPICH with those under LD_PRELOAD=libmpi_dtype.so.

Usage: python compare.py --differences FILE RUN...
where each RUN is  LABEL:PREFIX:NPROCS:EXITCODE[:BASELINE_LABEL]
(PREFIX.<rank>.tsv as written by run_suite.py; a run with a BASELINE_LABEL is compared with
that run). A test that passes in the baseline must pass in the compared run too, unless the
differences file names it (lines "<test id>  <reason>"; '#' starts a comment). A test that
passes only in the compared run is reported, and is fine. Exits 1 on any unexpected
difference, on a run that timed out (exit code 124) or died (no result file of some rank),
and lists the lines of the differences file that no longer match anything.
"""

import json
import os
import re
import sys

ORDER = {"pass": 0, "upass": 0, "skip": 1, "xfail": 1, "fail": 2, "error": 3}


def load_rank(prefix, rank):
    outcomes, details = {}, {}
    tsv = f"{prefix}.{rank}.tsv"
    if not os.path.exists(tsv):
        return None, None, None
    with open(tsv, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2:
                outcomes[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    det = f"{prefix}.{rank}.details"
    if os.path.exists(det):
        with open(det, encoding="utf-8") as f:
            for line in f:
                try:
                    d = json.loads(line)
                except ValueError:
                    continue
                details.setdefault(d["id"], d["text"])
    last = None
    prog = f"{prefix}.{rank}.progress"
    if os.path.exists(prog):
        with open(prog, encoding="utf-8") as f:
            lines = f.read().split()
            last = lines[-1] if lines else None
    return outcomes, details, last


class Run:
    def __init__(self, spec):
        parts = spec.split(":")
        self.label, self.prefix, self.nprocs, self.rc = parts[0], parts[1], int(parts[2]), int(parts[3])
        self.baseline = parts[4] if len(parts) > 4 else None
        self.outcome = {}  # test id -> combined outcome over the ranks
        self.message = {}
        self.details = {}
        self.missing_ranks = []
        self.last_started = {}
        per_rank = []
        by_rank = {}
        for rank in range(self.nprocs):
            outcomes, details, last = load_rank(self.prefix, rank)
            if outcomes is None:
                self.missing_ranks.append(rank)
                continue
            per_rank.append(outcomes)
            by_rank[rank] = outcomes
            self.last_started[rank] = last
            for k, v in details.items():
                self.details.setdefault(k, f"[rank {rank}] {v}")
        ids = set()
        for o in per_rank:
            ids.update(o)
        for tid in ids:
            got = [o.get(tid) for o in per_rank]
            if any(g is None for g in got) or self.missing_ranks:
                self.outcome[tid] = "incomplete"
                self.message[tid] = "not finished on every rank"
                continue
            worst = max(got, key=lambda g: ORDER.get(g[0], 3))
            if worst[0] in ("skip", "xfail") and any(ORDER.get(g[0], 3) == 0 for g in got):
                worst = ("pass", "")
            self.outcome[tid] = worst[0]
            self.message[tid] = worst[1]
        # a test that started but never finished: the run crashed or hung in it
        self.unfinished = {}
        for rank, last in self.last_started.items():
            if last and last not in by_rank[rank]:
                self.unfinished[rank] = last

    def passed(self):
        return {t for t, o in self.outcome.items() if ORDER.get(o, 3) == 0}

    def counts(self):
        c = {"pass": 0, "fail": 0, "error": 0, "skip": 0, "other": 0}
        for o in self.outcome.values():
            if o in ("pass", "upass"):
                c["pass"] += 1
            elif o in ("skip", "xfail"):
                c["skip"] += 1
            elif o in c:
                c[o] += 1
            else:
                c["other"] += 1
        return c


SECTION = "## mpi4py tests that differ under the preload"


def load_differences(path):
    """The deliberate differences: the items `- `test id`: reason` of the section SECTION of
    docs/semantics.md (up to the next section)."""
    diffs = {}
    if not path or not os.path.exists(path):
        return diffs
    inside = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                inside = line.strip() == SECTION
                continue
            m = re.match(r"- `([^`]+)`: (.*)", line.strip()) if inside else None
            if m:
                diffs[m.group(1)] = m.group(2)
    return diffs


def indent(text, limit=16):
    lines = text.rstrip().splitlines()
    if len(lines) > limit:
        lines = lines[:2] + ["    ..."] + lines[-(limit - 3) :]
    return "\n".join("        " + l for l in lines)


def main():
    args = sys.argv[1:]
    diff_path = None
    if args and args[0] == "--differences":
        diff_path = args[1]
        args = args[2:]
    runs = [Run(spec) for spec in args]
    by_label = {r.label: r for r in runs}
    deliberate = load_differences(diff_path)
    used = set()
    bad = False

    print("== counts (a test counts as passed when it passed on every rank)")
    for r in runs:
        c = r.counts()
        note = ""
        if r.rc == 124:
            note = "  TIMED OUT"
            bad = True
        elif r.missing_ranks:
            note = f"  no results from rank(s) {r.missing_ranks}"
            bad = True
        elif r.rc not in (0, 1):
            note = f"  exit code {r.rc}"
        print(
            f"{r.label:>12}: ran {len(r.outcome)}, passed {c['pass']}, failed {c['fail']}, "
            f"errors {c['error']}, skipped {c['skip']}" + (f", other {c['other']}" if c["other"] else "") + note
        )
        for rank, tid in sorted(r.unfinished.items()):
            print(f"{'':>14}rank {rank} started {tid} and did not finish it")

    n_unexpected = 0
    for r in runs:
        if not r.baseline:
            continue
        base = by_label[r.baseline]
        lost = sorted(base.passed() - r.passed())
        gained = sorted(r.passed() - base.passed())
        unexpected = [t for t in lost if t not in deliberate]
        expected = [t for t in lost if t in deliberate]
        used.update(expected)
        print(f"\n== {r.label} against {base.label}: {len(unexpected)} unexpected, "
              f"{len(expected)} deliberate, {len(gained)} passing only under {r.label}")
        for t in unexpected:
            o = r.outcome.get(t, "not run")
            print(f"  UNEXPECTED {t}: {o}: {r.message.get(t, '')}")
            if t in r.details:
                print(indent(r.details[t]))
        for t in expected:
            reason = deliberate[t] if len(deliberate[t]) <= 110 else deliberate[t][:107] + "..."
            print(f"  deliberate {t}: {r.outcome.get(t, 'not run')}: {reason}")
        for t in gained:
            print(f"  passes only under {r.label}: {t} ({base.label}: {base.outcome.get(t, 'not run')}: "
                  f"{base.message.get(t, '')})")
        n_unexpected += len(unexpected)

    stale = sorted(set(deliberate) - used)
    if stale and any(r.baseline for r in runs):
        print("\n== note: lines of the differences file that matched no difference (the tests pass now, or are gone):")
        for t in stale:
            print(f"  {t}")
    if n_unexpected:
        bad = True
    print(f"\nmpi4py under LD_PRELOAD: {n_unexpected} unexpected differences" + ("" if not bad else " (FAILED)"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
