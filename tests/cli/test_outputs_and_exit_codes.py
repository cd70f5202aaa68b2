"""What `ridgeline` does with the files it is told to write and the numbers it is given:
bad input is one line and exit status 2 before any work; outputs never destroy anything;
the exit status says whether every case passed.

RIDGELINE names the binary and WRONG_CBLAS a fixture library that computes a wrong
product (tests/fixtures/fixture_wrong_cblas.c); CTest sets both.
"""
import json
import os
import shutil
import stat
import subprocess
import tempfile
import threading
import time
import unittest

from arch_facts import EMULATED

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
WRONG_CBLAS = os.environ.get("WRONG_CBLAS", "")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
RUN_FIXTURE = os.path.join(FIXTURES, "run-smoke-f64-zen4-vm.json")
CACHE = tempfile.mkdtemp(prefix="ridgeline-test-cache-")
ENV = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": CACHE}
# One quick case: validated and timed in well under a second.
ONE_CASE = ["--suite", "smoke", "--filter", "naive/f64/m=64", "--repetitions", "1",
            "--min-time", "0.01", "--no-probe"]


def tearDownModule():
    shutil.rmtree(CACHE, ignore_errors=True)


def ridgeline(*args, cwd=None, timeout=300):
    return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=timeout,
                          env=ENV, cwd=cwd)


class BadNumbersAndNames(unittest.TestCase):
    """Each row: arguments, then words the one line must hold. Nothing may run first."""

    TABLE = [
        (["run", "--min-time", "nan"], ["--min-time nan", "seconds"]),
        (["run", "--min-time", "inf"], ["--min-time inf"]),
        (["run", "--min-time", "-1"], ["--min-time -1"]),
        (["run", "--min-time", "0"], ["--min-time 0"]),
        (["run", "--min-time", "1e999"], ["--min-time 1e999"]),
        (["run", "--min-time", "12y"], ["--min-time 12y"]),
        (["run", "--min-time", "0x"], ["--min-time 0x", "iteration count"]),
        (["run", "--min-time", "2.5x"], ["--min-time 2.5x"]),
        (["run", "--warmup", "-1"], ["--warmup", "'-1'"]),
        (["run", "--warmup", "nan"], ["--warmup", "'nan'"]),
        (["run", "--case-timeout", "nan"], ["--case-timeout", "'nan'"]),
        (["run", "--case-timeout", "0"], ["--case-timeout", "'0'", "above 0"]),
        (["run", "--case-timeout", "-5"], ["--case-timeout"]),
        (["run", "--repetitions", "0"], ["--repetitions", "'0'"]),
        (["run", "--repetitions", "many"], ["--repetitions"]),
        (["run", "--repetitions", "1e999"], ["--repetitions"]),
        (["probe", "--seconds", "0"], ["--seconds", "'0'"]),
        (["probe", "--seconds", "-1"], ["--seconds"]),
        (["probe", "--seconds", "nan"], ["--seconds"]),
        (["probe", "--seconds", "1e400"], ["--seconds", "at most 60"]),
        (["probe", "--trials", "0"], ["--trials"]),
        (["run", "-o", ""], ["-o ''", "empty"]),
        (["run", "-o", "out.html"], ["-o out.html", "Run document (JSON)", "ridgeline report"]),
        (["run", "-o", "out.md"], ["-o out.md"]),
        (["run", "-o", "run.jsonl"], ["-o run.jsonl", "journal"]),
        (["run", "-o", "/nonexistent-dir/run.json"], ["/nonexistent-dir", "does not exist"]),
        (["run", "-o", "/tmp"], ["-o /tmp", "is a directory"]),
        (["run", "--benchmark_format=csv"], ["--benchmark_format"]),
        (["run", "--benchmark_out_format=console"], ["--benchmark_out_format"]),
        (["report", RUN_FIXTURE, "-o", "/dev/null"], ["-o /dev/null", "--format"]),
        (["report", RUN_FIXTURE, "-o", ""], ["-o ''"]),
        (["probe", "-o", "/nonexistent-dir/m.json"], ["/nonexistent-dir", "does not exist"]),
        # --params: unknown dim or attribute, zero, above the maximum, not a number, empty,
        # an attribute value the op does not have.
        (["run", "--suite", "fusion", "--params", "rows=64,bogus=3"],
         ["--params rows=64,bogus=3", "no op of suite 'fusion'", "softmax"]),
        (["run", "--suite", "fusion", "--params", "rows=4,act=relu"], ["no op of suite"]),
        (["run", "--suite", "fusion", "--params", "rows=0"], ["rows=0", "minimum of 1"]),
        (["run", "--suite", "fusion", "--params", "L=33"], ["L=33", "maximum of 32"]),
        (["run", "--suite", "fusion", "--params", "cols=4k"], ["cols=4k", "whole number"]),
        (["run", "--suite", "fusion", "--params", "rows=99999999999999999999"],
         ["too large"]),  # a whole number, past int64 (#37)
        (["run", "--suite", "fusion", "--params", "rows=4,,cols=4"], ["an empty parameter"]),
        (["run", "--suite", "fusion", "--params", "rows"], ["rows"]),
        (["run", "--params", "layout=XY"], ["layout=XY", "NN, NT, TN, TT"]),
        (["run", "--pattern", "sparse100"], ["unknown pattern 'sparse100'", "sparseP"]),
        (["run", "--fp-env", "fast"], ["unknown fp-env 'fast'", "ftz_daz"]),
        (["run", "--cache", "hot"], ["unknown cache 'hot'", "warm, cold"]),
        (["run", "--params", "m=-4"], ["m=-4"]),
    ]

    def test_each_is_one_line_and_exit_2_and_nothing_is_written(self):
        with tempfile.TemporaryDirectory() as d:
            for args, needles in self.TABLE:
                with self.subTest(args=args):
                    start = time.monotonic()
                    r = ridgeline(*args, cwd=d)
                    self.assertEqual(r.returncode, 2, f"rc={r.returncode} stderr={r.stderr}")
                    lines = r.stderr.strip().splitlines()
                    self.assertEqual(len(lines), 1, f"one line expected: {r.stderr!r}")
                    self.assertLess(len(lines[0]), 240, "a range is written readably")
                    for n in needles:
                        self.assertIn(n, lines[0])
                    self.assertEqual(r.stdout, "")
                    # Refused before anything was measured (a probe takes seconds).
                    self.assertLess(time.monotonic() - start, 5)
            self.assertEqual(os.listdir(d), [], "nothing written for bad input")

    def test_report_checks_every_output_before_writing_the_first(self):
        with tempfile.TemporaryDirectory() as d:
            first = os.path.join(d, "a.html")
            r = ridgeline("report", RUN_FIXTURE, "-o", first, "-o", "/nonexistent-dir/b.md")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("/nonexistent-dir", r.stderr)
            self.assertFalse(os.path.exists(first), "a.html written before b.md was checked")


