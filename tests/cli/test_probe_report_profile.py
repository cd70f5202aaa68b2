"""One real `ridgeline probe`, then what builds on it: the cache, partial probes, run,
report and profile. Its own CTest test, so that the probe (the longest single step of the
suite) runs beside the rest.
"""
import json
import os
import shutil
import tempfile
import unittest

from arch_facts import ARCH, MEMORY_ISAS, VECTOR_ISA
from cli_support import FIXTURES, RIDGELINE, remove_cache, ridgeline


def tearDownModule():
    remove_cache()


class ProbeReportProfile(unittest.TestCase):
    """One real probe into the test cache, then what builds on it."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="ridgeline-cli-")
        cls.machine_path = os.path.join(cls.dir, "machine.json")
        cls.probe = ridgeline("probe", "-o", cls.machine_path, timeout=600)
        with open(cls.machine_path) as f:
            cls.machine = json.load(f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_probe_measures_every_ceiling(self):
        self.assertEqual(self.probe.returncode, 0, self.probe.stderr)
        m = self.machine
        self.assertGreater(m["cpu"]["measured_clock_hz"], 1e8)
        threads = {c["threads"] for c in m["compute"]}
        self.assertEqual(threads, {1, m["cpu"]["cores"]})
        names = {c["name"] for c in m["compute"]}
        for name in ("f64.scalar.fma", "f32.scalar.fma", f"f64.{VECTOR_ISA}.fma", f"f32.{VECTOR_ISA}.fma"):
            self.assertIn(name, names)
        for c in m["compute"]:
            self.assertGreater(c["per_second"], 0, c)
            self.assertEqual(c["source"], "timed")
            self.assertTrue(c["theoretical_per_second"] > 0 or c["theoretical_reason"], c)
        levels = {(c["level"], c["kernel"]) for c in m["memory"]}
        for level in ("L1", "L2", "DRAM"):
            for kernel in ("read", "write", "copy", "triad"):
                self.assertIn((level, kernel), levels)
        self.assertTrue(all(c["bytes_per_s"] > 0 and c["working_set_bytes"] > 0 for c in m["memory"]))
        # Each bandwidth ceiling names the instruction width that reached it.
        self.assertTrue(all(c["isa"] in MEMORY_ISAS for c in m["memory"]), m["memory"])
        self.assertGreater(m["overhead"][0]["seconds"], 0)
        self.assertIn("write-allocate", m["byte_convention"])
        # The hierarchy by measurement: read and copy sweeps on 1 and all threads, and the
        # levels found in them beside hwloc's sizes; ceilings in the middle of a plateau.
        self.assertEqual(m["schema"], 2)
        cores = m["cpu"]["cores"]
        self.assertEqual({(s["kernel"], s["threads"]) for s in m["sweeps"]},
                         {(k, t) for k in ("read", "copy") for t in {1, cores}})
        for s in m["sweeps"]:
            self.assertEqual(len(s["working_set_bytes"]), len(s["bytes_per_s"]))
            self.assertEqual(s["working_set_bytes"], sorted(s["working_set_bytes"]))
        for t in {1, cores}:
            names = [l["name"] for l in m["levels"] if l["kernel"] == "read" and l["threads"] == t]
            self.assertEqual(names[0], "L1", m["levels"])
            self.assertEqual(names[-1], "DRAM", m["levels"])
        for c in m["memory"]:
            level = next(l for l in m["levels"]
                         if l["name"] == c["level"] and l["kernel"] == "read" and l["threads"] == c["threads"])
            self.assertGreaterEqual(c["working_set_bytes"], level["first_bytes"] * 0.99, c)
            self.assertLessEqual(c["working_set_bytes"], level["last_bytes"] * 1.01, c)
        # Three interleaved passes of every sweep, their noise, and what was kept of each of
        # hwloc's sizes and why.
        for s in m["sweeps"]:
            self.assertEqual(len(s["passes"]), 3, s)
            self.assertTrue(all(len(p) == len(s["working_set_bytes"]) for p in s["passes"]))
            self.assertGreater(s["noise"], 0)
        for l in m["levels"]:
            self.assertIn(l["decision"], ("confirmed", "inconclusive", "replaced", "extra", "memory"), l)
            self.assertEqual(l["decision"] == "memory", l["name"] == "DRAM", l)
            if l["decision"] != "memory":
                self.assertTrue(l["why"], l)
            self.assertEqual(l["disagrees"], l["decision"] == "replaced", l)
        # The 1-thread read and copy ceilings checked against likwid-bench, or the reason.
        for c in m["memory"]:
            if c["threads"] == 1 and c["kernel"] in ("read", "copy") and "check" not in c:
                self.assertTrue(m["check_reason"], c)
            if "check" in c:
                self.assertEqual(c["check"]["tool"], "likwid-bench")
                self.assertTrue(c["check"]["test"].startswith({"read": "load", "copy": "copy"}[c["kernel"]]), c)
                self.assertGreater(c["check"]["ratio"], 0)
        # AArch64 has no likwid-bench to check against (Debian 12 builds LIKWID for amd64 alone).
        self.assertIn("on AArch64" if ARCH == "aarch64" else "probe --check", m["check_reason"])

    def test_check_prints_each_ceiling_beside_likwid_bench(self):
        # One level's read, so that only two likwid-bench runs (1 and all threads) are made;
        # --check re-measures and is partial here, so not cached.
        bad = ridgeline("probe", "--check", "--no-check")
        self.assertEqual(bad.returncode, 2)
        r = ridgeline("probe", "--check", "--only", r"^L1\.read$", timeout=300)
        self.assertIn(r.returncode, (0, 1), r.stderr)  # 1: a 1-thread ceiling over 5% off
        if ARCH == "aarch64":
            self.assertIn("not checked: likwid-bench is not checked against on AArch64", r.stdout)
            self.assertEqual(r.returncode, 1)
            return
        if shutil.which("likwid-bench") is None:
            self.assertIn("not checked: likwid-bench is not on PATH", r.stdout)
            self.assertEqual(r.returncode, 1)
            return
        self.assertIn("checked against likwid-bench", r.stdout)
        # One row per thread count that has an L1 ceiling: likwid-bench's load test of the same
        # width. A thread count whose read sweep showed no L1 plateau (a machine busy beside
        # the probe: ctest runs two tests at once here) has no ceiling, and the probe says so.
        rows = [l for l in r.stdout.splitlines() if " load" in l]
        self.assertTrue(all(l.strip().startswith("L1   read") for l in rows), rows)
        counts = {int(l.split()[2]) for l in rows}
        for threads in {1, self.machine["cpu"]["cores"]} - counts:
            plural = "s" if threads > 1 else ""
            self.assertIn(f"L1 on {threads} thread{plural}: no plateau in the read sweep", r.stderr)
        self.assertEqual(len(rows), len(counts), rows)
        self.assertTrue(("within ±5%" in r.stdout) == (r.returncode == 0), r.stdout)
        self.assertIn("not cached", r.stderr)

    def test_partial_probe_measures_only_what_matches_and_is_not_cached(self):
        out = self.path("partial.json")
        r = ridgeline("probe", "--only", r"^L1\.copy$", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("not cached", r.stderr)
        with open(out) as f:
            m = json.load(f)
        self.assertEqual(m["compute"], [])
        self.assertEqual({(c["level"], c["kernel"]) for c in m["memory"]}, {("L1", "copy")})
        self.assertEqual(m["overhead"], [])
        # the full model is still the cached one
        self.assertIn("from the cache", ridgeline("probe").stderr)
        bad = ridgeline("probe", "--only", "(")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--only '(': invalid regular expression", bad.stderr)

    def test_second_probe_comes_from_the_cache(self):
        r = ridgeline("probe")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("from the cache", r.stderr)
        self.assertIn(self.machine["fingerprint"], r.stderr)

    def test_run_embeds_the_machine_and_report_writes_each_format(self):
        run = self.path("run.json")
        r = ridgeline("run", "--suite", "smoke", "--filter", "cpu.naive/f64/m=64", "-o", run)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(run) as f:
            doc = json.load(f)
        self.assertEqual(doc["context"]["ridgeline"]["machine"]["fingerprint"], self.machine["fingerprint"])
        outs = [self.path("r.html"), self.path("r.md"), self.path("r.csv")]
        r = ridgeline("report", run, "-o", outs[0], "-o", outs[1], "-o", outs[2])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split(), outs)
        with open(outs[0]) as f:
            self.assertIn("<svg", f.read())
        with open(outs[1]) as f:
            self.assertIn("## Results", f.read())
        with open(outs[2]) as f:
            self.assertEqual(len(f.read().splitlines()), 2)

    def test_report_of_foreign_google_benchmark_output(self):
        out = self.path("foreign.html")
        r = ridgeline("report", os.path.join(FIXTURES, "gbench-foreign.json"), "--machine", self.machine_path,
                      "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            html = f.read()
        self.assertIn("1 placed, 2 not placeable", html)
        self.assertIn("BM_Sort/1024", html)
        self.assertIn("no FLOP counter", html)

    def test_report_bad_input(self):
        bad = self.path("bad.json")
        with open(bad, "w") as f:
            f.write('{"context": {}, "benchmarks": [{"name": "x", "real_time": 1')
        r = ridgeline("report", bad, "-o", self.path("x.html"))
        self.assertEqual(r.returncode, 2)
        self.assertIn(bad + ": unexpected end of file (truncated?)", r.stderr)
        with open(bad, "w") as f:
            f.write('{"context": {}, "benchmarks": [{"name": 3}]}')
        r = ridgeline("report", bad)
        self.assertEqual(r.returncode, 2)
        self.assertIn(bad + ": benchmarks[0].name: expected a string, got number", r.stderr)
        r = ridgeline("report", os.path.join(FIXTURES, "gbench-foreign.json"), "-o", self.path("x.pdf"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown report format '.pdf'", r.stderr)
        r = ridgeline("report", self.path("missing.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("missing.json: cannot open", r.stderr)

    def test_profile_prints_a_summary_and_the_report_path(self):
        d = self.path("profile")
        r = ridgeline("profile", "-d", d, "--suite", "smoke", "--filter", "cpu.packed.*/f32/m=64")
        self.assertEqual(r.returncode, 0, r.stderr)
        last = r.stdout.strip().splitlines()[-1]
        self.assertEqual(last, "Report: " + os.path.join(os.path.abspath(d), "report.html"))
        # Where the build has the dashboard beside the command, profile says how to open the run.
        gui = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(RIDGELINE))), "gui", "ridgeline-gui")
        dashboard = [line for line in r.stdout.splitlines() if line.startswith("Dashboard: ")]
        if os.path.exists(gui) and os.environ.get("RIDGELINE_QT_BUILT") == "1":
            self.assertEqual(dashboard, [f"Dashboard: {os.path.normpath(gui)} {os.path.join(os.path.abspath(d), 'run.json')}"])
        else:
            self.assertEqual(dashboard, [])
        self.assertIn("GFLOP/s", r.stdout)
        for name in ("run.json", "report.html", "report.md", "report.csv"):
            self.assertTrue(os.path.exists(os.path.join(d, name)), name)


if __name__ == "__main__":
    unittest.main()
