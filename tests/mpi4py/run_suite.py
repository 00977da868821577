"""Run mpi4py's own test suite and record each test's outcome.

Usage: python run_suite.py --testdir DIR --out PREFIX [options of the suite's runner ...]

The runner is the suite's test/main.py (mpi4py 4), or test/runtests.py (mpi4py 3, as
Debian's python3-mpi4py is), whose options are the same but for --xfile FILE (skip the tests
matching the patterns in FILE, one per line), which is done here for it.

Every rank writes PREFIX.<rank>.tsv, one line per test as it finishes:
    <test id> TAB <pass|fail|error|skip|xfail|upass> TAB <first line of the message>
and PREFIX.<rank>.details, the full text of every failure, error and skip reason,
and PREFIX.<rank>.progress, the id of each test as it starts, so a run that crashes or hangs
still tells which test it was in. Lines are flushed as they are written. PREFIX.<rank>.end is
written when the suite has run to its end.
"""

import json
import os
import sys
import unittest


def _first_line(text):
    for line in reversed(text.strip().splitlines()):
        if line.strip():
            return line.strip()[:300]
    return ""


class _Recorder:
    def __init__(self, prefix, rank):
        self.tsv = open(f"{prefix}.{rank}.tsv", "w", encoding="utf-8")
        self.details = open(f"{prefix}.{rank}.details", "w", encoding="utf-8")
        self.progress = open(f"{prefix}.{rank}.progress", "w", encoding="utf-8")
        self.pending = {}

    def start(self, test_id):
        self.progress.write(test_id + "\n")
        self.progress.flush()
        self.pending[test_id] = None

    def record(self, test_id, outcome, text=""):
        self.pending.pop(test_id, None)
        self.tsv.write(f"{test_id}\t{outcome}\t{_first_line(text)}\n")
        self.tsv.flush()
        if text and outcome != "pass":
            self.details.write(json.dumps({"id": test_id, "outcome": outcome, "text": text}) + "\n")
            self.details.flush()

    def subtest_failed(self, test_id, outcome, text):
        prev = self.pending.get(test_id)
        if prev is None or (prev[0] == "fail" and outcome == "error"):
            self.pending[test_id] = (outcome, text)

    def close(self):
        for f in (self.tsv, self.details, self.progress):
            f.close()

    def stop(self, test_id):
        if test_id in self.pending:
            sub = self.pending.pop(test_id)
            if sub is not None:
                self.record(test_id, sub[0], sub[1])


RECORDER = None


class RecordingResult(unittest.TextTestResult):
    def _text(self, err):
        return self._exc_info_to_string(err, None) if err else ""

    def startTest(self, test):
        RECORDER.start(test.id())
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        RECORDER.stop(test.id())

    def addSuccess(self, test):
        super().addSuccess(test)
        RECORDER.record(test.id(), "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        RECORDER.record(test.id(), "fail", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        RECORDER.record(test.id(), "error", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        RECORDER.record(test.id(), "skip", str(reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        RECORDER.record(test.id(), "xfail", self._exc_info_to_string(err, test))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        RECORDER.record(test.id(), "upass")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            kind = "fail" if issubclass(err[0], test.failureException) else "error"
            text = f"{subtest.id()}\n" + self._exc_info_to_string(err, test)
            RECORDER.subtest_failed(test.id(), kind, text)


def main():
    args = sys.argv[1:]
    testdir = out = None
    rest = []
    i = 0
    while i < len(args):
        if args[i] == "--testdir":
            testdir = args[i + 1]
            i += 2
        elif args[i] == "--out":
            out = args[i + 1]
            i += 2
        else:
            rest.append(args[i])
            i += 1
    if not testdir or not out:
        sys.exit(__doc__)
    testdir = os.path.abspath(testdir)
    sys.path.insert(0, testdir)
    sys.dont_write_bytecode = True
    if os.path.exists(os.path.join(testdir, "main.py")):
        run_main(testdir, out, rest)
    else:
        run_runtests(out, rest)


def start_recording(out):
    """Starts RECORDER for this rank; returns the rank."""
    global RECORDER
    from mpi4py import MPI

    rank = MPI.COMM_WORLD.Get_rank()
    RECORDER = _Recorder(out, rank)
    return rank


def mark_end(out, rank, tests_run):
    """Says that the suite ran to its end (a crash or MPI_Abort never gets here)."""
    with open(f"{out}.{rank}.end", "w", encoding="utf-8") as f:
        f.write(f"{tests_run}\n")


def run_main(testdir, out, rest):
    """The suite of mpi4py 4, through its test/main.py."""
    import main as mpi4py_main  # mpi4py's test/main.py

    class Program(mpi4py_main.TestProgram):
        def runTests(self):
            rank = start_recording(out)
            self.testRunner = unittest.TextTestRunner(
                resultclass=RecordingResult, verbosity=self.verbosity, stream=sys.stderr
            )
            try:
                super().runTests()
            finally:
                RECORDER.close()
                if getattr(self, "result", None) is not None:
                    mark_end(out, rank, self.result.testsRun)

    sys.argv = [os.path.join(testdir, "main.py")] + rest
    Program(module=None)


def tests_of(suite):
    """The test cases of `suite`, flattened."""
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from tests_of(item)
        else:
            yield item


def run_runtests(out, rest):
    """The suite of mpi4py 3, through its test/runtests.py, with --xfile done here."""
    import fnmatch

    import runtests  # mpi4py's test/runtests.py

    patterns = []
    args = []
    i = 0
    while i < len(rest):
        if rest[i] == "--xfile":
            with open(rest[i + 1], encoding="utf-8") as f:
                patterns += [line.strip() for line in f if line.strip()]
            i += 2
        else:
            args.append(rest[i])
            i += 1
    options, names = runtests.getoptionparser().parse_args(args)
    runtests.setup_python(options)
    runtests.setup_unittest(options)
    runtests.import_package(options, "mpi4py")
    tests = [
        test
        for test in tests_of(runtests.load_tests(options, names))
        if not any(fnmatch.fnmatchcase(test.id(), p) for p in patterns)
    ]
    rank = start_recording(out)
    runner = unittest.TextTestRunner(
        resultclass=RecordingResult, verbosity=options.verbose, stream=sys.stderr
    )
    try:
        result = runner.run(unittest.TestSuite(tests))
    finally:
        RECORDER.close()
    mark_end(out, rank, result.testsRun)


if __name__ == "__main__":
    main()
