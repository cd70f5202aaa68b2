"""What cannot be a Run is refused in bounded time and memory, a user's pattern runs in
bounded time, strings from outside reach the terminal visible, compare gives no verdict the
data cannot support, and right answers say what is wrong (issue #37, classes 3-6):

- /dev/zero, /dev/urandom and a 2 GB sparse file are refused from their first bytes by every
  reader; a FIFO with no writer (or, written to, no reader) is waited for 10 s; a library
  that is not a regular file is not loaded; --threads is bounded by the CPUs; compare is not
  quadratic in repetitions;
- --filter and --only with patterns that sent std::regex into catastrophic backtracking;
- escapes in file names, library names and the lock's text;
- one repetition a side, runs with nothing in common, a stray file in a --history folder;
- the messages of class 6, a key Google Benchmark writes twice, and a library whose
  constructor aborts.

RIDGELINE names the binary, ABORTING_CBLAS the fixture library (CTest sets both).
"""
import json
import os
import resource
import subprocess
import unittest

from arch_facts import LIBDIR
from cli_support import ENV, FIXTURES, RIDGELINE, remove_cache
from hostile_folder import ONE_CASE, RUN_FIXTURE, Folder


def tearDownModule():
    remove_cache()


class BoundedInputs(Folder):
    """Every reader given what cannot be a Run ends in one line and exit 2, in bounded time and
    memory (1 GiB of address space, 20 s here)."""

    READERS = [
        ["report", "{x}", "--format", "md", "-o", "r.md"],
        ["report", "b.json", "--machine", "{x}", "--format", "md", "-o", "r.md"],
        ["compare", "{x}", "n.json"],
        ["compare", "b.json", "{x}"],
        ["compare", "--calibrate", "b.json", "{x}", "-o", "th.json"],
    ]

    def bounded(self, *args, timeout=20):
        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=timeout,
                              env=ENV, cwd=self.d, preexec_fn=limit)

    def test_zeros_random_bytes_and_a_sparse_file_are_refused_from_their_first_bytes(self):
        with open(self.path("sparse.json"), "wb") as f:
            f.truncate(2 << 30)
        for x in ("/dev/zero", "/dev/urandom", "sparse.json"):
            for reader in self.READERS:
                args = [a.replace("{x}", x) for a in reader]
                with self.subTest(args=" ".join(args)):
                    r = self.bounded(*args)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                    # A machine model is refused by its size first (no probe writes 2 GB).
                    big_model = x == "sparse.json" and "--machine" in args
                    self.assertIn("larger than any machine model" if big_model else
                                  "not UTF-8 text", r.stderr)

    def test_a_fifo_with_no_writer_or_no_reader_is_waited_for_then_refused(self):
        os.mkfifo(self.path("in.json"))
        r = self.bounded("report", "in.json", "--format", "md", "-o", "r.md", timeout=40)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("nobody wrote to", r.stderr)
        os.mkfifo(self.path("out.md"))
        r = self.bounded("report", "b.json", "-o", "out.md", timeout=40)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("nobody read from", r.stderr)

    def test_a_library_that_is_not_a_regular_file_is_not_loaded(self):
        os.mkfifo(self.path("f.so"))
        r = self.bounded("run", *ONE_CASE, "--blas-lib", "./f.so", "-o", "x.json")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("not a regular file", r.stderr)

    def test_compare_is_not_quadratic_in_repetitions(self):
        # 40,000 repetitions of one case a side: the differences Hodges-Lehmann ranks are
        # 1.6e9 (12.8 GB formed); compare answers in the memory of the samples.
        rng = __import__("random").Random(1)
        for name, scale in (("big_a.json", 1.0), ("big_b.json", 1.02)):
            rows = [{"name": "BM_x/64", "run_name": "BM_x/64", "run_type": "iteration",
                     "repetitions": 40000, "repetition_index": i, "threads": 1,
                     "iterations": 1000, "real_time": t, "cpu_time": t, "time_unit": "ns"}
                    for i, t in enumerate(1000.0 * scale * (1 + 0.01 * rng.gauss(0, 1))
                                          for _ in range(40000))]
            with open(self.path(name), "w") as f:
                json.dump({"context": {"date": "2026-11-26T00:00:00+00:00", "host_name": "vm",
                                       "num_cpus": 2, "mhz_per_cpu": 3600, "caches": []},
                           "benchmarks": rows}, f)
        r = self.bounded("compare", "big_a.json", "big_b.json", "--json", "c.json")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path("c.json")) as f:
            case = json.load(f)["cases"][0]
        self.assertAlmostEqual(case["ratio"], 1.02, delta=0.002)

    def test_collector_validation_runs_in_bounded_memory(self):
        # It swept a 3.75 GiB "DRAM" buffer on every run (the AMX VM's OS says L3 480 MiB),
        # even where no collector could count it (#62).
        r = self.bounded("collectors", "--validate", timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("bad_alloc", r.stderr)

    def test_a_thread_count_the_machine_cannot_run_is_refused(self):
        r = self.bounded("run", *ONE_CASE, "--threads", "100000", "-o", "x.json")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--threads 100000", r.stderr)
        self.assertFalse(os.path.exists(self.path("x.json")))


class UserPatterns(Folder):
    """Every pattern a user gives runs in bounded time and stack (RE2): patterns that sent
    std::regex into catastrophic backtracking or a stack overflow, under 8 MiB of stack and
    20 s here."""

    PATTERNS = [
        "([a-z0-9./_=,]+)+Q",
        "((((((((((.*)*)*)*)*)*)*)*)*)*)*Q",
        "(" * 60000 + "Q" + ")" * 60000,
        "(a|aa)+$" + "b",
    ]

    def bounded(self, *args):
        def limit():
            resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))
        return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=20,
                              env=ENV, cwd=self.d, preexec_fn=limit)

    def test_filter_and_only_end_in_bounded_time_and_stack(self):
        for p in self.PATTERNS:
            for args in (["run", "--suite", "smoke", "--no-probe", "--benchmark_list_tests", "--filter", p],
                         ["probe", "--only", p, "-o", "pm.json"]):
                with self.subTest(command=args[0], pattern=p[:40]):
                    r = self.bounded(*args)
                    self.assertIn(r.returncode, (0, 2), r.stderr[-300:])
                    # The pattern is never echoed whole: every line capped.
                    self.assertLess(max(map(len, r.stderr.splitlines() or [""])), 2200)

    def test_an_invalid_pattern_and_one_that_matches_nothing_are_one_line(self):
        r = self.bounded("run", "--suite", "smoke", "--no-probe", "--filter", "gemm/(f32")
        self.assertEqual(r.returncode, 2)
        self.assertIn("invalid regular expression", r.stderr)
        r = self.bounded("probe", "--only", "nomatch", "-o", "pm.json")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("matches nothing", r.stderr)
        self.assertFalse(os.path.exists(self.path("pm.json")))


