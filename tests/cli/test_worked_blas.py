"""docs/adding-a-blas-provider.md's worked example: the smallest correct CBLAS library
(tests/fixtures/worked_example_cblas.c, built as libworkedblas.so) given with --blas-lib
joins the run as blas.workedblas — its GEMM rung validated in every layout and both types,
its threaded cases refused with the reason (it has no thread setter), and its two einsum
lowerings (the strided view and transpose-GEMM-transpose) validated too. Nothing built
into Ridgeline knows the library.

RIDGELINE names the binary and WORKED_CBLAS the library (CTest sets both).
"""
import json
import os
import tempfile
import unittest

from cli_support import remove_cache, ridgeline

LIBRARY = os.environ.get("WORKED_CBLAS", "")
QUICK = ["--repetitions", "1", "--min-time", "0.01", "--no-probe"]


def tearDownModule():
    remove_cache()


@unittest.skipUnless(LIBRARY, "WORKED_CBLAS is not set (CTest sets it)")
class WorkedBlasLibrary(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "run.json")

    def tearDown(self):
        self.dir.cleanup()

    def run_cases(self, *args):
        r = ridgeline("run", "--blas-lib", LIBRARY, *QUICK, *args, "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            rows = [b for b in json.load(f)["benchmarks"] if b["run_type"] == "iteration"]
        return {b["run_name"]: b["ridgeline"] for b in rows}

    def test_list_names_the_library_and_its_backend(self):
        r = ridgeline("list", "--blas-lib", LIBRARY)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("blas.workedblas", r.stdout)
        self.assertIn(LIBRARY, r.stdout)

    def test_its_gemm_is_validated_in_every_layout_and_type(self):
        cases = self.run_cases("--backend", "blas.workedblas", "--dtype", "f32,f64",
                               "--layout", "NN,NT,TN,TT", "--shape", "37x53x29", "--threads", "1")
        self.assertEqual(len(cases), 8, cases.keys())
        for name, case in cases.items():
            self.assertEqual(case["validation"]["disposition"], "passed", name)
            self.assertEqual(case["kernel"]["library"], LIBRARY, name)

    def test_without_a_thread_setter_its_threaded_cases_say_why(self):
        cases = self.run_cases("--backend", "blas.workedblas", "--dtype", "f64", "--shape", "32",
                               "--threads", "2")
        self.assertTrue(cases)
        for name, case in cases.items():
            self.assertEqual(case["validation"]["disposition"], "not_supported", name)
            self.assertIn("thread", case["validation"]["message"], name)

    def test_its_einsum_lowerings_are_validated(self):
        cases = self.run_cases("--suite", "einsum", "--backend",
                               "blas.workedblas,blas.workedblas.ttgt", "--threads", "1",
                               "--params", 'equation="bthr,bThr->bhtT"/extents="b=2,t=9,h=3,r=5,T=7"')
        self.assertEqual({c["backend"] for c in cases.values()},
                         {"blas.workedblas", "blas.workedblas.ttgt"})
        for name, case in cases.items():
            self.assertEqual(case["validation"]["disposition"], "passed", name)


if __name__ == "__main__":
    unittest.main()
