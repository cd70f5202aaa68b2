"""Ridgeline under Slurm's srun (issue #41), on a Slurm cluster on this one machine
(scripts/local-slurm: munge, slurmctld and slurmd from a temporary directory; srun
--mpi=pmix, which Debian's Open MPI speaks): every task a rank, one Run from all of them,
the network probe between them; stopped with `scancel --signal=INT`, the merged Run is still
written from the ranks' files; a task that dies makes Slurm end the step (it kills the other
tasks), and each rank's journal keeps its finished cases. Then two nodes (network
namespaces, a slurmd each): one Run over both hosts, the inter-node ceilings.

Skipped, with the reason, without root, Slurm's daemons and srun, munge, or MPI in the build
(RIDGELINE_MPI_BUILT); the two-node tests also without network namespaces.
"""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from cli_support import (ENV, RIDGELINE, assert_namespaces_removed, job_environment,
                         launched_process, network_namespace_reason, remove_cache,
                         run_script)

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
LOCAL_SLURM = os.path.join(SCRIPTS, "local-slurm")
QUICK = ["--suite", "smoke", "--filter", "^gemm/cpu\\.naive/f32/", "--repetitions", "1",
         "--min-time", "0.01", "--no-probe"]
SLOW = ["--suite", "smoke", "--filter", "^gemm/cpu\\.(naive|reordered|tiled)/",
        "--repetitions", "3", "--min-time", "0.1", "--no-probe"]


def tearDownModule():
    remove_cache()


def why_not():
    if os.geteuid() != 0:
        return "needs root, to run slurmd"
    for tool, package in (("slurmctld", "slurmctld"), ("slurmd", "slurmd"),
                          ("srun", "slurm-client"), ("munged", "munge")):
        if shutil.which(tool) is None:
            return f"{tool} not found ({package}: scripts/install-deps)"
    if os.environ.get("RIDGELINE_MPI_BUILT") != "1":
        return "this build has no MPI (RIDGELINE_WITH_MPI, libopenmpi-dev)"
    return None


REASON = why_not()


def why_not_two_nodes():
    for tool in ("nsenter", "unshare"):
        if shutil.which(tool) is None:
            return f"{tool} not found (util-linux)"
    return network_namespace_reason()


TWO_NODES = None if REASON else why_not_two_nodes()


def task_process(job_env, rank):
    """The pid of srun's task `rank` (started by slurmstepd) in the job started with `job_env`."""
    return launched_process(job_env, f"SLURM_PROCID={rank}".encode(),
                            lambda parent: parent == "slurmstepd")


