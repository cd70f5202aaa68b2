"""What every CLI test module shares: the binary, the fixtures and a test cache.

RIDGELINE names the binary (CTest sets it). The machine-model cache is each module's own,
apart from the user's, and removed when the module ends (call remove_cache from
tearDownModule).
"""
import os
import time
import re
import shutil
import signal
import subprocess
import tempfile
import unittest
from itertools import count

RIDGELINE = os.environ.get("RIDGELINE", "ridgeline")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
CACHE = tempfile.mkdtemp(prefix="ridgeline-test-cache-")
ENV = {**os.environ, "NO_COLOR": "1", "XDG_CACHE_HOME": CACHE}
_jobs = count()


def remove_cache():
    shutil.rmtree(CACHE, ignore_errors=True)


def ridgeline(*args, timeout=300):
    return subprocess.run([RIDGELINE, *args], capture_output=True, text=True, timeout=timeout, env=ENV)


def run_script(args, timeout, **kwargs):
    """subprocess.run(capture_output=True, text=True) for a script that starts daemons or
    namespaces and removes them as it exits (local-slurm, two-hosts): past `timeout` its whole
    process group is sent SIGTERM (the launcher it runs ends its ranks, then the script's own
    cleanup runs), and SIGKILL 30 s later; then TimeoutExpired, as subprocess.run raises it. A
    hung job then leaves no daemon, namespace or spinning rank behind for the next test."""
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True, **kwargs) as p:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                out, err = p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                out, err = p.communicate()
            raise subprocess.TimeoutExpired(args, timeout, out, err)
    return subprocess.CompletedProcess(args, p.returncode, out, err)


def job_environment():
    """ENV with a mark of its own (RIDGELINE_TEST_JOB), which a launcher hands every rank:
    launched_process finds this job's ranks, not those of another test running beside it."""
    return dict(ENV, RIDGELINE_TEST_JOB=f"{os.getpid()}-{next(_jobs)}")


def launched_process(job_env, variable, parent_is):
    """The pid of the one process of the job started with `job_env` (job_environment) whose
    environment has `variable` (b"NAME=value") and whose parent passes `parent_is(parent's
    comm)`: a rank as its launcher started it, not one of its cases' children, which share its
    environment."""
    mark = f"RIDGELINE_TEST_JOB={job_env['RIDGELINE_TEST_JOB']}".encode()
    # Looked for again for a few seconds: on a loaded machine the launcher may not have
    # started the rank yet, or its /proc entry may be caught mid-exec.
    deadline = time.monotonic() + 10
    while True:
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
            if mark in env and variable in env and parent_is(parent):
                found.append(int(pid))
        if len(found) == 1 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
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


def network_namespace_reason():
    """Why no network namespace can be made here (not root in a container without
    CAP_SYS_ADMIN, no iproute2), or None: one is made and removed again to find out."""
    if shutil.which("ip") is None:
        return "ip not found (iproute2: scripts/install-deps)"
    name = f"rl-check-{os.getpid()}"
    r = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if r.returncode != 0:
        return f"cannot make a network namespace here: {r.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None


MPIRUN = shutil.which("mpirun")


@unittest.skipIf(MPIRUN is None, "mpirun not found (openmpi-bin: scripts/install-deps)")
@unittest.skipIf(os.environ.get("RIDGELINE_MPI_BUILT") != "1",
                 "this build has no MPI (RIDGELINE_WITH_MPI, libopenmpi-dev)")
class MpiJobTest(unittest.TestCase):
    """A test of `mpirun -np N ridgeline ...` on this machine, in a scratch directory, with
    self.out its run.json; skipped without mpirun or MPI in the build."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "run.json")

    def tearDown(self):
        self.dir.cleanup()

    def mpirun(self, ranks, *args):
        # --oversubscribe: more ranks than this machine's cores (CI has 2).
        return subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(ranks),
                               RIDGELINE, "run", *args], capture_output=True, text=True,
                              timeout=240, env=ENV)