class OutputsAreNeverDestroyed(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.d = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def test_a_device_is_written_through_and_the_journal_goes_elsewhere(self):
        before = os.stat("/dev/null")
        r = ridgeline("run", *ONE_CASE, "-o", "/dev/null", cwd=self.d)
        self.assertEqual(r.returncode, 0, r.stderr)
        after = os.stat("/dev/null")
        self.assertTrue(stat.S_ISCHR(after.st_mode), "/dev/null is no longer a device")
        self.assertEqual((before.st_rdev, before.st_ino), (after.st_rdev, after.st_ino))
        self.assertFalse(os.path.exists("/dev/null.jsonl"))
        journals = os.path.join(CACHE, "ridgeline", "journals")
        self.assertTrue(any(f.endswith(".jsonl") for f in os.listdir(journals)))
        self.assertIn(journals, r.stderr, "the journal's place is said")

    def test_a_symlink_keeps_pointing_at_its_updated_target(self):
        target = os.path.join(self.d, "target.json")
        with open(target, "w") as f:
            f.write("old")
        link = os.path.join(self.d, "link.json")
        os.symlink("target.json", link)
        r = ridgeline("run", *ONE_CASE, "-o", link)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.islink(link))
        self.assertEqual(os.readlink(link), "target.json")
        with open(target) as f:
            self.assertEqual(len(json.load(f)["benchmarks"]), 1)
        self.assertTrue(os.path.exists(os.path.join(self.d, "target.jsonl")))
        with open(target + ".prev") as f:
            self.assertEqual(f.read(), "old", "the previous file is moved aside, not lost")

    def test_a_fifo_receives_the_report_and_stays_a_fifo(self):
        fifo = os.path.join(self.d, "pipe")
        os.mkfifo(fifo)
        received = []

        def read():
            with open(fifo) as f:
                received.append(f.read())

        reader = threading.Thread(target=read)
        reader.start()
        r = ridgeline("report", RUN_FIXTURE, "--format", "md", "-o", fifo)
        reader.join(30)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        self.assertIn("# Ridgeline report", received[0])
        self.assertEqual(r.stdout, "", "a stream carries the report; no path is printed")

    def test_a_second_run_on_the_same_file_is_refused_and_the_first_survives(self):
        out = os.path.join(self.d, "run.json")
        first = subprocess.Popen([RIDGELINE, "run", "--suite", "smoke", "--filter", "naive/f64",
                                  "--repetitions", "2", "--min-time", "1", "--no-probe",
                                  "-o", out], env=ENV, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        try:
            lock = os.path.join(self.d, ".run.json.lock")
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:  # until the first run holds the file
                if os.path.exists(lock) and open(lock).read().strip() == str(first.pid):
                    break
                time.sleep(0.05)
            second = ridgeline("run", *ONE_CASE, "-o", out)
            self.assertEqual(second.returncode, 2, second.stderr)
            self.assertIn("another ridgeline run", second.stderr)
            self.assertIn(f"pid {first.pid}", second.stderr)
        finally:
            _, err = first.communicate(timeout=120)
        self.assertEqual(first.returncode, 0, err)
        with open(out) as f:
            names = {b["run_name"] for b in json.load(f)["benchmarks"]}
        listed = ridgeline("run", "--suite", "smoke", "--filter", "naive/f64",
                           "--benchmark_list_tests").stdout.split()
        self.assertEqual(names, set(listed), "every case of the first run is kept")


class RequestedEvents(unittest.TestCase):
    """An event named in --collect that cannot be counted is said before the run (no such
    PAPI event exists anywhere, so this holds on every machine)."""

    ASKED = ["--collect", "papi:RIDGELINE_NO_SUCH_EVENT,perf:page-faults"]

    def test_each_uncountable_event_is_one_warning_and_the_run_goes_on(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "run.json")
            r = ridgeline("run", *ONE_CASE, *self.ASKED, "-o", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            warnings = [l for l in r.stderr.splitlines() if "warning:" in l]
            # Under qemu-user perf_event_open is not there: page-faults is said too, and why.
            self.assertEqual(len(warnings), 2 if EMULATED else 1, r.stderr)
            self.assertIn("--collect papi:RIDGELINE_NO_SUCH_EVENT will not be counted", warnings[0])
            if EMULATED:
                self.assertIn("(qemu-user) does not implement perf_event_open", warnings[1])
            with open(out) as f:
                for s in json.load(f)["context"]["ridgeline"]["collectors"]:
                    self.assertFalse(not s["available"] and s.get("trust") == "trusted", s)

    def test_strict_refuses_before_running(self):
        with tempfile.TemporaryDirectory() as d:
            r = ridgeline("run", *ONE_CASE, *self.ASKED, "--strict", cwd=d)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn("--strict", r.stderr)
            self.assertIn("papi:RIDGELINE_NO_SUCH_EVENT", r.stderr)
            self.assertEqual(os.listdir(d), [])


class Reproducible(unittest.TestCase):
    def test_a_run_records_how_it_was_made(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "run.json")
            r = ridgeline("run", *ONE_CASE, "--seed", "77", "--warmup", "0.01", "-o", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                p = json.load(f)["context"]["ridgeline"]["provenance"]
        self.assertEqual((p["suite"], p["seed"], p["repetitions"]), ("smoke", 77, 1))
        self.assertEqual((p["min_time_s"], p["warmup_s"], p["iterations"]), (0.01, 0.01, 0))
        self.assertEqual(p["case_timeout_s"], 600)
        self.assertEqual(p["command_line"][1:3], ["run", "--suite"])
        self.assertIn("--seed", p["command_line"])
        self.assertTrue(p["commit"])
        self.assertRegex(p["compiler"], r"^(GNU|Clang) \d+")
        self.assertIn("-march=", p["flags"])

    def test_dry_run_prints_the_plan_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            r = ridgeline("run", "--suite", "smoke", "--filter", "naive/f64", "--min-time", "5x",
                          "--dry-run", cwd=d)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("2 cases, suite smoke", r.stdout)
            self.assertIn("5 iterations", r.stdout)
            self.assertIn("  gemm/cpu.naive/f64/m=64,n=64,k=64", r.stdout)
            self.assertEqual(os.listdir(d), [])


class ExitStatus(unittest.TestCase):
    def test_all_passed_is_0_and_help_documents_the_statuses(self):
        with tempfile.TemporaryDirectory() as d:
            r = ridgeline("run", *ONE_CASE, "-o", os.path.join(d, "run.json"))
            self.assertEqual(r.returncode, 0, r.stderr)
        h = ridgeline("run", "--help")
        for code in ("0", "1", "2"):
            self.assertRegex(h.stdout, rf"\b{code}\b")
        self.assertIn("Exit status", h.stdout)

    @unittest.skipUnless(WRONG_CBLAS, "WRONG_CBLAS (the fixture library) not given")
    def test_an_incorrect_case_is_exit_1_and_the_run_is_still_written(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "run.json")
            r = ridgeline("run", "--suite", "smoke", "--blas-lib", WRONG_CBLAS, "--backend",
                          "blas.fixture_wrong_cblas", "--dtype", "f64", "--repetitions", "1",
                          "--min-time", "0.01", "--no-probe", "-o", out)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("failed (incorrect, crashed or timed out)", r.stderr)
            with open(out) as f:
                doc = json.load(f)
            dispositions = {b["ridgeline"]["validation"]["disposition"] for b in doc["benchmarks"]}
            self.assertEqual(dispositions, {"incorrect"})


if __name__ == "__main__":
    unittest.main()
