"""Nothing runs from where the user stands (issue #62, class 1).

A library planted in the working directory, named like one Ridgeline or its dependencies load,
ran inside `ridgeline`: the binary's RUNPATH ended in an empty entry (the working directory,
to the dynamic loader), and run-time loads by bare name went through the same search. Here:

- every name the loader is asked for while each subcommand (and the dashboard) runs in a clean
  folder, every soname of their startup libraries (ldd) and the libraries Ridgeline loads at run
  time are planted as a marker library (tests/fixtures/fixture_marker_library.c) in a folder;
  each command run there must never run it, and must end as it did in the clean folder;
- no binary built has an empty, relative, $ORIGIN or build-tree entry in its RUNPATH, and the
  link launcher that checks it refuses one (cmake/link-and-check-runpath);
- LD_LIBRARY_PATH with a relative element is warned about, and a library found only there is
  not loaded;
- a user's --blas-lib is the file named: a bare name is that file in the working directory, a
  FIFO or a library another user can write is refused at once, one whose constructor exits or
  hangs is one line and exit 2, in bounded time.

RIDGELINE names the binary; MARKER_LIBRARY the marker, WRONG_CBLAS a loadable CBLAS fixture,
RIDGELINE_GUI the dashboard (when built), RIDGELINE_SOURCE_DIR and RIDGELINE_BINARY_DIR the
trees (CTest sets them).
"""
import os
import re
import shutil
import stat
import subprocess
import tempfile
import time
import unittest

from cli_support import ENV, RIDGELINE, remove_cache
from hostile_folder import MACHINE_FIXTURE, ONE_CASE, RUN_FIXTURE

MARKER = os.environ.get("MARKER_LIBRARY", "")
WRONG_CBLAS = os.environ.get("WRONG_CBLAS", "")
GUI = os.environ.get("RIDGELINE_GUI", "")
SOURCE_DIR = os.environ.get("RIDGELINE_SOURCE_DIR", "")
BINARY_DIR = os.environ.get("RIDGELINE_BINARY_DIR", "")

# What Ridgeline loads by name at run time, some only where a GPU or a vendor library is (so
# the clean folder's run may not ask for them here).
RUN_TIME_NAMES = [
    "libnvidia-ml.so.1", "libcuda.so.1", "libcublas.so.13", "libcublasLt.so.13",
    "libcudnn.so.9", "libnccl.so.2", "libopenblas.so.0", "libblis.so.4", "libblas.so.3",
    "libcblas.so.3", "libmkl_rt.so", "libmkl_rt.so.2", "libpfm.so.4", "libdnnl.so.2",
]

# Each command as a user types it in a folder holding b.json, n.json and m.json.
COMMANDS = [
    ["--version"],
    ["list"],
    ["collectors"],
    ["report", "b.json", "--format", "md", "-o", "r.md"],
    ["report", "b.json", "--machine", "m.json", "-o", "r.html"],
    ["compare", "b.json", "n.json"],
    ["fleet", "b.json", "n.json"],
    ["run", *ONE_CASE, "-o", "x.json"],
    ["probe", "--only", "call", "--trials", "1", "--seconds", "0.05", "-o", "pm.json"],
    ["profile", *ONE_CASE, "-d", "prof"],
    ["einsum", "ij,jk->ik", "--dims", "i=16,j=16,k=16", "--threads", "1", "--repetitions", "1",
     "--min-time", "0.01", "--no-probe", "-o", "e.json"],
]


def tearDownModule():
    remove_cache()


