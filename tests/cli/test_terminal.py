"""What `ridgeline` shows on a terminal: a status line with the count, elapsed time and
time left that never wraps at the terminal's width, result lines that fit, a closing line
with totals and wall time, no escape sequences for TERM=dumb, and aligned columns in
`list`. The terminal is a real pseudo-terminal (util-linux `script`).

RIDGELINE names the binary (CTest sets it).
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
CACHE = tempfile.mkdtemp(prefix="ridgeline-test-cache-")
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CASES = ["--suite", "smoke", "--filter", "f64/m=64", "--repetitions", "1", "--min-time", "0.05",
         "--no-probe"]


def tearDownModule():
    shutil.rmtree(CACHE, ignore_errors=True)


def on_terminal(command, columns, term="xterm"):
    """Runs `command` (a shell line) on a pseudo-terminal; returns what it wrote there."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "typescript")
        env = {**os.environ, "COLUMNS": str(columns), "TERM": term, "XDG_CACHE_HOME": CACHE}
        env.pop("NO_COLOR", None)
        subprocess.run(["script", "-qec", command, log], env=env, cwd=d, timeout=300,
                       stdout=subprocess.DEVNULL, check=True)
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
    return text.split("\n", 1)[1].rsplit("\nScript done", 1)[0]  # script's own lines


@unittest.skipUnless(shutil.which("script"), "util-linux script is not installed")
class Terminal(unittest.TestCase):
    def test_status_and_result_lines_fit_the_width_and_the_run_ends_with_its_wall_time(self):
        out = on_terminal(f"stty cols 60; {RIDGELINE} run {' '.join(CASES)} -o r.json", 60)
        screens = [ESCAPE.sub("", s) for s in re.split(r"[\r\n]", out) if s.strip()]
        self.assertTrue(screens)
        progress = [s for s in screens if s.startswith("[")]
        self.assertTrue(progress)
        for s in progress:  # the lines redrawn in place must never wrap
            self.assertLessEqual(len(s), 59, repr(s))
        self.assertTrue(any(re.search(r"\[\d+/\d+\] \d+ s, about \d+ s left", s) for s in screens),
                        screens)
        self.assertTrue(any("\u2026" in s for s in screens), "long names are shortened")
        self.assertRegex(screens[-1], r"wrote r\.json \(\d+ of \d+ cases: .*\) in \d+ s")

    def test_term_dumb_gets_no_escape_sequences(self):
        out = on_terminal(f"{RIDGELINE} run {' '.join(CASES)} -o r.json", 80, term="dumb")
        self.assertNotIn("\x1b", out)
        self.assertIn("passed", out)

    def test_list_columns_line_up_whatever_the_name_lengths(self):
        r = subprocess.run([RIDGELINE, "list"], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "XDG_CACHE_HOME": CACHE})
        self.assertEqual(r.returncode, 0, r.stderr)
        kernels = r.stdout.split("\nKernels\n")[1].split("\nBLAS libraries")[0]
        lines = kernels.strip("\n").splitlines()
        self.assertTrue(lines)
        # id, role, dtypes, then the thread column
        starts = {re.search(r"\S+\s+\S+\s+\S+\s+(\S)", l).start(1) for l in lines}
        self.assertEqual(len(starts), 1, "the thread column starts at one offset")
        ops = r.stdout.split("\nKernels\n")[0].splitlines()[1:]
        self.assertEqual(len({re.search(r"\S+\s+(\S)", l).start(1) for l in ops}), 1,
                         "the params column starts at one offset")


if __name__ == "__main__":
    unittest.main()
