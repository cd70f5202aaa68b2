"""docs/ci.md's pipelines, as far as they can run here (no GitHub or GitLab runner is
reachable): each YAML block parses and has the shape its service needs, and every
`ridgeline` command in them and in the calibration example is run as written. `run` commands
run with --dry-run (the real command line checked, the plan printed, nothing timed: the
smoke suite takes a minute a run here); what they would write is a recorded run
(tests/fixtures/run-smoke-f64-zen4-vm.json), on which `report` and `compare` then run and
must write every file the pipeline publishes.
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

import yaml

from cli_support import ENV, FIXTURES, RIDGELINE, remove_cache

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "ci.md")
RECORDED = os.path.join(FIXTURES, "run-smoke-f64-zen4-vm.json")


def tearDownModule():
    remove_cache()


def blocks(language):
    with open(DOC) as f:
        return re.findall(r"```" + language + r"\n(.*?)```", f.read(), re.S)


def commands(script):
    """The `ridgeline` command lines of a shell script, continuation lines joined; one inside
    a `for v in A B; do ... done` loop stands once per value, with $v replaced."""
    out = []
    loop = None  # (variable, values) of the loop the line is in
    for line in script.replace("\\\n", " ").splitlines():
        m = re.match(r"\s*for (\w+) in ([^;]*); do\s*(.*)$", line)
        if m:
            loop = (m.group(1), m.group(2).split())
            line = m.group(3)
        ends = re.search(r"(^|;)\s*done\s*$", line)
        line = re.sub(r"(^|;)\s*done\s*$", "", line).strip()
        if re.search(r"(^|/)ridgeline ", line):
            values = loop[1] if loop else [None]
            out += [line.replace("$" + loop[0], v) if loop else line for v in values]
        if ends:
            loop = None
    return out


class CiExamples(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ridgeline-ci-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_command(self, line):
        argv = shlex.split(line)
        argv[0] = RIDGELINE  # ../base/build/release/cli/ridgeline, build/release/..., ridgeline
        sub = argv[1]
        out = os.path.join(self.dir, argv[argv.index("-o") + 1]) if "-o" in argv else None
        before = None
        if sub == "run":
            argv.append("--dry-run")
            if os.path.exists(out):  # the second round's: the first round's file stays
                with open(out, "rb") as f:
                    before = f.read()
        r = subprocess.run(argv, cwd=self.dir, capture_output=True, text=True, timeout=300,
                           env=ENV)
        # compare exits 1 when its gate fails; the recorded runs are one repetition a case
        # (inconclusive), so every gate here passes.
        self.assertEqual(r.returncode, 0, f"{line}\n{r.stdout}{r.stderr}")
        if sub == "run":  # --dry-run wrote nothing; what the run would write: a recorded run
            if before is None:
                self.assertFalse(os.path.exists(out), f"--dry-run wrote {out}")
            else:
                with open(out, "rb") as f:
                    self.assertEqual(f.read(), before, f"--dry-run wrote {out}")
            shutil.copy(RECORDED, out)
        return r

    def run_script(self, script):
        ran = commands(script)
        self.assertTrue(ran, "no ridgeline command found")
        for line in ran:
            self.run_command(line)
        return ran

    def assert_outputs(self):
        xml = os.path.join(self.dir, "compare.xml")
        if os.path.exists(xml):
            suites = ET.parse(xml).getroot()
            self.assertGreater(len(suites.findall(".//testcase")), 0)
        md = os.path.join(self.dir, "compare.md")
        self.assertLess(os.path.getsize(md), 1 << 20)  # GitHub's step summary takes 1 MiB
        with open(os.path.join(self.dir, "compare.html")) as f:
            self.assertIn("<svg", f.read())

    def test_github_actions(self):
        (text,) = [b for b in blocks("yaml") if "runs-on:" in b]
        job = yaml.safe_load(text)["jobs"]["compare"]
        steps = job["steps"]
        for step in steps:
            self.assertEqual(len({"run", "uses"} & step.keys()), 1, step)
            if "uses" in step:
                self.assertRegex(step["uses"], r"^[\w.-]+/[\w.-]+@v\d+$")
        script = "\n".join(s["run"] for s in steps if "run" in s)
        ran = self.run_script(script)
        self.assertEqual(sum(" run " in line for line in ran), 4)  # two rounds, base and head
        compare = next(line for line in ran if " compare " in line)
        for flag in ("--junit compare.xml", "--markdown compare.md", "--json compare.json"):
            self.assertIn(flag, compare)
        with open(os.path.join(self.dir, "compare.json")) as f:
            self.assertIn("cases", json.load(f))
        self.assert_outputs()
        # What the later steps read and upload exists.
        by_uses = {s["uses"].split("@")[0]: s for s in steps if "uses" in s}
        self.assertEqual(by_uses["mikepenz/action-junit-report"]["with"]["report_paths"],
                         "compare.xml")
        for pattern in by_uses["actions/upload-artifact"]["with"]["path"].split("\n"):
            self.assertTrue(glob.glob(os.path.join(self.dir, pattern)), pattern)
        summary = next(s for s in steps if s.get("name") == "Step summary")
        self.assertIn("compare.md", summary["run"])

    def test_gitlab_ci(self):
        (text,) = [b for b in blocks("yaml") if "script:" in b]
        job = yaml.safe_load(text)["performance"]
        self.run_script("\n".join(job["script"]))
        self.assert_outputs()
        self.assertEqual(job["artifacts"]["reports"]["junit"], "compare.xml")
        for path in job["artifacts"]["paths"]:
            self.assertTrue(os.path.exists(os.path.join(self.dir, path)), path)

    def test_calibrating_on_the_runner(self):
        (text,) = [b for b in blocks("sh") if "--calibrate" in b]
        for name in ("base.json", "head.json"):  # the job's own runs, recorded
            shutil.copy(RECORDED, os.path.join(self.dir, name))
        ran = self.run_script(text)
        self.assertEqual(sum(" run " in line for line in ran), 4)
        with open(os.path.join(self.dir, "thresholds.json")) as f:
            self.assertIn("cases", json.load(f))


if __name__ == "__main__":
    unittest.main()
