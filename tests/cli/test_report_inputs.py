"""`ridgeline report` on every kind of input it may be given: a Run's journal (also one cut
by a kill), Google Benchmark's own files, and bad input (one line, exit 2).

RIDGELINE names the binary and RIDGELINE_FIXTURES the recorded files (CTest sets both).
Everything is written under the working directory (CTest runs this in
build/tests/cli-work) and removed afterwards.
"""
import csv
import json
import os
import shutil
import subprocess
import tempfile
import unittest

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
FIXTURES = os.environ.get("RIDGELINE_FIXTURES",
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))


class ReportInputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="report-inputs-", dir=os.getcwd())
        cls.env = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": os.path.join(cls.dir, "cache")}
        cls.run_json = os.path.join(cls.dir, "run.json")
        r = cls.ridgeline("run", "--suite", "smoke", "--backend", "cpu.naive,cpu.tiled",
                          "--dtype", "f64", "--threads", "1", "--shape", "16", "--repetitions", "2",
                          "--min-time", "0.001", "--warmup", "0", "--no-probe", "-o", cls.run_json)
        if r.returncode != 0:
            raise AssertionError(f"ridgeline run failed: {r.stderr}")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    @classmethod
    def ridgeline(cls, *args):
        return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, env=cls.env,
                              timeout=300)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def report_csv(self, source):
        out = self.path("out.csv")
        r = self.ridgeline("report", source, "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            return list(csv.DictReader(f)), r.stderr

    def assert_bad(self, args, *needles):
        r = self.ridgeline(*args)
        self.assertEqual(r.returncode, 2, f"{args}: rc={r.returncode} stderr={r.stderr}")
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"one line expected: {r.stderr!r}")
        self.assertNotIn("internal error", lines[0])
        for n in needles:
            self.assertIn(n, lines[0])

    def test_every_kind_of_input_compares_on_one_roofline(self):
        """report BASE NEW on each recorded file against itself and against our own run:
        a page every time, never a crash; foreign files match their cases by name."""
        names = ["run-smoke-f64-zen4-vm.json", "run-fusion-small-zen5-vm.json", "gbench-foreign.json",
                 "gbench-1.7.1-rates.json", "gbench-1.9.5-rates.json", "gbench-1.9.5-aggregates-only.json"]
        out = os.path.join(self.dir, "pair.html")
        for name in names:
            path = os.path.join(FIXTURES, name)
            for base, new in ((path, path), (self.run_json, path)):
                with self.subTest(base=os.path.basename(base), new=name):
                    r = self.ridgeline("report", base, new, "-o", out)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    with open(out, encoding="utf-8") as f:
                        page = f.read()
                    self.assertTrue(page.endswith("</html>\n"))
                    if base == path or "no cases" not in page:
                        self.assertIn("The gate passes", page)  # nothing got slower or broke
                    else:  # no case in common: nothing compared is no pass (#37)
                        self.assertIn("The gate fails", page)
                    if base == path:  # against itself: every point twice, no arrow
                        self.assertEqual(page.count('<g class="point base">'),
                                         page.count('<g class="point new">'))
                        self.assertNotIn('class="comparison-arrow"', page)

    def test_the_journal_opens_directly(self):
        rows, err = self.report_csv(self.run_json[:-5] + ".jsonl")
        self.assertEqual(len(rows), 2, "each case once")
        self.assertTrue(all(r["placeable"] == "yes" for r in rows), rows)
        self.assertIn("journal", err)

    def test_a_journal_cut_by_a_kill_opens_without_its_last_line(self):
        with open(self.run_json[:-5] + ".jsonl") as f:
            lines = f.read().splitlines()
        cut = self.write("killed.jsonl", "\n".join(lines[:-1]) + "\n" + lines[-1][:40])
        rows, err = self.report_csv(cut)
        self.assertEqual(len(rows), 2)
        self.assertIn("cut short", err)

    def test_google_benchmark_files_open_with_truthful_labels(self):
        for name in ("gbench-1.7.1-rates.json", "gbench-1.9.5-rates.json",
                     "gbench-1.9.5-aggregates-only.json"):
            rows, _ = self.report_csv(os.path.join(FIXTURES, name))
            names = [r["case"] for r in rows]
            self.assertEqual(len(names), len(set(names)), f"{name}: a case listed twice")
            for r in rows:
                self.assertNotEqual(r["disposition"], "passed", f"{name}: {r['case']}")
                self.assertNotIn("counted", (r["flops_source"], r["bytes_source"]))
                if r["placeable"] == "yes":
                    self.assertAlmostEqual(float(r["flops_per_call"]), 8192, places=3)

    def test_a_run_of_aggregates_only_lists_each_case_once(self):
        out = self.path("aggregates.json")
        r = self.ridgeline("run", "--suite", "smoke", "--backend", "cpu.naive,cpu.tiled",
                           "--dtype", "f64", "--threads", "1", "--shape", "16",
                           "--repetitions", "3", "--min-time", "0.001", "--warmup", "0",
                           "--no-probe", "--benchmark_report_aggregates_only", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows, _ = self.report_csv(out)
        self.assertEqual(sorted(x["case"] for x in rows),
                         sorted({x["case"] for x in rows}), "a case listed twice")
        self.assertEqual(len(rows), 2)
        self.assertTrue(all(x["placeable"] == "yes" for x in rows), rows)

    def test_a_directory_says_so(self):
        self.assert_bad(["report", self.dir], self.dir, "is a directory")

    def test_console_and_csv_output_say_what_to_do(self):
        for name in ("gbench-1.7.1-console.txt", "gbench-1.7.1.csv"):
            self.assert_bad(["report", os.path.join(FIXTURES, name)], name, "not valid JSON",
                            "--benchmark_out_format=json")

    def test_a_number_too_large_for_a_double_names_file_and_field(self):
        with open(self.run_json) as f:
            doc = f.read()
        run = self.write("huge.json", doc.replace('"real_time": ', '"real_time": 1e999, "x": ', 1))
        self.assert_bad(["report", run], "huge.json: benchmarks[0].real_time: number 1e999")
        foreign = self.write("foreign.json", json.dumps(
            {"context": {}, "benchmarks": [{"name": "BM_x", "iterations": 1, "real_time": 1,
                                            "cpu_time": 1, "flops": 1}]}).replace(
            '"flops": 1', '"flops": -2e308'))
        self.assert_bad(["report", foreign], "foreign.json: benchmarks[0].flops: number -2e308")
        with open(os.path.join(FIXTURES, "machine-zen4-vm.json")) as f:
            machine = f.read()
        huge_machine = self.write("machine.json", machine.replace('"per_second": ', '"per_second": 1e999, "y": ', 1))
        self.assert_bad(["report", self.run_json, "--machine", huge_machine],
                        "machine.json: compute[0].per_second: number 1e999")
        nan_machine = self.write("nan-machine.json", machine.replace('"per_second": ', '"per_second": NaN, "y": ', 1))
        self.assert_bad(["report", self.run_json, "--machine", nan_machine],
                        "nan-machine.json: compute[0].per_second: expected a finite number")

    def test_fusion_pairs_and_sweeps_go_to_their_own_csv_files(self):
        src = os.path.join(FIXTURES, "run-fusion-small-zen5-vm.json")
        html, md = self.path("fusion.html"), self.path("fusion.md")
        fusion, sweep = self.path("fusion.csv"), self.path("sweep.csv")
        r = self.ridgeline("report", src, "-o", html, "-o", md, "--csv-fusion", fusion,
                           "--csv-sweep", sweep)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split(), [html, md, fusion, sweep])
        with open(fusion) as f:
            rows = list(csv.DictReader(f))
        pairs = [x for x in rows if x["paired"] == "yes"]
        self.assertEqual(sorted((x["op"], x["params"]) for x in pairs),
                         [("eltwise_chain", "n=65536,L=1"), ("eltwise_chain", "n=65536,L=16"),
                          ("eltwise_chain", "n=65536,L=4"), ("softmax", "rows=256,cols=512")])
        unpaired = [x for x in rows if x["paired"] == "no"]
        self.assertEqual([(x["op"], x["fused_backend"], x["unfused_backend"]) for x in unpaired],
                         [("layernorm", "cpu.fused", "")])
        self.assertIn("no unfused case of family cpu", unpaired[0]["notes"])
        softmax = next(x for x in pairs if x["op"] == "softmax")
        # The op's models: (8 rows cols + 4 rows) and 2 rows cols floats.
        self.assertAlmostEqual(float(softmax["byte_ratio"]),
                               (8 * 256 * 512 + 4 * 256) / (2 * 256 * 512), places=4)
        self.assertAlmostEqual(float(softmax["speedup"]),
                               float(softmax["unfused_seconds_per_call"]) /
                               float(softmax["fused_seconds_per_call"]), places=3)
        self.assertAlmostEqual(float(softmax["speedup_over_byte_ratio"]),
                               float(softmax["speedup"]) / float(softmax["byte_ratio"]), places=3)
        with open(sweep) as f:
            points = list(csv.DictReader(f))
        self.assertEqual(sorted((x["backend"], int(x["L"])) for x in points),
                         [("cpu.fused", 1), ("cpu.fused", 4), ("cpu.fused", 16),
                          ("cpu.unfused", 1), ("cpu.unfused", 4), ("cpu.unfused", 16)])
        with open(html) as f:
            page = f.read()
        self.assertGreaterEqual(page.count('<path class="fusion-arrow"'), 3)
        self.assertIn('<h2 id="fusion">', page)
        self.assertIn('<svg class="sweep"', page)
        with open(md) as f:
            self.assertIn("## Fusion: unfused → fused", f.read())

    def test_a_fusion_csv_that_cannot_be_written_is_one_line_before_any_output(self):
        src = os.path.join(FIXTURES, "run-fusion-small-zen5-vm.json")
        out = self.path("not-written.html")
        self.assert_bad(["report", src, "-o", out, "--csv-fusion", "/nonexistent-dir/f.csv"],
                        "/nonexistent-dir")
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main(verbosity=2)
