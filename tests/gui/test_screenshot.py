"""`ridgeline-gui --screenshot`: the window rendered to a PNG, offscreen and in a real X
server (Debian's xvfb), two runs overlaid or compared, and bad input (one line, exit 2,
nothing written).

RIDGELINE_GUI names the binary, RIDGELINE_FIXTURES the recorded runs, RIDGELINE_PNG the
folder of test_browser.py, whose PNG decoder this reuses.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

GUI = os.environ.get("RIDGELINE_GUI", "ridgeline-gui")
FIXTURES = os.environ.get("RIDGELINE_FIXTURES", os.path.join(os.path.dirname(__file__), "..", "fixtures"))
sys.path.insert(0, os.environ.get("RIDGELINE_PNG", os.path.join(os.path.dirname(__file__), "..", "reports")))
from test_browser import colours_and_dark, png_pixels  # noqa: E402

RUN = os.path.join(FIXTURES, "run-smoke-f64-zen4-vm.json")
OTHER_RUN = os.path.join(FIXTURES, "run-fusion-small-zen5-vm.json")  # another machine
XVFB = shutil.which("xvfb-run")


class Screenshot(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.env = {**os.environ, "XDG_CONFIG_HOME": self.dir.name, "XDG_RUNTIME_DIR": self.dir.name}
        self.env.pop("QT_QPA_PLATFORM", None)

    def tearDown(self):
        self.dir.cleanup()

    def shot(self, *prefix, env=None, args=(RUN,)):
        out = os.path.join(self.dir.name, "shot.png")
        r = subprocess.run([*prefix, GUI, "--screenshot", out, *args], capture_output=True,
                           text=True, env=env or self.env, timeout=120)
        return r, out

    def assert_not_blank(self, path):
        width, height, channels, rows = png_pixels(path)
        self.assertGreaterEqual((width, height), (1000, 700))
        colours, dark = colours_and_dark(rows[::3], channels, 3)
        self.assertGreater(colours, 20, "a handful of colours: blank window?")
        self.assertGreater(dark, 500, "almost no dark pixels: nothing drawn?")

    def test_offscreen(self):
        r, out = self.shot()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), out)
        self.assert_not_blank(out)

    @unittest.skipUnless(XVFB, "Debian's xvfb is not installed (scripts/install-deps installs it)")
    def test_a_real_window_under_xvfb(self):
        r, out = self.shot(XVFB, "-a", "-s", "-screen 0 1600x1000x24", env={**self.env, "QT_QPA_PLATFORM": "xcb"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assert_not_blank(out)

    def test_two_runs_overlaid_or_compared(self):
        for how in ("--overlay", "--compare"):
            r, out = self.shot(args=(how, RUN, OTHER_RUN))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assert_not_blank(out)
            os.remove(out)
        for args, says in ((("--overlay", "--compare", RUN, OTHER_RUN), "choose one"),
                           (("--overlay", RUN), "needs two runs")):
            r, out = self.shot(args=args)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn(says, r.stderr)
            self.assertFalse(os.path.exists(out))

    def test_bad_input_is_one_line_each_and_exit_2(self):
        out = os.path.join(self.dir.name, "never.png")
        missing = os.path.join(self.dir.name, "missing.json")
        not_json = os.path.join(FIXTURES, "gbench-1.7.1-console.txt")
        r = subprocess.run([GUI, "--screenshot", out, RUN, missing, not_json], capture_output=True,
                           text=True, env=self.env, timeout=120)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        lines = [line for line in r.stderr.splitlines() if line.startswith("ridgeline-gui: ")]
        self.assertEqual(len(lines), 2, r.stderr)
        self.assertIn(missing, lines[0])
        self.assertIn("console output", lines[1])
        self.assertFalse(os.path.exists(out))

    def test_the_picture_never_replaces_an_input_and_keeps_what_it_replaces(self):
        run = os.path.join(self.dir.name, "b.json")
        machine = os.path.join(self.dir.name, "m.json")
        shutil.copy(RUN, run)
        shutil.copy(os.path.join(FIXTURES, "machine-zen4-vm.json"), machine)
        os.symlink("b.json", os.path.join(self.dir.name, "link.json"))
        for out, args in ((run, (run,)), (os.path.join(self.dir.name, "link.json"), (run,)),
                          (machine, ("--machine", machine, run))):
            with open(run, "rb") as f:
                before = f.read()
            r = subprocess.run([GUI, "--screenshot", out, *args], capture_output=True, text=True,
                               env=self.env, timeout=120)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("would overwrite an input", r.stderr)
            with open(run, "rb") as f:
                self.assertEqual(f.read(), before)
        shot = os.path.join(self.dir.name, "shot.png")
        with open(shot, "w") as f:
            f.write("an older picture")
        r, out = self.shot()
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(shot + ".prev") as f:
            self.assertEqual(f.read(), "an older picture")
        self.assert_not_blank(out)


if __name__ == "__main__":
    unittest.main()
