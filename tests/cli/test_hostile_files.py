"""Files a user owns are never overwritten and files planted beside an output are never
followed (issue #37, classes 1 and 2):

- an output naming an input, or two outputs naming one file, is one line and exit 2 before
  any work, by path, through a symbolic link, a hard link or another spelling of the path,
  for every command and every output option;
- a file a command replaces that it did not write in this invocation is kept as NAME.prev,
  and a NAME.prev planted as a link is replaced, not followed;
- a lock file or journal planted as a link, a FIFO or a hard link is refused, its target
  untouched; with standard output and error closed, nothing lands in the lock file.

RIDGELINE names the binary (CTest sets it). test_hostile_inputs.py has classes 3-6.
"""
import json
import os
import shlex
import stat
import subprocess
import unittest

from cli_support import ENV, RIDGELINE, remove_cache
from hostile_folder import ONE_CASE, Folder, digest


def tearDownModule():
    remove_cache()


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


class DescriptorOutputs(Folder):
    """An output named as a descriptor (#62, class 2): `-o /dev/stdout > r.json` writes r.json
    where the shell opened it, never moves it aside as r.json.prev; a descriptor closed at
    startup is refused; an empty `--filter=` takes no next argument; one JSON document on
    standard output when --benchmark_out names it too."""

    def shell(self, command):
        return subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=self.d,
                              env=dict(ENV, RL=RIDGELINE), timeout=300)

    def test_a_descriptor_is_written_where_it_stands(self):
        one = shlex.join(ONE_CASE)
        for command, out, kept in (
                (f'"$RL" run {one} -o /dev/stdout > r.json', "r.json", ""),
                ('echo old > r.md; "$RL" report b.json --format md -o /dev/stdout > r.md', "r.md", ""),
                ('echo kept > a.md; "$RL" report b.json --format md -o /dev/fd/3 3>>a.md', "a.md",
                 "kept\n"),
                ('"$RL" compare b.json n.json --json /dev/fd/3 3> c.json', "c.json", "")):
            with self.subTest(command=command):
                r = self.shell(command)
                self.assertIn(r.returncode, (0, 1), r.stderr)
                with open(self.path(out)) as f:
                    text = f.read()
                self.assertTrue(text.startswith(kept), text[:200])
                self.assertGreater(len(text), len(kept) + 10)
                if out.endswith(".json"):
                    json.loads(text)
                self.assertFalse(os.path.exists(self.path(out + ".prev")), os.listdir(self.d))
                self.assertEqual([n for n in os.listdir(self.d) if n.startswith("." + out + ".")
                                  and not n.endswith(".lock")], [])

    def test_a_standard_output_closed_at_startup_is_refused(self):
        for command in ('"$RL" report b.json --format md -o /dev/stdout >&-',
                        '"$RL" compare b.json n.json --json /dev/stdout >&-'):
            with self.subTest(command=command):
                r = self.shell(command)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("standard output was closed", r.stderr)

    def test_an_empty_value_after_equals_takes_no_next_argument(self):
        for option in ("--filter=", "--benchmark_filter=", "--backend="):
            with self.subTest(option=option):
                r = self.shell(f'"$RL" run {option} --dry-run --backend cpu.naive')
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(f"{option} has an empty value", r.stderr)
                self.assertFalse(os.path.exists(self.path("run.json")))

    def test_google_benchmarks_json_on_stdout_once(self):
        r = self.shell(f'"$RL" run {shlex.join(ONE_CASE)} --benchmark_format=json '
                       "--benchmark_out=/dev/stdout")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreater(len(json.loads(r.stdout)["benchmarks"]), 0)


if __name__ == "__main__":
    unittest.main()
