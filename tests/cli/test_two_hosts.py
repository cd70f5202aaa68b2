"""Two hosts on this one machine (issue #41): scripts/two-hosts makes two network namespaces
joined by a veth pair, each under its own host name, and Open MPI's launcher reaches the second
through scripts/netns-agent instead of ssh. Under it: the network probe measures inter-node
ceilings over the veth, `ridgeline run` merges two hosts' ranks, and `ridgeline fleet` compares
the two nodes.

Skipped, with the reason, without root, mpirun, MPI in the build (RIDGELINE_MPI_BUILT) or
network namespaces (a container without CAP_SYS_ADMIN).
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from cli_support import (ENV, RIDGELINE, assert_namespaces_removed, network_namespace_reason,
                         remove_cache, run_script)

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
TWO_HOSTS = os.path.join(SCRIPTS, "two-hosts")


def tearDownModule():
    remove_cache()


def why_not():
    if os.geteuid() != 0:
        return "needs root, to make network namespaces"
    if shutil.which("mpirun") is None:
        return "mpirun not found (openmpi-bin: scripts/install-deps)"
    if os.environ.get("RIDGELINE_MPI_BUILT") != "1":
        return "this build has no MPI (RIDGELINE_WITH_MPI, libopenmpi-dev)"
    return network_namespace_reason()


REASON = why_not()


@unittest.skipIf(REASON is not None, REASON or "")
class TwoHosts(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def two_hosts(self, *args, per_host=1):
        r = run_script([TWO_HOSTS, "-n", str(per_host), "--", RIDGELINE, *args], timeout=300,
                       env=ENV, cwd=self.dir.name)
        assert_namespaces_removed(self, r.stderr)
        return r

    def test_the_network_probe_measures_between_the_two_hosts(self):
        out = os.path.join(self.dir.name, "network.json")
        r = self.two_hosts("probe", "--network", "--network-max-bytes", "65536", "-o", out,
                           per_host=2)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        self.assertIn("network between 4 ranks on 2 hosts", r.stdout.lower())
        with open(out) as f:
            network = json.load(f)["network"]
        scopes = {(n["scope"], n["pattern"]) for n in network}
        for pattern in ("latency", "bandwidth", "bibw"):
            self.assertIn(("inter-node", pattern), scopes)
            self.assertIn(("intra-node", pattern), scopes)
        for pattern in ("allreduce", "allgather", "reduce_scatter", "alltoall"):
            self.assertIn(("inter-node", pattern), scopes)
        for n in network:
            self.assertGreater(n["bytes_per_s"], 0, n)
            self.assertEqual(n["source"], "timed")

    def test_each_host_is_probed_and_its_model_written(self):
        out = os.path.join(self.dir.name, "machine.json")
        r = self.two_hosts("probe", "--force", "--seconds", "0.01", "--trials", "1", "--no-check",
                           "-o", out, per_host=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("2 hosts probed, one rank each", r.stdout)
        self.assertEqual(len(re.findall(r"^  node-[ab] +\d+ cores  f64 ", r.stdout, re.M)), 2,
                         r.stdout)
        hosts = set()
        for name in ("machine.json", "machine.node-b.json"):
            with open(os.path.join(self.dir.name, name)) as f:
                model = json.load(f)
            self.assertTrue(model["compute"], name)
            hosts.add(model["host"])
        self.assertEqual(hosts, {"node-a", "node-b"})

    def test_a_run_on_two_hosts_is_one_run_and_fleet_compares_the_nodes(self):
        out = os.path.join(self.dir.name, "run.json")
        r = self.two_hosts("run", "--suite", "smoke", "--filter", "^gemm/cpu\\.naive/f32/",
                           "--repetitions", "3", "--min-time", "0.01", "--no-probe", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("from 2 ranks on 2 hosts", r.stderr)
        with open(out) as f:
            run = json.load(f)
        ranks = run["context"]["ridgeline"]["ranks"]
        self.assertEqual([(k["rank"], k["host"], k["node"]) for k in ranks],
                         [(0, "node-a", 0), (1, "node-b", 1)])
        self.assertEqual({(b["ridgeline"]["rank"], b["ridgeline"]["host"])
                          for b in run["benchmarks"]}, {(0, "node-a"), (1, "node-b")})
        junit = os.path.join(self.dir.name, "fleet.xml")
        r = subprocess.run([RIDGELINE, "fleet", out, "--junit", junit], capture_output=True,
                           text=True, timeout=60, env=ENV)
        self.assertIn(r.returncode, (0, 1), r.stderr)
        self.assertIn("fleet: 2 nodes, ", r.stdout)
        with open(junit) as f:
            self.assertEqual(sorted(re.findall(r'name="(node-[ab])"', f.read())),
                             ["node-a", "node-b"])


if __name__ == "__main__":
    unittest.main()