def sonames(binary):
    """The sonames ldd lists for a binary (its startup libraries and theirs)."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if "=>" in line}


def runpath(binary):
    out = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True).stdout
    m = re.search(r"\((?:RUNPATH|RPATH)\).*\[(.*)\]", out)
    return m.group(1) if m else None


class PlantedLibraries(unittest.TestCase):
    def setUp(self):
        if not MARKER:
            self.skipTest("MARKER_LIBRARY is not set (CTest sets it)")
        self.tmp = tempfile.TemporaryDirectory()
        self.log = os.path.join(self.tmp.name, "marker.log")
        self.env = dict(ENV, RIDGELINE_MARKER_LOG=self.log, QT_QPA_PLATFORM="offscreen")
        self.env.pop("LD_LIBRARY_PATH", None)

    def tearDown(self):
        self.tmp.cleanup()

    def folder(self, name):
        d = os.path.join(self.tmp.name, name)
        os.mkdir(d)
        for f, src in (("b.json", RUN_FIXTURE), ("n.json", RUN_FIXTURE), ("m.json", MACHINE_FIXTURE)):
            shutil.copy(src, os.path.join(d, f))
        return d

    def commands(self):
        cmds = [[RIDGELINE, *c] for c in COMMANDS]
        if GUI:
            cmds.append([GUI, "--screenshot", "s.png", "b.json"])
        return cmds

    def marked(self):
        if not os.path.exists(self.log):
            return ""
        with open(self.log) as f:
            return f.read()

    def test_no_planted_library_runs_in_any_command(self):
        clean = self.folder("clean")
        asked, expected = set(), {}
        for cmd in self.commands():
            r = subprocess.run(cmd, capture_output=True, text=True, cwd=clean, timeout=300,
                               env=dict(self.env, LD_DEBUG="libs"))
            asked |= set(re.findall(r"find library=(\S+) \[", r.stderr))
            expected[tuple(cmd)] = r.returncode
        names = asked | set(RUN_TIME_NAMES) | sonames(RIDGELINE) | (sonames(GUI) if GUI else set())
        names.discard("linux-vdso.so.1")
        self.assertIn("libnvidia-ml.so.1", asked)  # the collectors' NVML, by soname
        self.assertGreater(len(names), 20, sorted(names))
        planted = self.folder("planted")
        for name in names:
            shutil.copy(MARKER, os.path.join(planted, name))
        for cmd in self.commands():
            r = subprocess.run(cmd, capture_output=True, text=True, cwd=planted, timeout=300,
                               env=self.env)
            self.assertEqual(self.marked(), "", f"{cmd[1:]}: a planted library ran")
            self.assertEqual(r.returncode, expected[tuple(cmd)], f"{cmd[1:]}: {r.stderr[-2000:]}")

    def test_a_library_only_in_a_relative_ld_library_path_element_is_not_loaded(self):
        d = self.folder("work")
        os.mkdir(os.path.join(d, "libs"))
        shutil.copy(MARKER, os.path.join(d, "libs", "libnvidia-ml.so.1"))
        r = subprocess.run([RIDGELINE, "collectors", "--json"], capture_output=True, text=True,
                           cwd=d, timeout=120, env=dict(self.env, LD_LIBRARY_PATH="libs"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.marked(), "")
        self.assertIn("LD_LIBRARY_PATH has 'libs'", r.stderr)
        self.assertIn("found only in 'libs'", r.stdout)
        r = subprocess.run([RIDGELINE, "--version"], capture_output=True, text=True, cwd=d,
                           timeout=60, env=dict(self.env, LD_LIBRARY_PATH="/usr/lib::/opt"))
        self.assertIn("LD_LIBRARY_PATH has an empty element", r.stderr)
        r = subprocess.run([RIDGELINE, "--version"], capture_output=True, text=True, cwd=d,
                           timeout=60, env=dict(self.env, LD_LIBRARY_PATH="/usr/lib"))
        self.assertNotIn("LD_LIBRARY_PATH", r.stderr)


class BuiltRunpaths(unittest.TestCase):
    def test_every_binary_built_has_only_absolute_entries_outside_the_trees(self):
        if not BINARY_DIR:
            self.skipTest("RIDGELINE_BINARY_DIR is not set (CTest sets it)")
        checked = 0
        for root, _, files in os.walk(BINARY_DIR):
            for f in files:
                p = os.path.join(root, f)
                if os.path.islink(p) or not os.access(p, os.X_OK) and not f.endswith(".so"):
                    continue
                with open(p, "rb") as fh:
                    if fh.read(4) != b"\x7fELF":
                        continue
                checked += 1
                path = runpath(p)
                if path is None:
                    continue
                for entry in path.split(":"):
                    self.assertTrue(entry.startswith("/"), f"{p}: RUNPATH {path!r}")
                    self.assertFalse(entry.startswith(SOURCE_DIR + "/"), f"{p}: RUNPATH {path!r}")
        self.assertGreater(checked, 10)

    def test_the_link_check_refuses_an_empty_relative_or_origin_entry(self):
        if not SOURCE_DIR:
            self.skipTest("RIDGELINE_SOURCE_DIR is not set (CTest sets it)")
        check = os.path.join(SOURCE_DIR, "cmake", "link-and-check-runpath")
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "m.c")
            with open(src, "w") as f:
                f.write("int main(void) { return 0; }\n")
            out = os.path.join(d, "m")
            for rpath, ok in ((":/usr/lib", False), ("/usr/lib:", False), ("lib", False),
                              ("$ORIGIN/lib", False), (SOURCE_DIR + "/build", False),
                              ("/usr/lib:/opt/x", True)):
                r = subprocess.run([check, SOURCE_DIR, SOURCE_DIR + "/build", "--", "cc", src, "-o",
                                    out, f"-Wl,-rpath,{rpath}", "-Wl,--enable-new-dtags"],
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode == 0, ok, f"{rpath!r}: {r.stderr}")
                self.assertEqual(os.path.exists(out), ok, rpath)
                if not ok:
                    self.assertIn("refused", r.stderr)


class UserLibraries(unittest.TestCase):
    """--blas-lib: the file named, checked, loaded in bounded time."""

    def setUp(self):
        if not (MARKER and WRONG_CBLAS):
            self.skipTest("MARKER_LIBRARY and WRONG_CBLAS are not set (CTest sets them)")
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def ridgeline(self, *args, env=None, timeout=120):
        start = time.monotonic()
        r = subprocess.run([RIDGELINE, *args], capture_output=True, text=True, cwd=self.d,
                           timeout=timeout, env=env or ENV)
        return r, time.monotonic() - start

    def run_with(self, lib, env=None):
        return self.ridgeline("run", *ONE_CASE, "--blas-lib", lib, "-o", "x.json", env=env)

    def test_a_bare_name_is_the_file_in_the_working_directory(self):
        shutil.copy(WRONG_CBLAS, os.path.join(self.d, "libmyblas.so"))
        r, _ = self.ridgeline("list", "--json", "--blas-lib", "libmyblas.so")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("./libmyblas.so", r.stdout)
        r, _ = self.run_with("libcublas.so.13")  # a soname, not a file here: not searched for
        self.assertEqual(r.returncode, 2)
        self.assertIn("no such file in the working directory", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.d, "x.json")))

    def test_a_fifo_or_a_library_others_can_write_is_refused_at_once(self):
        os.mkfifo(os.path.join(self.d, "lib.so"))
        writable = os.path.join(self.d, "libw.so")
        shutil.copy(WRONG_CBLAS, writable)
        os.chmod(writable, 0o666)
        for lib, words in (("lib.so", "not a regular file"), ("./lib.so", "not a regular file"),
                           ("libw.so", "writable by every user")):
            r, seconds = self.run_with(lib)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(words, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertLess(seconds, 20)

    def test_a_constructor_that_exits_or_hangs_is_one_line_in_bounded_time(self):
        lib = os.path.join(self.d, "libmarker.so")
        shutil.copy(MARKER, lib)
        for action, words, bound in (("exit", "before it finished", 20), ("sleep", "still running", 40)):
            env = dict(ENV, RIDGELINE_MARKER_ACTION=action)
            r, seconds = self.run_with(lib, env=env)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(words, r.stderr)
            self.assertNotIn("internal error", r.stderr)
            self.assertLess(seconds, bound)
            r, seconds = self.ridgeline("list", "--blas-lib", lib, env=env)
            self.assertIn(words, r.stdout + r.stderr)
            self.assertLess(seconds, bound)


if __name__ == "__main__":
    unittest.main()
