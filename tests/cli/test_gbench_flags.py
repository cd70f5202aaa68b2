"""`ridgeline` driven as a Google Benchmark binary: the flags tools pass, and Google
Benchmark's own compare.py running it (`compare.py benchmarks ridgeline ridgeline ...`).

RIDGELINE names the binary. compare.py comes from Debian's libbenchmark-tools and runs
under Debian's python3 with python3-scipy (scripts/install-deps installs both).
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
COMPARE_PY = "/usr/share/benchmark/compare.py"
DEBIAN_PYTHON = "/usr/bin/python3"
CACHE = tempfile.mkdtemp(prefix="ridgeline-test-cache-")
ENV = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": CACHE}
FAST = ["--benchmark_repetitions=3", "--benchmark_min_time=0.01s", "--no-probe"]


def tearDownModule():
    shutil.rmtree(CACHE, ignore_errors=True)


def ridgeline(*args, timeout=300):
    return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=timeout,
                          env=ENV)


class Flags(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "out")  # compare.py's names have no extension

    def tearDown(self):
        self.dir.cleanup()

    def listed(self, *args):
        r = ridgeline(*args, "--benchmark_list_tests")
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.split()

    def test_list_tests_runs_nothing_and_a_leading_minus_excludes(self):
        everything = self.listed("--suite", "smoke")
        naive = self.listed("--suite", "smoke", "--benchmark_filter=cpu.naive")
        others = self.listed("--suite", "smoke", "--benchmark_filter=-cpu.naive")
        self.assertTrue(naive and others)
        self.assertEqual(sorted(naive + others), sorted(everything))
        self.assertFalse(any("cpu.naive" in n for n in others))
        self.assertFalse(os.path.exists("run.json"), "listing wrote a Run")

    def test_no_subcommand_means_run_and_min_time_takes_iterations(self):
        r = ridgeline("--suite", "smoke", "--benchmark_filter=naive/f64/m=64",
                      "--benchmark_repetitions=2", "--benchmark_min_time=7x", "--no-probe",
                      f"--benchmark_out={self.out}", "--benchmark_out_format=json")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            rows = [b for b in json.load(f)["benchmarks"] if b["run_type"] == "iteration"]
        self.assertEqual([b["iterations"] for b in rows], [7, 7])

    def test_report_aggregates_only_and_json_on_stdout(self):
        r = ridgeline("run", "--suite", "smoke", "--benchmark_filter=naive/f64", *FAST,
                      "--benchmark_report_aggregates_only=true", "--benchmark_format=json",
                      "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        printed = json.loads(r.stdout)
        with open(self.out) as f:
            written = json.load(f)
        self.assertEqual(printed["benchmarks"], written["benchmarks"])
        kinds = {b["run_type"] for b in written["benchmarks"]}
        self.assertEqual(kinds, {"aggregate"})
        self.assertEqual({b["aggregate_name"] for b in written["benchmarks"]},
                         {"mean", "median", "stddev", "cv"})

    def test_display_aggregates_only_is_accepted(self):
        r = ridgeline("--suite", "smoke", "--benchmark_filter=naive/f64/m=64", *FAST,
                      "--benchmark_display_aggregates_only=true", f"--benchmark_out={self.out}")
        self.assertEqual(r.returncode, 0, r.stderr)


@unittest.skipUnless(os.path.exists(COMPARE_PY) and os.path.exists(DEBIAN_PYTHON),
                     f"{COMPARE_PY} (Debian's libbenchmark-tools) is not installed")
class ComparePy(unittest.TestCase):
    def test_compare_py_runs_ridgeline_as_both_benchmarks(self):
        # compare.py names each output with mkstemp; ridgeline keeps its journal (NAME.jsonl)
        # and the placeholder it replaced (NAME.prev) beside it, so they go in a folder of ours.
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([DEBIAN_PYTHON, COMPARE_PY, "-a", "benchmarks", RIDGELINE,
                                RIDGELINE, "--suite", "smoke", "--benchmark_filter=naive/f64",
                                *FAST], capture_output=True, text=True, timeout=600,
                               env={**ENV, "TMPDIR": tmp})
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        self.assertNotIn("TEST FAILED", r.stdout)
        for case in ("gemm/cpu.naive/f64/m=64,n=64,k=64", "gemm/cpu.naive/f64/m=37,n=53,k=29"):
            self.assertIn(case, r.stdout)
        self.assertIn("_pvalue", r.stdout)
        self.assertIn("OVERALL_GEOMEAN", r.stdout)


if __name__ == "__main__":
    unittest.main()
