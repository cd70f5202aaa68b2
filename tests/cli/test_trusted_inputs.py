"""What a hostile user found trusted that should have been checked (issue #62):

- a Run or Google Benchmark file nested ten million deep is one line and exit 2, in bounded
  memory, in every reader;
- a machine model (the probe's cache, --machine) of implausible numbers or of a size no probe
  writes is refused naming the file and the field; a cache that is not used is said, and
  with --no-probe nothing is probed: the run goes on without a model;
- Google Benchmark rows of no iterations or 10^9 threads are refused naming the row;
- with HOME and XDG_CACHE_HOME unset and TMPDIR unusable, one line naming the variables.

RIDGELINE names the binary (CTest sets it).
"""
import json
import os
import re
import resource
import subprocess
import time
import unittest

from cli_support import ENV, RIDGELINE, remove_cache
from hostile_folder import MACHINE_FIXTURE, ONE_CASE, RUN_FIXTURE, Folder


def tearDownModule():
    remove_cache()


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


class Bounded(Folder):
    def bounded(self, *args, env=None, timeout=60):
        return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=timeout,
                              env=env or ENV, cwd=self.d, preexec_fn=limit_memory)

    def assert_one_line(self, r, *words, code=2):
        self.assertEqual(r.returncode, code, r.stdout + r.stderr)
        self.assertNotIn("internal error", r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        for w in words:
            self.assertIn(w, lines[0])


class DeepNesting(Bounded):
    def test_a_file_nested_ten_million_deep_is_one_line_in_every_reader(self):
        with open(RUN_FIXTURE) as f:
            run = f.read()
        # Under a key no reader knows: at the top level, and in the context.
        at = run.rindex("}")
        with open(self.path("deep.json"), "w") as f:
            f.write(run[:at] + ', "junk": ' + "[" * 10_000_000 + run[at:])
        with open(self.path("gb.json"), "w") as f:
            f.write('{"context": {"custom": ' + "[" * 10_000_000)
        for x in ("deep.json", "gb.json"):
            for args in (["report", x, "--format", "md", "-o", "r.md"], ["compare", "b.json", x],
                         ["compare", x, "n.json"]):
                with self.subTest(args=" ".join(args)):
                    r = self.bounded(*args)
                    self.assert_one_line(r, x + ": ", "nested more than 128 deep")


class MachineModels(Bounded):
    """A cache of its own per test, its path learnt from what `run --no-probe` says."""

    def setUp(self):
        super().setUp()
        self.env = {**ENV, "XDG_CACHE_HOME": self.path("cache")}

    def cache_path(self):
        r = self.bounded("run", *ONE_CASE, "-o", "x.json", env=self.env)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = re.search(r"no machine model: none cached for this machine \((.*)\) and --no-probe "
                      r"given", r.stderr)
        self.assertTrue(m, r.stderr)
        os.makedirs(os.path.dirname(m.group(1)), exist_ok=True)
        return m.group(1)

    def model(self, **changes):
        with open(MACHINE_FIXTURE) as f:
            m = json.load(f)
        m["cpu"].update(changes)
        return m

    def test_an_implausible_cache_is_said_and_no_probe_means_no_probe(self):
        cache = self.cache_path()
        for change, words in (({"cores": -5}, "cpu.cores: expected an integer from 0 to"),
                              ({"measured_clock_hz": -1e9}, "cpu.measured_clock_hz: expected 0"),
                              (None, "compute[0].per_second: expected a rate above 0 and at most "
                                     "1e+18 per second, got 1e+308")):
            with self.subTest(words=words):
                m = self.model(**(change or {}))
                m["fingerprint"] = re.search(r"-([0-9a-f]+)\.json$", cache).group(1)
                if change is None:
                    m["compute"][0]["per_second"] = 1e308
                with open(cache, "w") as f:
                    json.dump(m, f)
                started = time.monotonic()
                r = self.bounded("run", *ONE_CASE, "-o", "x.json", env=self.env)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertLess(time.monotonic() - started, 20, "no probe")
                self.assertNotIn("probing", r.stderr)
                line = next(l for l in r.stderr.splitlines() if l.startswith("no machine model:"))
                self.assertIn("no machine model: the cached one is not used (" + cache + ": " + words,
                              line)
                self.assertIn(") and --no-probe given; run `ridgeline probe` to measure again", line)
                with open(self.path("x.json")) as f:
                    # The CPU described, but no model embedded: no ceilings.
                    machine = json.load(f)["context"]["ridgeline"].get("machine", {})
                    self.assertNotIn("compute", machine)

    def test_a_model_larger_than_any_probe_writes_costs_no_memory(self):
        # A million memory levels (147 MB): as --machine and as the cache, refused by its size.
        m = self.model()
        level = {"name": "L1", "kernel": "read", "threads": 1, "first_bytes": 4096,
                 "last_bytes": 8192, "bytes_per_s": 1e11}
        text = json.dumps(m)[:-1] + ', "levels": [' + ", ".join([json.dumps(level)] * 1_000_000) + "]}"
        with open(self.path("huge.json"), "w") as f:
            f.write(text)
        r = self.bounded("report", "b.json", "--machine", "huge.json", "--format", "md", "-o", "r.md")
        self.assert_one_line(r, "huge.json: ", "larger than any machine model", "at most 16 MiB")
        cache = self.cache_path()
        os.replace(self.path("huge.json"), cache)
        r = self.bounded("run", *ONE_CASE, "-o", "x.json", env=self.env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("larger than any machine model", r.stderr)
        self.assertLess(os.path.getsize(self.path("x.json")), 1 << 20)


class GoogleBenchmarkRows(Bounded):
    def test_rows_of_no_iterations_or_a_billion_threads_are_refused_naming_the_row(self):
        row = {"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "repetitions": 1,
               "repetition_index": 0, "threads": 1, "iterations": 1000, "real_time": 100,
               "cpu_time": 100, "time_unit": "ns", "flops": 1e9}
        for key, value, words in (("iterations", 0, "benchmarks[1].iterations: 0 iterations"),
                                  ("iterations", -3, "benchmarks[1].iterations: -3 iterations"),
                                  ("threads", 10**9, "benchmarks[1].threads: 1000000000 threads")):
            with self.subTest(key=key, value=value):
                with open(self.path("gb.json"), "w") as f:
                    json.dump({"context": {"date": "2026-11-26T00:00:00+00:00"},
                               "benchmarks": [row, {**row, key: value}]}, f)
                r = self.bounded("report", "gb.json", "--format", "md", "-o", "r.md")
                self.assert_one_line(r, "gb.json: " + words)


class NoCacheDirectory(Bounded):
    def test_home_unset_and_tmpdir_unusable_is_one_line_naming_them(self):
        with open(self.path("not-a-dir"), "w") as f:
            f.write("x")
        env = {k: v for k, v in ENV.items() if k not in ("HOME", "XDG_CACHE_HOME")}
        for tmpdir in (self.path("not-a-dir"), self.path("missing")):
            with self.subTest(tmpdir=tmpdir):
                r = self.bounded("run", *ONE_CASE, "-o", "x.json", env={**env, "TMPDIR": tmpdir})
                self.assert_one_line(r, "HOME and XDG_CACHE_HOME are unset", f"TMPDIR ({tmpdir})",
                                     "set HOME or XDG_CACHE_HOME")


if __name__ == "__main__":
    unittest.main()
