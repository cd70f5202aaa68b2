"""The scratch folder the hostile-input tests work in (test_hostile_files.py,
test_hostile_inputs.py): two runs, a machine model, a thresholds file, a link and a hard
link, and a command run inside it."""
import hashlib
import os
import subprocess
import tempfile
import unittest

from cli_support import ENV, FIXTURES, RIDGELINE

RUN_FIXTURE = os.path.join(FIXTURES, "run-smoke-f64-zen4-vm.json")
MACHINE_FIXTURE = os.path.join(FIXTURES, "machine-zen4-vm.json")
ONE_CASE = ["--suite", "smoke", "--filter", "naive/f64/m=64", "--repetitions", "1",
            "--min-time", "0.01", "--no-probe"]


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Folder(unittest.TestCase):
    """A folder with b.json and n.json (two runs), m.json (a machine model), t.json (thresholds)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        for name, src in (("b.json", RUN_FIXTURE), ("n.json", RUN_FIXTURE), ("m.json", MACHINE_FIXTURE)):
            with open(src, "rb") as f, open(self.path(name), "wb") as out:
                out.write(f.read())
        r = self.run_in("compare", "--calibrate", "b.json", "n.json", "-o", "t.json")
        self.assertEqual(r.returncode, 0, r.stderr)
        os.remove(self.path("t.json.prev")) if os.path.exists(self.path("t.json.prev")) else None
        os.symlink("b.json", self.path("link.json"))
        os.link(self.path("n.json"), self.path("hard.json"))

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.d, name)

    def run_in(self, *args, timeout=300):
        return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=timeout,
                              env=ENV, cwd=self.d)

    def snapshot(self):
        def state(p):
            if os.path.islink(p):
                return "-> " + os.readlink(p)
            return "dir" if os.path.isdir(p) else digest(p)
        return {n: state(self.path(n)) for n in sorted(os.listdir(self.d))}
