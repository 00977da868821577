"""Let a run of mpi4py's suite go on after a test that ended its processes.

scripts/test-mpi4py.sh runs the suite in parts: OUT.p0, OUT.p1, ... (each the --out PREFIX of
run_suite.py). When a part dies in a test (a crash, or killed after making no progress), the
next part skips every test done so far and the one that died (mpi4py's --xfile), so that one
crash does not hide the outcomes of the tests after it. Once 3 tests of one class have died,
the class is skipped whole.

    python resume.py next  OUT NPROCS PART WHY   after part PART died: records the tests it was
                                                 in (OUT.crashed) and writes OUT.done, the
                                                 --xfile of the next part; prints the tests,
                                                 nothing if no rank was in a test
    python resume.py merge OUT NPROCS NPARTS     OUT.<rank>.tsv / .details / .progress from the
                                                 parts, each test that died recorded as an error
"""

import json
import os
import sys

CLASS_LIMIT = 3


def lines(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def finished(prefix, rank):
    return {l.split("\t")[0] for l in lines(f"{prefix}.{rank}.tsv")}


def crashed_records(out):
    recs = []
    for l in lines(f"{out}.crashed"):
        rank, tid, why = l.split("\t", 2)
        recs.append((int(rank), tid, why))
    return recs


def next_part(out, nprocs, part, why):
    prefix = f"{out}.p{part}"
    new = []
    for rank in range(nprocs):
        progress = lines(f"{prefix}.{rank}.progress")
        if progress and progress[-1] not in finished(prefix, rank):
            new.append((rank, progress[-1]))
    if not new:
        return 0
    with open(f"{out}.crashed", "a", encoding="utf-8") as f:
        for rank, tid in new:
            f.write(f"{rank}\t{tid}\t{why}\n")
    done = set()
    for p in range(part + 1):
        for rank in range(nprocs):
            done |= finished(f"{out}.p{p}", rank)
    records = crashed_records(out)
    done |= {tid for _, tid, _ in records}
    # "*" first: mpi4py matches a pattern without "*" anywhere in the name
    patterns = {f"*{tid}" for tid in done}
    # a class in which CLASS_LIMIT tests have died is skipped whole: its other tests are then
    # missing from the results, which compare.py reports as not run
    per_class = {}
    for _, tid, _ in records:
        cls = tid.rsplit(".", 1)[0]
        per_class.setdefault(cls, set()).add(tid)
    patterns |= {f"*{cls}.*" for cls, tids in per_class.items() if len(tids) >= CLASS_LIMIT}
    with open(f"{out}.done", "w", encoding="utf-8") as f:
        f.writelines(f"{p}\n" for p in sorted(patterns))
    print(" ".join(sorted({tid for _, tid in new})))
    return 0


def merge(out, nprocs, nparts):
    crashed = crashed_records(out)
    for rank in range(nprocs):
        parts = [f"{out}.p{p}.{rank}" for p in range(nparts)]
        if not any(os.path.exists(f"{p}.tsv") for p in parts):
            continue  # no result from this rank at all: compare.py reports it
        for kind in ("tsv", "details", "progress"):
            with open(f"{out}.{rank}.{kind}", "w", encoding="utf-8") as f:
                for p in parts:
                    for l in lines(f"{p}.{kind}"):
                        f.write(l + "\n")
                for r, tid, why in crashed:
                    if r != rank:
                        continue
                    text = f"{why}; the suite went on after this test"
                    if kind == "tsv":
                        f.write(f"{tid}\terror\t{text}\n")
                    elif kind == "details":
                        f.write(json.dumps({"id": tid, "outcome": "error", "text": text}) + "\n")
    return 0


def main():
    args = sys.argv[1:]
    if len(args) == 5 and args[0] == "next":
        return next_part(args[1], int(args[2]), int(args[3]), args[4])
    if len(args) == 4 and args[0] == "merge":
        return merge(args[1], int(args[2]), int(args[3]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
