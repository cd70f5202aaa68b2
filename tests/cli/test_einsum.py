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
        self.assertRegex(table, r"best (cpu|blas)\.\w+: ")
        # TTGT permutes A and B (heads between sequence and head dimension), not C.
        self.assertIn("needs A permuted bthr -> bhtr, B permuted bThr -> bhrT", table)
        with open(self.out) as f:
            run = json.load(f)
        backends = {b["ridgeline"]["backend"] for b in run["benchmarks"] if b.get("ridgeline")}
        # Ours, and each BLAS found here through the strided view.
        self.assertTrue({"cpu.strided", "cpu.ttgt", "cpu.loops"} <= backends, backends)
        self.assertTrue(all(b.startswith(("cpu.", "blas.")) for b in backends), backends)
        for b in run["benchmarks"]:
            if b.get("run_type") == "iteration" and b.get("ridgeline"):
                self.assertEqual(b["ridgeline"]["validation"]["disposition"], "passed", b["name"])
                self.assertEqual(b["ridgeline"]["params"]["attrs"]["equation"], "bthr,bThr->bhtT")

    def test_an_index_summed_in_one_operand_runs_on_the_loop_nest_alone(self):
        r = self.einsum("ik,jk->i", "i=5,j=3,k=7")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("best cpu.loops", r.stdout)
        self.assertIn("'j' is summed within one operand only", r.stdout)

    def test_three_operands_show_their_paths_predicted_and_how_to_measure_each_step(self):
        r = self.einsum("ij,jk,kl->il", "i=1000,j=10,k=1000,l=10")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("optimal        jk,kl->jl; ij,jl->il", r.stdout)
        self.assertIn("left to right  ij,jk->ik; ik,kl->il", r.stdout)
        self.assertIn("needs 100× fewer FLOPs than the order written", r.stdout)
        self.assertIn("ridgeline einsum 'jk,kl->jl' --dims j=10,k=1000,l=10", r.stdout)
        self.assertIn("No Run written", r.stdout)
        self.assertFalse(os.path.exists(self.out))

    def test_bad_input_is_one_line_and_exit_2_and_writes_nothing(self):
        for equation, dims, extra, says in [
            ("ii,jk->ik", "i=2,j=3,k=4", [], "appears twice"),
            ("ij,jk->ik", "i=2,j=3", [], "index 'k' has no extent"),
            ("ij,jk->ik", "i=2,j=0,k=3", [], "a positive integer"),
            ("ij,jk,kl->il", "i=2,j=3,k=4", [], "index 'l' has no extent"),
            ("ij,jj,kl->il", "i=2,j=3,k=4,l=5", [], "appears twice in the operand 2"),
            ("ij,jk->ik", "i=2,j=3,k=4", ["--dtype", "bf16"], "f32 and f64"),
        ]:
            with self.subTest(equation=equation, dims=dims, extra=extra):
                r = self.einsum(equation, dims, *extra)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn(says, r.stderr)
                self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    unittest.main()
