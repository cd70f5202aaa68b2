"""`ridgeline run` killed with SIGKILL mid-case: its case's child dies with it, no earlier
Run document is left standing where the new one was to be, and the journal keeps every
case that finished.

RIDGELINE names the binary (CTest sets it).
"""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
CACHE = tempfile.mkdtemp(prefix="ridgeline-test-cache-")
ENV = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": CACHE}


def tearDownModule():
    shutil.rmtree(CACHE, ignore_errors=True)


def children_of(pid):
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:  # field 4, the parent's pid, after "(comm)"
            found.append(int(entry))
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class KilledRun(unittest.TestCase):
    def test_sigkill_takes_the_case_child_along_and_leaves_no_stale_run(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "run.json")
            with open(out, "w") as f:
                f.write('{"stale": "the previous run"}')
            # A first quick case finishes into the journal; the second (naive 1024^3, at
            # 1 s per call and timed for 3 s) is still computing when the kill comes.
            proc = subprocess.Popen(
                [RIDGELINE, "run", "--backend", "cpu.naive", "--dtype", "f64", "--shape",
                 "64,1024", "--threads", "1", "--repetitions", "1", "--min-time", "3",
                 "--no-probe", "-o", out], env=ENV, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, text=True)
            journal = os.path.join(d, "run.jsonl")
            deadline = time.monotonic() + 120
            kids = []
            while time.monotonic() < deadline:
                kids = children_of(proc.pid)
                if kids and os.path.exists(journal) and os.path.getsize(journal) > 0:
                    break
                time.sleep(0.2)
            self.assertTrue(kids, "the second case's child never started")
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            gone_by = time.monotonic() + 5
            while time.monotonic() < gone_by and any(alive(k) for k in kids):
                time.sleep(0.1)
            self.assertFalse([k for k in kids if alive(k)], "a case's child outlived the run")
            self.assertFalse(os.path.exists(out), "the previous run.json stands as if new")
            with open(out + ".prev") as f:
                self.assertIn("the previous run", f.read())
            with open(journal) as f:
                cases = [json.loads(line) for line in f if line.strip()]
            self.assertGreaterEqual(len(cases), 1, "the finished case is in the journal")


if __name__ == "__main__":
    unittest.main()
