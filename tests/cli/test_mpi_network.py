"""The network under `mpirun -np N` (issue #41): `probe --network`'s ceilings between the
ranks (MPI's between host buffers; NCCL's between GPUs, absent here with the reason), what
contradicts it refused, and the collective ops placed under the network's roof.

Skipped, with the reason, where mpirun is absent or the build has no MPI
(RIDGELINE_MPI_BUILT, set by CTest). RIDGELINE names the binary.
"""
import csv as csv_module
import json
import os
import re
import subprocess
import unittest

from cli_support import ENV, MPIRUN, RIDGELINE, MpiJobTest, remove_cache


def tearDownModule():
    remove_cache()


class NetworkUnderMpirun(MpiJobTest):
    def test_the_collective_ops_run_among_the_ranks_and_are_placed_under_the_network_roof(self):
        r = self.mpirun(4, "--suite", "collectives", "--repetitions", "1", "--min-time", "0.01",
                        "--no-probe", "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            run = json.load(f)
        cases = {}
        for b in run["benchmarks"]:
            d = b["ridgeline"]
            self.assertEqual(d["validation"]["disposition"], "passed", b["name"])
            self.assertEqual(d["params"]["dims"]["ranks"], 4)
            self.assertGreater(d["work"]["bytes"]["network"], 0)
            cases.setdefault(b["run_name"], set()).add(d["rank"])
            self.assertEqual(d["kernel"]["network_scope"], "intra-node")
        self.assertEqual(len(cases), 6, sorted(cases))
        self.assertEqual({frozenset(v) for v in cases.values()}, {frozenset(range(4))})
        # The tensor-parallel GEMM laps its two passes: the shard's product, the allreduce.
        tp = [b for b in run["benchmarks"] if b["ridgeline"]["backend"] == "mpi.tp_gemm"
              and b.get("run_type") == "iteration"]
        names = {m["name"] for b in tp for m in b["ridgeline"]["metrics"]}
        self.assertIn("pass_time.1.gemm", names)
        self.assertIn("pass_time.2.allreduce", names)
        # Placed under the network roof the same placement measured.
        net = os.path.join(self.dir.name, "net.json")
        p = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "4",
                            RIDGELINE, "probe", "--network", "--network-max-bytes", "65536",
                            "-o", net], capture_output=True, text=True, timeout=240, env=ENV)
        self.assertEqual(p.returncode, 0, p.stderr)
        csv = os.path.join(self.dir.name, "report.csv")
        r = subprocess.run([RIDGELINE, "report", self.out, "--machine", net, "-o", csv],
                           capture_output=True, text=True, timeout=120, env=ENV)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(csv) as f:
            rows = list(csv_module.DictReader(f))
        allreduce = [row for row in rows if row["op"] == "allreduce"]
        self.assertEqual(len(allreduce), 4)
        for row in allreduce:
            self.assertEqual(row["bound"], "network (intra-node)", row)

    def test_the_network_probe_measures_every_pattern_between_the_ranks(self):
        net = os.path.join(self.dir.name, "network.json")
        r = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "4",
                            RIDGELINE, "probe", "--network", "--network-max-bytes", "65536",
                            "-o", net], capture_output=True, text=True, timeout=240, env=ENV)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("network between 4 ranks on 1 host", r.stdout)
        with open(net) as f:
            model = json.load(f)
        points = model["network"]
        patterns = {(p["scope"], p["pattern"]) for p in points}
        self.assertEqual(patterns, {("intra-node", p) for p in (
            "latency", "bandwidth", "bibw", "allreduce", "allgather", "reduce_scatter",
            "alltoall")})
        self.assertIn("no inter-node point to point: every rank on rank 0's host",
                      model["network_reason"])
        # No GPU here: NCCL's ceilings between GPUs are missing with the first rank's reason,
        # and every point is MPI's, between host buffers.
        self.assertRegex(model["network_reason"], r"no GPU ceilings \(NCCL\): (rank 0: )?\S")
        self.assertIn("no GPU ceilings (NCCL)", r.stdout)
        for p in points:
            self.assertEqual(p["device"], "cpu", p)
            self.assertGreater(p["seconds"], 0, p)
            self.assertEqual(p["source"], "timed")
            self.assertAlmostEqual(p["bytes_per_s"] * p["seconds"],
                                   p["bytes"] * (2 if p["pattern"] == "bibw" else 1),
                                   delta=p["bytes"] * 1e-6 + 1e-9)
            factor = {"allreduce": 1.5, "allgather": 0.75, "reduce_scatter": 0.75,
                      "alltoall": 0.75}.get(p["pattern"], 1.0)
            self.assertAlmostEqual(p["bus_bytes_per_s"], p["bytes_per_s"] * factor,
                                   delta=p["bytes_per_s"] * 1e-9)
            self.assertEqual(p["ranks"], 2 if p["pattern"] in ("latency", "bandwidth", "bibw")
                             else 4)
        latency = sorted((p["bytes"], p) for p in points if p["pattern"] == "latency")
        self.assertEqual(latency[0][0], 1)
        self.assertEqual(latency[-1][0], 65536)

    def test_the_network_probe_refuses_what_contradicts_it(self):
        for args, said in ((["--network", "--only", "DRAM"], "--only excludes --network"),
                           (["--network", "--check"], "excludes"),
                           (["--network-max-bytes", "1024"], "requires --network"),
                           (["--network", "-o", "-"], "the network's model goes to a file")):
            r = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2",
                                RIDGELINE, "probe", *args], capture_output=True, text=True,
                               timeout=60, env=ENV)
            self.assertNotEqual(r.returncode, 0, args)
            self.assertEqual(len(re.findall(r"^ridgeline: ", r.stderr, re.M)), 1, r.stderr)
            self.assertIn(said, r.stderr)
        self.assertFalse(os.path.exists("-"))


class WithoutALauncher(unittest.TestCase):
    def test_the_network_probe_says_to_run_under_mpirun(self):
        r = subprocess.run([RIDGELINE, "probe", "--network"], capture_output=True, text=True,
                           timeout=60, env=ENV)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--network measures between MPI ranks: run it under a launcher", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


if __name__ == "__main__":
    unittest.main()