@unittest.skipIf(REASON is not None, REASON or "")
class UnderSrun(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "run.json")

    def tearDown(self):
        self.dir.cleanup()

    def srun(self, tasks, *args, nodes=1):
        return run_script([LOCAL_SLURM, "--nodes", str(nodes), "-n", str(tasks), "--",
                           RIDGELINE, *args], timeout=300, env=ENV, cwd=self.dir.name)

    def start(self, tasks, *args):
        """srun in the background, once its Slurm is up: the job, its SLURM_CONF and its
        environment (job_environment)."""
        self.job_env = job_environment()
        job = subprocess.Popen([LOCAL_SLURM, "-n", str(tasks), "--", RIDGELINE, *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=self.job_env, cwd=self.dir.name)
        line = job.stderr.readline()
        self.assertIn("SLURM_CONF=", line)
        return job, line.strip().split("SLURM_CONF=", 1)[1]

    def wait_for_cases(self, rank, count):
        journal = os.path.join(self.dir.name, f"run.rank{rank}.jsonl")
        deadline = time.time() + 120
        while time.time() < deadline:
            if os.path.exists(journal):
                with open(journal) as f:
                    if sum(1 for line in f if line.endswith("}\n")) >= count:
                        return journal
            time.sleep(0.02)
        self.fail(f"rank {rank} finished no {count} results in 2 minutes")

    def test_two_tasks_give_one_run_from_both_ranks(self):
        r = self.srun(2, "run", *QUICK, "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("from 2 ranks on 1 host", r.stderr)
        with open(self.out) as f:
            run = json.load(f)
        ranks = run["context"]["ridgeline"]["ranks"]
        self.assertEqual([k["rank"] for k in ranks], [0, 1])
        self.assertEqual({k["outcome"] for k in ranks}, {"finished"})
        # srun binds no task here (task/none): each rank took its own CPU of the host's.
        self.assertEqual(len({tuple(k["cpus"]) for k in ranks}), 2, ranks)
        per_rank = {}
        for b in run["benchmarks"]:
            per_rank.setdefault(b["ridgeline"]["rank"], []).append(b["name"])
            self.assertEqual(b["ridgeline"]["validation"]["disposition"], "passed", b["name"])
        self.assertEqual(per_rank[0], per_rank[1])

    def test_the_network_probe_measures_between_the_tasks(self):
        net = os.path.join(self.dir.name, "network.json")
        r = self.srun(2, "probe", "--network", "--network-max-bytes", "65536", "-o", net)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        with open(net) as f:
            network = json.load(f)["network"]
        scopes = {(n["scope"], n["pattern"]) for n in network}
        for pattern in ("latency", "bandwidth", "allreduce"):
            self.assertIn(("intra-node", pattern), scopes)
        for n in network:
            self.assertGreater(n["bytes_per_s"], 0, n)

    def test_scancel_signal_int_stops_every_rank_and_the_merged_run_is_written(self):
        job, conf = self.start(2, "run", *SLOW, "-o", self.out)
        for rank in (0, 1):
            self.wait_for_cases(rank, 4)
        env = dict(ENV, SLURM_CONF=conf)
        step = subprocess.run(["squeue", "-h", "-s", "-o", "%i"], capture_output=True, text=True,
                              env=env, timeout=30).stdout.split()[0]
        subprocess.run(["scancel", "--signal=INT", step], check=True, env=env, timeout=30)
        _, err = job.communicate(timeout=120)
        self.assertEqual(job.returncode, 130, err)
        self.assertIn("read from the ranks' files (the job was stopped)", err)
        with open(self.out) as f:
            run = json.load(f)
        self.assertTrue(run["context"]["ridgeline"]["interrupted"])
        self.assertEqual({b["ridgeline"]["rank"] for b in run["benchmarks"]}, {0, 1})

    def test_a_task_that_dies_ends_the_step_and_each_journal_keeps_its_cases(self):
        job, _ = self.start(2, "run", *SLOW, "-o", self.out)
        journal = self.wait_for_cases(1, 4)
        os.kill(task_process(self.job_env, 1), signal.SIGKILL)
        _, err = job.communicate(timeout=120)
        # Slurm's PMIx plugin ends the step when a task dies: the others are killed, no
        # merged Run; what each rank finished is in its journal, which report reads.
        self.assertNotEqual(job.returncode, 0, err)
        self.assertIn("task 1: Killed", err)
        self.assertFalse(os.path.exists(self.out))
        with open(journal) as f:
            kept = [json.loads(line)["name"] for line in f if line.endswith("}\n")]
        self.assertGreaterEqual(len(kept), 4)
        md = os.path.join(self.dir.name, "rank1.md")
        r = subprocess.run([RIDGELINE, "report", journal, "-o", md], capture_output=True,
                           text=True, timeout=120, env=ENV)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(md) as f:
            self.assertIn(kept[0].split("/pattern=")[0], f.read())


    @unittest.skipIf(TWO_NODES is not None, TWO_NODES or "")
    def test_two_nodes_give_one_run_over_both_hosts(self):
        r = self.srun(2, "run", *QUICK, "-o", self.out, nodes=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("from 2 ranks on 2 hosts", r.stderr)
        assert_namespaces_removed(self, r.stderr)
        with open(self.out) as f:
            run = json.load(f)
        ranks = run["context"]["ridgeline"]["ranks"]
        self.assertEqual([(k["rank"], k["host"]) for k in ranks], [(0, "node-a"), (1, "node-b")])
        self.assertEqual({b["ridgeline"]["host"] for b in run["benchmarks"]}, {"node-a", "node-b"})

    @unittest.skipIf(TWO_NODES is not None, TWO_NODES or "")
    def test_the_network_probe_measures_between_two_nodes(self):
        net = os.path.join(self.dir.name, "network.json")
        r = self.srun(2, "probe", "--network", "--network-max-bytes", "4096", "-o", net, nodes=2)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        self.assertIn("on 2 hosts (Slurm's srun (PMIx))", r.stdout)
        with open(net) as f:
            network = json.load(f)["network"]
        scopes = {(n["scope"], n["pattern"]) for n in network}
        for pattern in ("latency", "bandwidth", "allreduce"):
            self.assertIn(("inter-node", pattern), scopes)


if __name__ == "__main__":
    unittest.main()
