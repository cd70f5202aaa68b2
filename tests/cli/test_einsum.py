"""`ridgeline einsum EQUATION --dims ...` (issue #40): one contraction on every einsum lowering,
one table (time, rate, compulsory and added bytes, roof, bound, lead over the best), the
best lowering's lead over a framework's transpose-GEMM-transpose and the slowest, and the
line on what the notation hides; bad input is one line and exit 2 before anything runs.

RIDGELINE names the binary (CTest sets it).
"""
import json
import os
import tempfile
import unittest

from cli_support import remove_cache, ridgeline

QUICK = ["--threads", "1", "--repetitions", "1", "--min-time", "0.01", "--no-probe"]


def tearDownModule():
    remove_cache()


class Einsum(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "einsum.json")

    def tearDown(self):
        self.dir.cleanup()

    def einsum(self, equation, dims, *extra):
        return ridgeline("einsum", equation, "--dims", dims, "-o", self.out, *QUICK, *extra)

    def test_every_lowering_in_one_table_with_the_lead_and_what_the_notation_hides(self):
        r = self.einsum("bthr,bThr->bhtT", "b=2,t=16,h=3,r=8,T=12")
        self.assertEqual(r.returncode, 0, r.stderr)
        table = r.stdout
        for backend in ("cpu.strided", "cpu.ttgt", "cpu.loops"):
            self.assertIn(backend, table)
        self.assertIn("compulsory bytes", table)
        self.assertRegex(table, r"best (cpu|blas|vendor)\.[\w.]+: ")
        # TTGT permutes A and B (heads between sequence and head dimension), not C.
        self.assertIn("needs A permuted bthr -> bhtr, B permuted bThr -> bhrT", table)
        with open(self.out) as f:
            run = json.load(f)
        backends = {b["ridgeline"]["backend"] for b in run["benchmarks"] if b.get("ridgeline")}
        # Ours, Eigen, oneDNN, and each BLAS found here (its strided view and its TTGT).
        self.assertTrue({"cpu.strided", "cpu.ttgt", "cpu.loops", "vendor.onednn"} <= backends)
        self.assertTrue(all(b.startswith(("cpu.", "blas.", "vendor.")) for b in backends), backends)
        for b in run["benchmarks"]:
            if b.get("run_type") == "iteration" and b.get("ridgeline"):
                v = b["ridgeline"]["validation"]
                if b["ridgeline"]["backend"] == "cpu.eigen":
                    # Eigen's rank-2 contraction: A's batch index h lies inside it.
                    self.assertEqual(v["disposition"], "not_supported", b["name"])
                    self.assertIn("A (bthr) is not a dense matrix per batch", v["message"])
                elif "oneDNN is not built in" in v.get("message", ""):
                    self.assertEqual(v["disposition"], "not_supported", b["name"])
                else:
                    self.assertEqual(v["disposition"], "passed", b["name"])
                self.assertEqual(b["ridgeline"]["params"]["attrs"]["equation"], "bthr,bThr->bhtT")

    def test_an_index_summed_in_one_operand_runs_on_the_loop_nest_alone(self):
        r = self.einsum("ik,jk->i", "i=5,j=3,k=7")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("best cpu.loops", r.stdout)
        self.assertIn("'j' in B is summed within one operand only", r.stdout)
        # Two, one in each operand: each named with its operand.
        r = self.einsum("ij,jk->", "i=3,j=4,k=5")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("'i' in A, 'k' in B are each summed within its operand only", r.stdout)

    def test_three_operands_run_each_paths_steps_and_show_predicted_against_measured(self):
        r = self.einsum("ij,jk,kl->il", "i=200,j=10,k=200,l=10")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        self.assertIn("contraction paths, predicted (FLOPs, bytes, time at the roof) and measured", out)
        # Predicted: FLOPs and bytes (each step's operands and result once; no time at the roof
        # without a machine model), then measured (981 ns for both steps on the Zen 5 VM).
        self.assertRegex(out, r"optimal +80 kFLOP +32\.8 kB +1\.00× +— +[\d.]+ [nµm]?s +[\d.]+×  "
                              r"jk,kl->jl \(")
        self.assertRegex(out, r"left to right +1\.6 MFLOP +352 kB +20\.00× .*ij,jk->ik \(")
        # Whichever path won here, one line says so (or which step lost it), and one sets the
        # fastest against a framework's order written with TTGT at each step.
        self.assertRegex(out, r"the path with the fewest FLOPs \(optimal\) is the fastest|"
                              r"the optimal path ran [\d.]+× the left to right path")
        self.assertRegex(out, r"is [\d.]+× a framework's order written with "
                              r"transpose-GEMM-transpose at each step")
        # Every step ran as its own case, each with its table below.
        with open(self.out) as f:
            run = json.load(f)
        equations = {b["ridgeline"]["params"]["attrs"]["equation"]
                     for b in run["benchmarks"] if b.get("ridgeline")}
        self.assertEqual(equations, {"jk,kl->jl", "ij,jl->il", "ij,jk->ik", "ik,kl->il"})
        self.assertIn("ik,kl->il i=200,k=200,l=10 f32, 1 thread:", out)
        # The Run records the network, so its report measures the paths from the file alone.
        self.assertEqual(run["context"]["ridgeline"]["provenance"]["einsum_networks"],
                         [{"equation": "ij,jk,kl->il", "extents": "i=200,j=10,k=200,l=10"}])
        md = os.path.join(self.dir.name, "report.md")
        r = ridgeline("report", self.out, "-o", md)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(md) as f:
            report = f.read()
        self.assertIn("### ij,jk,kl-&gt;il i=200,j=10,k=200,l=10 f32, 1 thread: contraction paths",
                      report)
        self.assertRegex(report, r"\| left to right \| [\d.]+ [kMGT]FLOP \| 352 kB \| 20\.00× \|")

    def test_bad_input_is_one_line_and_exit_2_and_writes_nothing(self):
        for equation, dims, extra, says in [
            ("ii,jk->ik", "i=2,j=3,k=4", [], "appears twice"),
            ("ij,jk->ik", "i=2,j=3", [], "index 'k' has no extent"),
            ("ij,jk->ik", "i=2,j=0,k=3", [], "a positive integer"),
            ("ij,jk,kl->il", "i=2,j=3,k=4", [], "index 'l' has no extent"),
            ("ij,jj,kl->il", "i=2,j=3,k=4,l=5", [], "appears twice in operand 2"),
            ("ij,jk->ik", "i=2,j=3,k=4", ["--dtype", "bf16"], "f32 and f64"),
            ("ij,jk,kl->il", "i=2,j=3,k=4,l=5,z=3", [], "index 'z' is given an extent"),
            ("ij,jk->ik", "i=2,j=3,k=4", ["--repetitions", "0"], "between 1 and 10000"),
        ]:
            with self.subTest(equation=equation, dims=dims, extra=extra):
                r = self.einsum(equation, dims, *extra)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn(says, r.stderr)
                self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    unittest.main()
