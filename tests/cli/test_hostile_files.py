"""Files a user owns are never overwritten, files planted beside an output are never followed,
and what cannot be a Run is refused in bounded time and memory (issue #37, classes 1-3):

- an output naming an input, or two outputs naming one file, is one line and exit 2 before
  any work, by path, through a symbolic link, a hard link or another spelling of the path,
  for every command and every output option;
- a file a command replaces that it did not write in this invocation is kept as NAME.prev,
  and a NAME.prev planted as a link is replaced, not followed;
- a lock file or journal planted as a link, a FIFO or a hard link is refused, its target
  untouched; with standard output and error closed, nothing lands in the lock file;
- /dev/zero, /dev/urandom and a 2 GB sparse file are refused from their first bytes by every
  reader; a FIFO with no writer (or, written to, no reader) is waited for 10 s; a library
  that is not a regular file is not loaded; --threads is bounded by the CPUs.

RIDGELINE names the binary (CTest sets it).
"""
import hashlib
import json
import os
import resource
import stat
import subprocess
import tempfile
import unittest

from cli_support import FIXTURES, remove_cache, ridgeline, RIDGELINE, ENV

RUN_FIXTURE = os.path.join(FIXTURES, "run-smoke-f64-zen4-vm.json")
MACHINE_FIXTURE = os.path.join(FIXTURES, "machine-zen4-vm.json")
ONE_CASE = ["--suite", "smoke", "--filter", "naive/f64/m=64", "--repetitions", "1",
            "--min-time", "0.01", "--no-probe"]


def tearDownModule():
    remove_cache()


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


class OutputsNeverOverwriteInputs(Folder):
    """Each row: a command whose output clashes; the one line holds the words given, the
    folder is exactly as it was (no file changed, none added)."""

    INPUT = "would overwrite an input"
    TWICE = "name the same file"
    TABLE = [
        (["compare", "b.json", "n.json", "--json", "b.json"], [INPUT, "--json b.json"]),
        (["compare", "b.json", "n.json", "--json", "n.json"], [INPUT, "new run"]),
        (["compare", "b.json", "n.json", "--markdown", "b.json"], [INPUT, "--markdown"]),
        (["compare", "b.json", "n.json", "--junit", "./n.json"], [INPUT, "--junit"]),
        (["compare", "b.json", "n.json", "--json", "link.json"], [INPUT, "link.json"]),
        (["compare", "b.json", "n.json", "--json", "hard.json"], [INPUT, "hard.json"]),
        (["compare", "b.json", "n.json", "--json", "sub/../b.json"], [INPUT]),
        (["compare", "b.json", "n.json", "--threshold", "t.json", "--json", "t.json"], [INPUT, "--threshold"]),
        (["compare", "b.json", "n.json", "--json", "s.json", "--markdown", "s.json"], [TWICE]),
        (["compare", "b.json", "n.json", "--json", "s.json", "--junit", "./s.json"], [TWICE]),
        (["compare", "--calibrate", "b.json", "n.json", "-o", "b.json"], [INPUT, "-o b.json"]),
        (["compare", "--calibrate", "b.json", "n.json", "-o", "link.json"], [INPUT]),
        (["report", "b.json", "--format", "md", "-o", "b.json"], [INPUT, "-o b.json"]),
        (["report", "b.json", "--format", "md", "-o", "link.json"], [INPUT]),
        (["report", "b.json", "--machine", "m.json", "--format", "md", "-o", "m.json"], [INPUT, "--machine"]),
        (["report", "b.json", "-o", "x.csv", "--csv-fusion", "x.csv"], [TWICE, "--csv-fusion"]),
        (["report", "b.json", "-o", "r.md", "--csv-sweep", "r.md"], [TWICE, "--csv-sweep"]),
        (["report", "b.json", "-o", "r.md", "--csv-passes", "./r.md"], [TWICE, "--csv-passes"]),
        (["report", "b.json", "-o", "r.md", "-o", "r.md"], [TWICE]),
        (["report", "b.json", "n.json", "--format", "md", "-o", "n.json"], [INPUT]),
        (["run", *ONE_CASE, "--blas-lib", "b.json", "-o", "b.json"], [INPUT, "--blas-lib"]),
    ]

    def test_each_clash_is_refused_before_any_work(self):
        os.mkdir(self.path("sub"))
        for args, words in self.TABLE:
            with self.subTest(args=" ".join(args)):
                before = self.snapshot()
                r = self.run_in(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                lines = r.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, r.stderr)
                for w in words:
                    self.assertIn(w, lines[0])
                self.assertEqual(self.snapshot(), before)

    def test_distinct_files_still_work(self):
        r = self.run_in("compare", "b.json", "n.json", "--json", "c.json", "--markdown", "c.md")
        self.assertIn(r.returncode, (0, 1), r.stderr)
        self.assertTrue(os.path.isfile(self.path("c.json")))
        r = self.run_in("report", "b.json", "--format", "md", "-o", "/dev/null")
        self.assertEqual(r.returncode, 0, r.stderr)


