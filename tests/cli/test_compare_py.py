"""Google Benchmark's own tools/compare.py on two Ridgeline runs.

compare.py comes from Debian's libbenchmark-tools (/usr/share/benchmark/compare.py) and
needs python3-scipy (both in scripts/install-deps). RIDGELINE names the binary and
COMPARE_PY the script (CTest sets both). Everything is written under the working directory
(CTest runs this in build/tests/cli-work) and removed afterwards.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
COMPARE_PY = os.environ.get("COMPARE_PY", "/usr/share/benchmark/compare.py")
SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# Two problem sizes whose expected times fall in different units (runner.hpp, time_unit_for).
CASES = {"m=64,n=64,k=64": "ns", "m=512,n=512,k=512": "us"}


def python_with_scipy():
    """compare.py imports scipy: Debian's python3-scipy is for /usr/bin/python3."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if exe and os.path.exists(exe):
            if subprocess.run([exe, "-c", "import scipy"], capture_output=True).returncode == 0:
                return exe
    return None


class CompareLikeGoogleBenchmark(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.python = python_with_scipy()
        if not os.path.exists(COMPARE_PY):
            raise unittest.SkipTest(f"{COMPARE_PY} not found: install libbenchmark-tools")
        if cls.python is None:
            raise unittest.SkipTest("no python3 with scipy for compare.py: install python3-scipy")
        cls.dir = tempfile.mkdtemp(prefix="compare-py-", dir=os.getcwd())
        env = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": os.path.join(cls.dir, "cache")}
        run = ["run", "--suite", "smoke", "--backend", "cpu.tiled", "--dtype", "f64",
               "--threads", "1", "--shape", "64,512", "--repetitions", "3",
               "--min-time", "0.01", "--warmup", "0", "--no-probe"]
        cls.files, cls.docs = [], []
        for name in ("base", "new"):
            path = os.path.join(cls.dir, name + ".json")
            r = subprocess.run([RIDGELINE, *run, "-o", path], capture_output=True, text=True,
                               env=env, timeout=300)
            if r.returncode != 0:
                raise AssertionError(f"ridgeline run failed: {r.stderr}")
            cls.files.append(path)
            with open(path) as f:
                cls.docs.append(json.load(f))
        dump = os.path.join(cls.dir, "diff.json")
        cls.compare = subprocess.run(
            [cls.python, COMPARE_PY, "--no-color", "-d", dump, "benchmarks", *cls.files],
            capture_output=True, text=True, timeout=300)
        cls.diff = []
        if os.path.exists(dump):
            with open(dump) as f:
                cls.diff = json.load(f)

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "dir"):
            shutil.rmtree(cls.dir, ignore_errors=True)

    def rows(self, doc):
        return [b for b in doc["benchmarks"] if "ridgeline" in b]

    def test_compare_py_reads_both_runs(self):
        self.assertEqual(self.compare.returncode, 0, self.compare.stderr)
        names = {d["name"] for d in self.diff}
        for b in self.rows(self.docs[0]):
            self.assertIn(b["name"], names, "every row of the base run is compared")

    def test_each_case_has_its_unit_and_the_unit_is_right(self):
        for doc in self.docs:
            for b in self.rows(doc):
                shape = b["ridgeline"]["params"]["dims"]
                key = f"m={shape['m']},n={shape['n']},k={shape['k']}"
                self.assertEqual(b["time_unit"], CASES[key], b["name"])
                if b["run_type"] != "iteration":
                    continue
                timed = {m["name"]: m["value"] for m in b["ridgeline"]["metrics"]}
                seconds = b["real_time"] * SECONDS[b["time_unit"]]
                self.assertAlmostEqual(seconds / timed["time_per_iteration"], 1.0, places=6,
                                       msg=b["name"])

    def test_times_are_not_zero_where_compare_py_prints_them(self):
        """compare.py prints times with no decimals: each time must read at least 100 here."""
        self.assertTrue(self.diff)
        printed = 0
        for d in self.diff:
            if d.get("aggregate_name") not in ("", "mean", "median") or d["name"] == "OVERALL_GEOMEAN":
                continue  # stddev and cv are spreads, not times
            for m in d["measurements"]:
                for key in ("real_time", "real_time_other", "cpu_time", "cpu_time_other"):
                    self.assertGreaterEqual(m[key], 100, f"{d['name']} {key}: {m[key]}")
                    printed += 1
        self.assertGreater(printed, 0)
        lines = self.compare.stdout.splitlines()
        for d in self.diff:
            if d.get("aggregate_name") in ("", "mean", "median"):
                line = next((l for l in lines if l.split() and l.split()[0] == d["name"]), None)
                self.assertIsNotNone(line, d["name"])
                numbers = line.split()[-4:]
                self.assertEqual(numbers[0], f"{d['measurements'][0]['real_time']:.0f}", line)
                self.assertNotEqual(numbers[0], "0", line)

    def test_cv_is_the_plain_fraction(self):
        for doc in self.docs:
            rows = self.rows(doc)
            for cv in (b for b in rows if b.get("aggregate_name") == "cv"):
                self.assertEqual(cv["aggregate_unit"], "percentage")
                times = [b["real_time"] for b in rows
                         if b["run_type"] == "iteration" and b["run_name"] == cv["run_name"]]
                self.assertEqual(len(times), 3)
                mean = sum(times) / 3
                stddev = (sum((t - mean) ** 2 for t in times) / 2) ** 0.5
                self.assertAlmostEqual(cv["real_time"], stddev / mean, places=9, msg=cv["name"])

    def test_u_test_section_is_present(self):
        out = self.compare.stdout
        self.assertIn("_pvalue", out)
        self.assertIn("U Test, Repetitions: 3 vs 3", out)
        utests = [d for d in self.diff if d.get("utest")]
        self.assertEqual(len(utests), len(CASES), "one U test per case")
        for d in utests:
            self.assertIsNotNone(d["utest"]["time_pvalue"], d["name"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
