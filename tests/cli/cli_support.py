"""What every CLI test module shares: the binary, the fixtures and a test cache.

RIDGELINE names the binary (CTest sets it). The machine-model cache is each module's own,
apart from the user's, and removed when the module ends (call remove_cache from
tearDownModule).
"""
import os
import re
import shutil
import subprocess
import tempfile

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
CACHE = tempfile.mkdtemp(prefix="ridgeline-test-cache-")
ENV = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": CACHE}


def remove_cache():
    shutil.rmtree(CACHE, ignore_errors=True)


def ridgeline(*args, timeout=300):
    return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=timeout, env=ENV)


def launched_process(variable, parent_is):
    """The pid of the one process whose environment has `variable` (b"NAME=value") and whose
    parent passes `parent_is(parent's comm)`: a rank as its launcher started it, not one of
    its cases' children, which share its environment."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
            with open(f"/proc/{pid}/stat") as f:
                ppid = f.read().rsplit(")", 1)[1].split()[1]
            with open(f"/proc/{ppid}/comm") as f:
                parent = f.read().strip()
        except OSError:
            continue
        if variable in env and parent_is(parent):
            found.append(int(pid))
    assert len(found) == 1, found
    return found[0]


def assert_namespaces_removed(test, stderr):
    """The two network namespaces a script (two-hosts, local-slurm --nodes 2) said it made
    are gone again (other tests' may exist meanwhile)."""
    made = re.search(r"are the network namespaces (\S+) and (\S+)$", stderr, re.M)
    test.assertIsNotNone(made, stderr)
    now = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
    for name in made.groups():
        test.assertNotIn(name, now)