class ReplacedFilesAreKept(Folder):
    def test_report_compare_and_calibrate_keep_the_old_file_as_prev(self):
        for args, out in ((["report", "b.json", "-o", "r.md"], "r.md"),
                          (["compare", "b.json", "n.json", "--json", "c.json"], "c.json"),
                          (["compare", "--calibrate", "b.json", "n.json", "-o", "th.json"], "th.json")):
            with self.subTest(out=out):
                with open(self.path(out), "w") as f:
                    f.write("the user's own\n")
                r = self.run_in(*args)
                self.assertIn(r.returncode, (0, 1), r.stderr)
                with open(self.path(out + ".prev")) as f:
                    self.assertEqual(f.read(), "the user's own\n")
                self.assertNotEqual(digest(self.path(out)), digest(self.path(out + ".prev")))

    def test_one_invocation_keeps_the_users_file_not_its_own(self):
        # Two outputs of one report: each file's .prev is what was there before the command.
        with open(self.path("r.md"), "w") as f:
            f.write("old report\n")
        r = self.run_in("report", "b.json", "-o", "r.md", "-o", "r.html")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path("r.md.prev")) as f:
            self.assertEqual(f.read(), "old report\n")
        self.assertFalse(os.path.exists(self.path("r.html.prev")))  # there was none

    def test_a_planted_prev_link_is_replaced_not_followed(self):
        victim = self.path("victim")
        with open(victim, "w") as f:
            f.write("precious\n")
        with open(self.path("r.md"), "w") as f:
            f.write("old\n")
        os.symlink("victim", self.path("r.md.prev"))
        r = self.run_in("report", "b.json", "-o", "r.md")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(victim) as f:
            self.assertEqual(f.read(), "precious\n")
        self.assertFalse(os.path.islink(self.path("r.md.prev")))
        with open(self.path("r.md.prev")) as f:
            self.assertEqual(f.read(), "old\n")


class PlantedFilesBesideAnOutput(Folder):
    def assert_refused_and_victim_intact(self, r, victim, words):
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)
        with open(victim) as f:
            self.assertEqual(f.read(), "precious\n")

    def victim(self):
        v = self.path("victim")
        with open(v, "w") as f:
            f.write("precious\n")
        return v

    def test_a_lock_planted_as_a_link_is_refused(self):
        v = self.victim()
        os.symlink("victim", self.path(".lk.json.lock"))
        r = self.run_in("run", *ONE_CASE, "-o", "lk.json")
        self.assert_refused_and_victim_intact(r, v, ["symbolic link"])
        self.assertFalse(os.path.exists(self.path("lk.json")))

    def test_a_lock_planted_as_a_hard_link_is_refused(self):
        v = self.victim()
        os.link(v, self.path(".lk.json.lock"))
        r = self.run_in("run", *ONE_CASE, "-o", "lk.json")
        self.assert_refused_and_victim_intact(r, v, ["hard link"])

    def test_a_lock_planted_as_a_fifo_is_refused_without_waiting(self):
        os.mkfifo(self.path(".lk.json.lock"))
        r = self.run_in("run", *ONE_CASE, "-o", "lk.json", timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("not a regular file", r.stderr)

    def test_a_journal_planted_as_a_link_is_not_followed(self):
        v = self.victim()
        os.symlink("victim", self.path("lk.jsonl"))
        r = self.run_in("run", *ONE_CASE, "-o", "lk.json")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(v) as f:
            self.assertEqual(f.read(), "precious\n")
        self.assertTrue(os.path.islink(self.path("lk.jsonl.prev")))  # moved aside, itself
        self.assertTrue(stat.S_ISREG(os.lstat(self.path("lk.jsonl")).st_mode))


class ClosedStandardStreams(Folder):
    """`>&- 2>&-`: no file Ridgeline opens may become fd 1 or 2."""

    def closed(self, *args):
        def close_out():
            os.close(1)
            os.close(2)
        return subprocess.run([RIDGELINE, *args], env=ENV, cwd=self.d, timeout=300,
                              preexec_fn=close_out)

    def test_run_with_stdout_and_stderr_closed_writes_its_run_not_the_lock(self):
        for fmt in ([], ["--benchmark_format=json"]):
            with self.subTest(fmt=fmt):
                r = self.closed("run", *ONE_CASE, *fmt, "-o", "fd.json")
                self.assertEqual(r.returncode, 0)
                with open(self.path(".fd.json.lock")) as f:
                    self.assertRegex(f.read(), r"^\d+\n$")
                with open(self.path("fd.json")) as f:
                    self.assertEqual(len(json.load(f)["benchmarks"]) > 0, True)

    def test_list_with_stdout_closed_fails_as_cat_does(self):
        r = subprocess.run([RIDGELINE, "list"], env=ENV, cwd=self.d, timeout=120,
                           stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1))
        self.assertEqual(r.returncode, 1)
        self.assertIn("standard output is closed", r.stderr)


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
                    self.assertIn("not UTF-8 text", r.stderr)

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
        src = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3"
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
        (["run", "--suite", "smoke", "--no-probe", "--seed", "-1"], ["negative"]),
        (["run", "--suite", "smoke", "--no-probe", "--pattern", "mantissa99"],
         ["mantissaK takes K from 0 to 52"]),
        (["report", "utf8.json", "--format", "md", "-o", "r.md"], ["not UTF-8", "byte 11"]),
        (["report", "late-utf8.json", "--format", "md", "-o", "r.md"], ["ill-formed UTF-8", "benchmarks[0]"]),
        (["report", "surrogate.json", "--format", "md", "-o", "r.md"], ["surrogate", "benchmarks[0]"]),
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
        for args, words in self.TABLE:
            with self.subTest(args=" ".join(args)):
                r = self.run_in(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                for w in words:
                    self.assertIn(w, r.stderr)

    def test_a_library_whose_constructor_aborts_is_not_listed_as_usable(self):
        lib = os.environ.get("ABORTING_CBLAS")
        if not lib:
            self.skipTest("ABORTING_CBLAS is not set (CTest sets it)")
        r = self.run_in("list", "--blas-lib", lib)
        self.assertEqual(r.returncode, 0, r.stderr)
        row = next(line for line in r.stdout.splitlines() if line.startswith("  gemm.blas.") and
                   "aborting" in line)
        self.assertIn("unavailable: its library is not loadable", row)
        self.assertIn("killed by SIGABRT", r.stdout)


if __name__ == "__main__":
    unittest.main()