class VerdictsTheDataCannotSupport(Folder):
    """compare: one repetition a side is no equivalence; two runs with nothing in common are
    no pass; a --history folder's stray file is left out with a warning (issue #37, class 5)."""

    def one_rep(self, name, case="naive/f64/m=64"):
        r = self.run_in("run", "--suite", "smoke", "--filter", case, "--repetitions", "1",
                        "--min-time", "0.01", "--no-probe", "-o", name)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_one_repetition_each_is_inconclusive_and_fails_that_gate(self):
        self.one_rep("a.json")
        self.one_rep("b1.json")
        r = self.run_in("compare", "a.json", "b1.json", "--fail-on", "inconclusive", "--json", "c.json")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("no interval at 95% confidence", r.stdout)
        self.assertIn("run at least 4 repetitions each", r.stdout)
        with open(self.path("c.json")) as f:
            verdicts = {c["verdict"] for c in json.load(f)["cases"]}
        self.assertEqual(verdicts, {"inconclusive"})

    def test_two_runs_with_no_case_in_common_fail_unless_allowed(self):
        self.one_rep("a.json")
        self.one_rep("f32.json", "naive/f32/m=64")
        r = self.run_in("compare", "a.json", "f32.json", "--json", "c.json")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("nothing was compared", r.stderr)
        self.assertIn("FAILED", r.stdout)
        with open(self.path("c.json")) as f:
            self.assertTrue(json.load(f)["gate_failed"])
        r = self.run_in("compare", "a.json", "f32.json", "--allow-empty")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_history_folder_leaves_out_a_file_that_is_not_a_run(self):
        os.mkdir(self.path("h"))
        for name in ("h/1.json", "h/2.json"):
            self.one_rep(name)
        with open(self.path("h/notes.json"), "w") as f:
            f.write("not a run")
        r = self.run_in("compare", "--history", "h")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("notes.json left out of the history", r.stderr)
        self.assertIn("history of 2 runs", r.stdout)


    def test_a_history_folder_says_each_entry_that_cannot_be_a_run(self):
        # A symbolic link loop, one to nothing, a FIFO and a directory named .json: one warning
        # line each, naming it, never an internal error; the runs are compared.
        os.mkdir(self.path("h"))
        for name in ("h/1.json", "h/2.json"):
            self.one_rep(name)
        os.symlink("loop.json", self.path("h/loop.json"))
        os.symlink("nothing-here", self.path("h/dangling.json"))
        os.mkfifo(self.path("h/pipe.json"))
        os.mkdir(self.path("h/folder.json"))
        r = self.run_in("compare", "--history", "h", timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("internal error", r.stderr)
        lines = r.stderr.splitlines()
        for name, why in (("loop.json", "cannot be followed: Too many levels of symbolic links"),
                          ("dangling.json", "cannot be followed"),
                          ("pipe.json", "not a regular file"),
                          ("folder.json", "not a regular file")):
            self.assertEqual(sum(f"h/{name} left out of the history: {why}" in line
                                 for line in lines), 1, r.stderr)
        self.assertIn("history of 2 runs", r.stdout)


class TerminalEscapes(Folder):
    """A string from outside reaches the terminal visible, never acted on: file names in error
    lines, a library's name in `list` and in `run`'s progress, the lock's PID text (#37,
    class 4). The window's table is tested in tests/gui/hostile_input_test.cpp."""

    HOSTILE = "\x1b]0;PWNED\x07\x1b[2J\u202ex"
    RAW = ("\x1b", "\x07", "\u202e")

    def assert_visible(self, text):
        for raw in self.RAW:
            self.assertNotIn(raw, text)

    def library(self):
        src = LIBDIR + "/blas/libblas.so.3"
        if not os.path.exists(src):
            self.skipTest(f"{src} is not installed (Debian's libblas3)")
        lib = self.path(self.HOSTILE + ".so")
        with open(src, "rb") as f, open(lib, "wb") as out:
            out.write(f.read())
        return lib

    def test_a_file_name_in_an_error_line(self):
        r = self.run_in("report", self.HOSTILE + ".json")
        self.assertEqual(r.returncode, 2)
        self.assert_visible(r.stderr)
        self.assertIn("\\x1B]0;PWNED", r.stderr)

    def test_a_library_name_in_list_and_in_runs_progress(self):
        lib = self.library()
        r = self.run_in("list", "--blas-lib", lib)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assert_visible(r.stdout)
        self.assertIn("PWNED", r.stdout)
        r = self.run_in("run", "--suite", "smoke", "--no-probe", "--blas-lib", lib, "--filter", "m=64",
                        "--dtype", "f64", "--repetitions", "1", "--min-time", "0.01", "-o", "x.json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assert_visible(r.stderr)
        self.assertIn("PWNED", r.stderr)

    def test_the_lock_holders_text(self):
        with open(self.path(".held.json.lock"), "w") as f:
            f.write(self.HOSTILE)
        import fcntl
        with open(self.path(".held.json.lock")) as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            r = self.run_in("run", *ONE_CASE, "-o", "held.json")
        self.assertEqual(r.returncode, 2)
        self.assertIn("is writing it", r.stderr)
        self.assert_visible(r.stderr)


class ClearerWords(Folder):
    """Right answers that said too little (#37, class 6): each row, a command and the words its
    one line must hold; exit 2."""

    TABLE = [
        (["report", "m.json", "--format", "md", "-o", "r.md"], ["a machine model", "--machine m.json"]),
        (["report", "b.json", "--machine", "b.json", "--format", "md", "-o", "r.md"],
         ["a run, not a machine model"]),
        (["run", "--suite", "smoke", "--no-probe", "--params", "m=9223372036854775808"], ["too large"]),
        (["run", "--suite", "fusion", "--no-probe", "--params", "rows=18446744073709551617"],
         ["too large"]),
        (["run", "--suite", "smoke", "--no-probe", "--shape", "99999999999999999999"], ["32-bit"]),
        (["compare", "--history", "b.json", "n.json", "--last", "9223372036854775808"],
         ["--last: '9223372036854775808' is not a number of runs between 1 and 100000"]),
        (["einsum", "ij,jk->ik", "--dims", "i=2,j=3,k=4", "--no-probe", "--threads",
          "99999999999999999999"], ["'99999999999999999999' is not a number of threads"]),
        (["einsum", "ij,jk->ik", "--dims", "i=2,j=9223372036854775808,k=4", "--no-probe"],
         ["'9223372036854775808': out of range"]),
        (["run", "--suite", "smoke", "--no-probe", "--seed", "-1"], ["negative"]),
        (["run", "--suite", "smoke", "--no-probe", "--seed", "18446744073709551616"], ["too large"]),
        (["run", "--suite", "smoke", "--no-probe", "--threads", "9223372036854775808"],
         ["threads"]),
        (["run", "--suite", "smoke", "--no-probe", "--pattern", "mantissa99"],
         ["mantissaK takes K from 0 to 52"]),
        (["report", "utf8.json", "--format", "md", "-o", "r.md"], ["not UTF-8", "byte 11"]),
        (["report", "late-utf8.json", "--format", "md", "-o", "r.md"], ["ill-formed UTF-8", "benchmarks[0]"]),
        (["report", "surrogate.json", "--format", "md", "-o", "r.md"], ["surrogate", "benchmarks[0]"]),
        (["report", "b.json", "--machine", "twice.json", "--format", "md", "-o", "r.md"],
         ["twice.json: host: key given twice in one object"]),
    ]

    def test_each_says_what_is_wrong(self):
        with open(self.path("utf8.json"), "wb") as f:
            f.write(b'{"context":\xff}')
        with open(RUN_FIXTURE, "rb") as f:
            run = f.read()
        # Past the first 4 KiB, where the JSON reader meets it: a name with a bad byte, one with
        # a lone surrogate.
        at = run.index(b'"name": "', run.index(b'"benchmarks"')) + 9
        with open(self.path("late-utf8.json"), "wb") as f:
            f.write(b"{" + b" " * 5000 + run[1:at] + b"\xc3\x28" + run[at:])
        with open(self.path("surrogate.json"), "wb") as f:
            f.write(run[:at] + b"\\ud800" + run[at:])
        with open(self.path("m.json")) as f:
            model = f.read()
        with open(self.path("twice.json"), "w") as f:
            f.write(model.replace('"host":', '"host": "x", "host":', 1))
        for args, words in self.TABLE:
            with self.subTest(args=" ".join(args)):
                r = self.run_in(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                for w in words:
                    self.assertIn(w, r.stderr)

    def test_a_key_google_benchmark_writes_twice_keeps_its_own_and_is_noted(self):
        # A user counter named "real_time" follows Google Benchmark's own (a real recording).
        clash = os.path.join(FIXTURES, "gbench-1.7.1-counter-clash.json")
        r = self.run_in("report", clash, "--format", "csv", "-o", "r.csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("12 keys are given again in the same object (benchmarks[0].iterations, "
                      "benchmarks[0].real_time", r.stderr)
        self.assertIn("the first value is read", r.stderr)
        r = self.run_in("report", clash, "--format", "md", "-o", "r.md")
        with open(self.path("r.md")) as f:
            self.assertIn("Reading the input:", f.read())

    def test_a_library_whose_constructor_aborts_is_not_listed_as_usable(self):
        lib = os.environ.get("ABORTING_CBLAS")
        if not lib:
            self.skipTest("ABORTING_CBLAS is not set (CTest sets it)")
        r = self.run_in("list", "--blas-lib", lib)
        self.assertEqual(r.returncode, 0, r.stderr)
        # Every lowering through it, not only its GEMM: einsum's strided and TTGT ones too.
        rows = [line for line in r.stdout.splitlines()
                if line.startswith("  ") and ".blas." in line and "aborting" in line.split()[0]]
        self.assertEqual(sorted(row.split()[0].split(".blas.")[0] for row in rows),
                         ["einsum", "einsum", "gemm"], rows)
        for row in rows:
            self.assertIn("unavailable: its library does not load: ", row)
            self.assertIn("killed by SIGABRT", row)


if __name__ == "__main__":
    unittest.main()
