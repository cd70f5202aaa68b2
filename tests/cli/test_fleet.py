"""`ridgeline fleet` as a cluster's acceptance job runs it (issue #41): a fleet of nodes made
from one real run by bench/fleet_simulation.py, one node made slower in one case, every
output (terminal, HTML, Markdown, JSON, JUnit), the exit codes, and bad input (one line,
exit 2, nothing written)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

from cli_support import FIXTURES, ridgeline, remove_cache

SIMULATION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench",
                          "fleet_simulation.py")


def tearDownModule():
    remove_cache()


class Fleet(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="fleet-", dir=os.getcwd())
        cls.real = os.path.join(cls.dir, "real.json")
        r = ridgeline("run", "--no-isolation", "--no-probe", "--suite", "smoke", "--filter",
                      "^gemm/cpu\\.naive/f32/", "--repetitions", "5", "--min-time", "0.01",
                      "-o", cls.real)
        if r.returncode != 0:
            raise RuntimeError(r.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def fleet_files(self, name, *args):
        out = os.path.join(self.dir, name)
        subprocess.run([sys.executable, SIMULATION, self.real, out, "--nodes", "12", *args],
                       check=True, capture_output=True, text=True, timeout=120)
        return sorted(os.path.join(out, f) for f in os.listdir(out))

    def test_the_slow_node_is_named_first_in_every_output_and_the_exit_is_1(self):
        files = self.fleet_files("slow", "--noise", "0.01", "--slow", "3:0:1.10")
        out = {k: os.path.join(self.dir, "slow." + k) for k in ("html", "md", "json", "xml")}
        r = ridgeline("fleet", *files, "--html", out["html"], "--markdown", out["md"],
                      "--json", out["json"], "--junit", out["xml"])
        self.assertEqual(r.returncode, 1, r.stderr)
        lines = r.stdout.splitlines()
        self.assertRegex(lines[0], r"^fleet: 12 nodes, 2 cases, 24 tests .*: 1 out of family$")
        self.assertRegex(lines[2], r"^  node-0003  out of family +1 +0  1 of 2 cases slower: 1 of "
                                   r"unknown bound \(\+10%\)")
        self.assertIn("11 nodes in family (--all lists them)", r.stdout)
        with open(out["json"]) as f:
            doc = json.load(f)
        first = doc["members"][0]
        self.assertEqual((first["name"], first["out_of_family"], first["slower"]),
                         ("node-0003", True, 1))
        cell = first["cases"][0]
        self.assertEqual(cell["verdict"], "slower")
        self.assertLess(cell["p_holm"], 0.05)
        self.assertGreater(cell["interval"][0], 1.02)
        self.assertEqual([m["out_of_family"] for m in doc["members"]].count(True), 1)
        suite = ET.parse(out["xml"]).getroot().find("testsuite")
        self.assertEqual((suite.get("tests"), suite.get("failures")), ("12", "1"))
        failed = [t.get("name") for t in suite.iter("testcase") if t.find("failure") is not None]
        self.assertEqual(failed, ["node-0003"])
        with open(out["html"]) as f:
            html = f.read()
        self.assertIn('<svg class="heatmap"', html)
        self.assertEqual(html.count('<rect '), 12 * 2)
        self.assertEqual(html.count('class="found"'), 1)
        with open(out["md"]) as f:
            self.assertIn("| node-0003 | **out of family** |", f.read())

    def test_a_node_whose_ceilings_are_low_is_out_and_its_roofs_are_drawn(self):
        files = self.fleet_files("ceilings", "--noise", "0.01")
        with open(os.path.join(FIXTURES, "machine-zen4-vm.json")) as f:
            machine = json.load(f)
        for i, path in enumerate(files):
            with open(path) as f:
                doc = json.load(f)
            m = json.loads(json.dumps(machine))
            m["host"] = doc["context"]["host_name"]
            if i == 5:  # a node whose memory runs 15% slow
                for c in m["memory"]:
                    c["bytes_per_s"] *= 0.85
            doc["context"]["ridgeline"]["machine"] = m
            with open(path, "w") as f:
                json.dump(doc, f)
        html = os.path.join(self.dir, "ceilings.html")
        r = ridgeline("fleet", *files, "--html", html)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(r.stdout, r"node-0005  out of family +0 +0  \d+ ceilings out, -15% against "
                                   r"the fleet's median \(L1 read, 1 thread, ")
        with open(html) as f:
            page = f.read()
        self.assertIn("<h2>Roofs</h2>", page)
        self.assertIn("node-0005", page[page.index("<h2>Roofs</h2>"):page.index("<h2>nodes</h2>")])

    def test_a_fleet_without_a_slow_node_passes(self):
        files = self.fleet_files("even", "--noise", "0.01")
        r = ridgeline("fleet", *files, "--all")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(": 0 out of family", r.stdout)
        self.assertEqual(len(re.findall(r"^  node-\d{4}  in family", r.stdout, re.M)), 12)

    def test_a_node_that_gave_a_wrong_answer_is_out_of_family_first(self):
        files = self.fleet_files("wrong", "--noise", "0.01", "--slow", "3:0:1.10")
        with open(files[7]) as f:  # node-0007: its first case incorrect, as a bad DIMM gives
            doc = json.load(f)
        name = doc["benchmarks"][0]["run_name"]
        for b in doc["benchmarks"]:
            if b["run_name"] == name:
                b["ridgeline"]["validation"]["disposition"] = "incorrect"
        with open(files[7], "w") as f:
            json.dump(doc, f)
        junit = os.path.join(self.dir, "wrong.xml")
        r = ridgeline("fleet", *files, "--junit", junit)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(r.stdout.splitlines()[2], r"^  node-0007  out of family .*1 case failed "
                                                   r"validation here and passed elsewhere: ")
        with open(junit) as f:
            self.assertRegex(f.read(), r'name="node-0007">\n(.*\n){6}      <failure type="out of '
                                       r'family" message="1 case failed validation')

    def test_too_few_repetitions_to_find_anything_pass_nothing(self):
        files = self.fleet_files("thin", "--noise", "0.01")
        for path in files:  # one repetition each: no test could reach Holm's level
            with open(path) as f:
                doc = json.load(f)
            kept, seen = [], set()
            for b in doc["benchmarks"]:
                if b.get("run_type") == "aggregate" or b["run_name"] in seen:
                    continue
                seen.add(b["run_name"])
                kept.append(b)
            doc["benchmarks"] = kept
            with open(path, "w") as f:
                json.dump(doc, f)
        junit = os.path.join(self.dir, "thin.xml")
        r = ridgeline("fleet", *files, "--junit", junit)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("run more repetitions", r.stdout)
        self.assertIn("too few repetitions for any node to be found out of family", r.stderr)
        with open(junit) as f:
            self.assertEqual(f.read().count("<skipped message="), 12)

    def test_nodes_without_a_case_in_common_fail(self):
        files = self.fleet_files("apart", "--noise", "0.01")
        for i, path in enumerate(files):  # each node ran its own problem
            with open(path) as f:
                doc = json.load(f)
            for b in doc["benchmarks"]:
                b["ridgeline"]["params"]["dims"]["m"] += i
                b["name"] = b["run_name"] = b["name"] + f"/{i}"
            with open(path, "w") as f:
                json.dump(doc, f)
        r = ridgeline("fleet", *files)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("no case was run by two nodes or more: nothing was compared", r.stderr)

    def test_bad_input_is_one_line_and_exit_2_and_nothing_is_written(self):
        files = self.fleet_files("bad", "--noise", "0.01")
        junit = os.path.join(self.dir, "bad.xml")
        for args, says in [
            ((self.real,), "fleet needs at least two nodes to compare, found 1"),
            ((self.real, "--by", "rank"), "fleet needs at least two ranks to compare, found 1"),
            ((*files, "--margin", "150%"), "--margin: '150%' is not a fraction"),
            ((*files, "--ceiling-margin", "x"), "--ceiling-margin: 'x' is not a fraction"),
            ((*files, "--alpha", "2"), "--alpha: 2 is not between 0 and 1"),
            ((files[0], os.path.join(self.dir, "missing.json")), "missing.json"),
            ((*files, "--junit", files[0]), files[0]),
        ]:
            with self.subTest(args=args[-2:]):
                r = ridgeline("fleet", *args, "--junit", junit) if "--junit" not in args \
                    else ridgeline("fleet", *args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn(says, r.stderr)
                self.assertFalse(os.path.exists(junit))
        with open(files[0]) as f:  # the run named as an output is untouched
            json.load(f)


if __name__ == "__main__":
    unittest.main()
