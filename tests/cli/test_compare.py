"""`ridgeline compare` as a CI job runs it: two real runs, one of them edited to be slower,
exit codes, the JSON, and bad input (one line, exit 2, nothing written)."""
import copy
import json
import os
import re
import shutil
import tempfile
import unittest
import xml.etree.ElementTree as ET

from arch_facts import PACKED_BACKEND
from cli_support import ridgeline, remove_cache


def tearDownModule():
    remove_cache()


def slowed(run, factor, backend):
    """The run with every timed row of `backend` `factor` times slower."""
    out = copy.deepcopy(run)
    for b in out["benchmarks"]:
        if b.get("ridgeline", {}).get("backend") == backend and b.get("run_type") == "iteration":
            b["real_time"] *= factor
            b["cpu_time"] *= factor
    return out


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="compare-", dir=os.getcwd())
        cls.base = os.path.join(cls.dir, "base.json")
        r = ridgeline("run", "--no-isolation", "--backend", PACKED_BACKEND + ",cpu.tiled", "--shape", "96",
                      "--dtype", "f32", "--repetitions", "8", "--min-time", "0.01", "-o", cls.base)
        if r.returncode != 0:
            raise RuntimeError(r.stderr)
        with open(cls.base) as f:
            cls.doc = json.load(f)
        # The measured times of this shared VM swing by 10% at this size: each case's
        # repetitions are set 0.1% apart around its first, so that the verdicts below depend
        # on the edits the tests make, not on the machine's noise (the RunComparison.* unit
        # tests cover noisy samples).
        first = {}
        for b in cls.doc["benchmarks"]:
            if b.get("run_type") == "iteration" and "ridgeline" in b:
                t = first.setdefault(b["run_name"], b["real_time"])
                b["real_time"] = b["cpu_time"] = t * (1 + 0.001 * b["repetition_index"])
        with open(cls.base, "w") as f:
            json.dump(cls.doc, f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def write(self, name, run):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            json.dump(run, f)
        return path

    def test_a_run_against_itself_is_the_same_and_passes(self):
        out = os.path.join(self.dir, "same.json")
        r = ridgeline("compare", self.base, self.base, "--json", out)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("2 same", r.stdout)
        with open(out) as f:
            cmp = json.load(f)
        self.assertEqual([c["verdict"] for c in cmp["cases"]], ["same", "same"])
        self.assertFalse(cmp["gate_failed"])
        self.assertEqual(cmp["geomean_ratio"], 1.0)

    def test_a_slower_case_fails_the_gate_with_exit_1(self):
        slow = self.write("slow.json", slowed(self.doc, 1.3, "cpu.tiled"))
        out = os.path.join(self.dir, "slow-cmp.json")
        md = os.path.join(self.dir, "summary.md")
        junit = os.path.join(self.dir, "junit.xml")
        r = ridgeline("compare", self.base, slow, "--json", out, "--markdown", md, "--junit", junit)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        for path in (out, md, junit):
            self.assertIn(os.path.abspath(path), r.stdout.splitlines())
        with open(md) as f:
            summary = f.read()
        self.assertRegex(summary, r"^### Ridgeline compare: gate failed\n")
        self.assertRegex(summary, re.compile(r"^\| REGRESSION \| 1\.300 \| 1\.\d{3}-1\.\d{3} \| [0-9.e-]+ \| 8/8 \| "
                                             r"gemm/cpu\.tiled/f32/m=96,n=96,k=96/layout=NN/pattern=normal/threads=1 \| "
                                             r"slower by 30\.0%", re.M))
        self.assertRegex(summary, r"<details><summary>1 case the same within ±5%</summary>")
        suite = ET.parse(junit).getroot().find("testsuite")
        self.assertEqual((suite.get("tests"), suite.get("failures")), ("2", "1"))
        cases = {c.get("name").split("/")[1]: c for c in suite.findall("testcase")}
        failure = cases["cpu.tiled"].find("failure")
        self.assertEqual(failure.get("type"), "regression")
        props = {p.get("name"): p.get("value") for p in cases["cpu.tiled"].find("properties")}
        self.assertAlmostEqual(float(props["ratio"]), 1.3, places=5)
        self.assertEqual((props["base_repetitions"], props["new_repetitions"]), ("8", "8"))
        self.assertLess(float(props["p_holm"]), 0.05)
        self.assertIsNone(cases[PACKED_BACKEND].find("failure"))
        self.assertIn("REGRESSION", r.stdout)
        self.assertIn("gate (--fail-on regression): FAILED", r.stdout)
        with open(out) as f:
            cases = {c["key"]["backend"]: c for c in json.load(f)["cases"]}
        self.assertEqual(cases["cpu.tiled"]["verdict"], "regression")
        self.assertAlmostEqual(cases["cpu.tiled"]["ratio"], 1.3, places=6)
        self.assertTrue(cases["cpu.tiled"]["fails"])
        self.assertEqual(cases[PACKED_BACKEND]["verdict"], "same")
        # The mirror is an improvement: it never fails the default gate, it does under change.
        r = ridgeline("compare", slow, self.base)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("IMPROVEMENT", r.stdout)
        self.assertEqual(ridgeline("compare", slow, self.base, "--fail-on", "change").returncode, 1)

    def test_a_threshold_above_the_change_makes_it_the_same(self):
        slow = self.write("slow3.json", slowed(self.doc, 1.03, "cpu.tiled"))
        r = ridgeline("compare", self.base, slow, "--threshold", "10%")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("2 same", r.stdout)

    def test_a_newly_broken_case_fails_whatever_its_time(self):
        broken = copy.deepcopy(self.doc)
        for b in broken["benchmarks"]:
            if b.get("ridgeline", {}).get("backend") == "cpu.tiled":
                b["ridgeline"]["validation"]["disposition"] = "incorrect"
        r = ridgeline("compare", self.base, self.write("broken.json", broken))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("BROKEN", r.stdout)
        self.assertIn("validation was passed, now incorrect", r.stdout)

    def test_added_and_removed_cases_are_listed(self):
        fewer = copy.deepcopy(self.doc)
        fewer["benchmarks"] = [b for b in fewer["benchmarks"] if b.get("ridgeline", {}).get("backend") != "cpu.tiled"]
        path = self.write("fewer.json", fewer)
        r = ridgeline("compare", self.base, path)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("removed (only in the base run): gemm/cpu.tiled/", r.stdout)
        r = ridgeline("compare", path, self.base)
        self.assertIn("added (only in the new run): gemm/cpu.tiled/", r.stdout)
        self.assertEqual(ridgeline("compare", path, self.base, "--fail-on", "change").returncode, 1)

    def test_calibrate_writes_thresholds_that_compare_uses(self):
        # Three "runs of the same code": the base and two copies 0.5% and 1% apart. The copies'
        # intervals reach about 1% from 1, so each case's threshold is 1.25 x its noise floor.
        copies = [self.base, self.write("aa2.json", slowed(slowed(self.doc, 1.005, "cpu.tiled"), 1.005, PACKED_BACKEND)),
                  self.write("aa3.json", slowed(slowed(self.doc, 1.01, "cpu.tiled"), 1.01, PACKED_BACKEND))]
        thresholds = os.path.join(self.dir, "thresholds.json")
        r = ridgeline("compare", "--calibrate", *copies, "-o", thresholds)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("calibrate: 3 runs, 3 pairs, 2 cases", r.stdout)
        self.assertIn(os.path.abspath(thresholds), r.stdout.splitlines())
        with open(thresholds) as f:
            doc = json.load(f)
        self.assertEqual(doc["ridgeline_thresholds"], 1)
        self.assertEqual(doc["default_threshold"], 0.05)
        by_backend = {c["key"]["backend"]: c for c in doc["cases"]}
        self.assertEqual(set(by_backend), {"cpu.tiled", PACKED_BACKEND})
        for c in doc["cases"]:
            self.assertEqual(c["runs"], 3)
            self.assertAlmostEqual(c["threshold"], max(1.25 * c["noise_floor"], 0.01))
            self.assertGreater(c["noise_floor"], 0.009)
        # A 3% slowdown: the same at the global 5%, a regression at the calibrated ~1.3%.
        slow = self.write("slow-cal.json", slowed(self.doc, 1.03, "cpu.tiled"))
        self.assertEqual(ridgeline("compare", self.base, slow).returncode, 0)
        r = ridgeline("compare", self.base, slow, "--threshold", thresholds)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("threshold per case from --calibrate (2 listed", r.stdout)
        self.assertIn("REGRESSION", r.stdout)

    def test_history_of_a_directory_orders_runs_by_date(self):
        hist = os.path.join(self.dir, "history")
        os.makedirs(hist)
        # Eight runs, cpu.tiled 20% slower from the fifth on; file names run against the dates.
        for i in range(8):
            run = slowed(self.doc, 1.2 if i >= 4 else 1.0, "cpu.tiled")
            run["context"]["date"] = f"2026-11-{10 + i:02d}T00:00:00+00:00"
            with open(os.path.join(hist, f"z{7 - i}.json"), "w") as f:
                json.dump(run, f)
        r = ridgeline("compare", "--history", hist, "--last", "3")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("history of 8 runs, oldest first", r.stdout)
        self.assertRegex(r.stdout, r"gemm/cpu\.tiled/.*\n  \+20\.0% from run 5 \(.*z3\.json\)")
        self.assertIn("(1 case without a step)", r.stdout)
        self.assertIn("the newest run against the 3 runs before it, their repetitions pooled", r.stdout)
        self.assertIn("2 same", r.stdout)
        # Against the five before it the window straddles the step: not the same any more.
        r = ridgeline("compare", "--history", hist, "--last", "5")
        self.assertNotIn("2 same", r.stdout)
        # Given as files, the order is the one given: newest last.
        files = [os.path.join(hist, f"z{7 - i}.json") for i in range(8)]
        self.assertIn("from run 5", ridgeline("compare", "--history", *files).stdout)
        for args in (["compare", "--history", files[0]], ["compare", "--history", hist, "--last", "0"],
                     ["compare", "--history", "--calibrate", *files]):
            with self.subTest(args=args):
                r = ridgeline(*args)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_report_draws_both_runs_on_one_roofline(self):
        slow = self.write("slow-report.json", slowed(self.doc, 1.3, "cpu.tiled"))
        html = os.path.join(self.dir, "cmp.html")
        md = os.path.join(self.dir, "cmp.md")
        r = ridgeline("report", self.base, slow, "-o", html, md)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)  # a report, not the gate
        self.assertEqual(r.stdout.splitlines(), [os.path.abspath(html), os.path.abspath(md)])
        with open(html) as f:
            page = f.read()
        self.assertIn("The gate fails", page)
        self.assertEqual(page.count('<g class="point base">'), 2)
        self.assertEqual(page.count('<g class="point new">'), 2)
        # 30% slower at the same intensity: about 17 px on this plot, too short for an arrow
        # between two markers, so the caption counts it instead.
        self.assertRegex(page, r"moved too little to draw an arrow \(1 regression, 1 same\)|"
                               r"class=\"comparison-arrow\"[^>]*stroke=\"#e03131\"")
        self.assertEqual(page.count('<tr data-verdict="regression">'), 1)
        self.assertEqual(page.count('<tr data-verdict="same">'), 1)
        # The Markdown is the step summary compare writes, and the default name is NEW-vs-BASE.
        with open(md) as f:
            summary = f.read()
        compared = os.path.join(self.dir, "compared.md")
        ridgeline("compare", self.base, slow, "--markdown", compared)
        with open(compared) as f:
            self.assertEqual(summary, f.read())
        r = ridgeline("report", self.base, slow, "--threshold", "40%")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        default = os.path.join(self.dir, "slow-report-vs-base.html")
        self.assertEqual(r.stdout.splitlines(), [os.path.abspath(default)])
        with open(default) as f:
            self.assertIn("The gate passes", f.read())  # 30% is within ±40%

    def test_bad_input_is_one_line_and_exit_2(self):
        not_a_run = self.write("not-a-run.json", {"hello": 1})
        out = os.path.join(self.dir, "never.json")
        for args in (["compare", self.base],
                     ["compare", self.base, os.path.join(self.dir, "missing.json")],
                     ["compare", self.base, not_a_run, "--json", out],
                     ["compare", self.base, not_a_run, "--markdown", out, "--junit", out + ".xml"],
                     ["compare", self.base, self.base, "--junit", os.path.join(self.dir, "no-such-dir", "j.xml")],
                     ["compare", self.base, self.base, "--threshold", "five"],
                     ["compare", self.base, self.base, "--threshold", "150%"],
                     ["compare", self.base, self.base, "--alpha", "2"],
                     ["compare", self.base, self.base, "--fail-on", "sometimes"],
                     ["compare", self.base, self.base, self.base],
                     ["compare", "--calibrate", self.base, "-o", out],
                     ["compare", "--calibrate", self.base, not_a_run, "-o", out],
                     ["compare", self.base, self.base, "--threshold", not_a_run],
                     ["compare", self.base, self.base, "--threshold", os.path.join(self.dir, "none.json")],
                     ["report", self.base, self.base, "-o", out + ".html", out + ".csv"],
                     ["report", self.base, self.base, "-o", out + ".html", "--csv-fusion", out + ".csv"],
                     ["report", self.base, self.base, not_a_run, "-o", out + ".html"],
                     ["report", self.base, not_a_run, "-o", out + ".html"],
                     ["report", self.base, "-o", out + ".html", "--threshold", "5%"],
                     ["report", self.base, self.base, "-o", out + ".html", "--alpha", "0"]):
            with self.subTest(args=args):
                r = ridgeline(*args)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                for written in (out, out + ".xml", out + ".html", out + ".csv"):
                    self.assertFalse(os.path.exists(written), written)


if __name__ == "__main__":
    unittest.main()
