"""A BLAS library's bf16 and int8 GEMMs, found by name (issue #63): `list` says which entry
points each library has or lacks, a run in a dtype a library lacks says which symbols, and
MKL (scripts/install-deps --mkl) runs f32, bf16 and int8 in every layout on one and two
threads, validated, on GNU OpenMP.

RIDGELINE names the binary, RIDGELINE_SOURCE_DIR the source tree (CTest sets both).
"""
import json
import os
import re
import tempfile
import unittest

from cli_support import remove_cache, ridgeline

SOURCE_DIR = os.environ.get("RIDGELINE_SOURCE_DIR", "")
BF16_MISSING = "no bf16 GEMM: {} exports neither cblas_gemm_bf16bf16f32 nor cblas_sbgemm"
I8_MISSING = "no int8 GEMM: {} exports no cblas_gemm_s8u8s32"


def tearDownModule():
    remove_cache()


def listed():
    r = ridgeline("list", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def mkl_place():
    """Where scripts/install-deps --mkl puts libmkl_rt.so.2."""
    with open(os.path.join(SOURCE_DIR, "scripts", "install-deps")) as f:
        venv = re.search(r"^venv=(\S+)$", f.read(), re.M).group(1)
    return venv + "/lib/libmkl_rt.so.2"


class BlasDtypes(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "run.json")

    def tearDown(self):
        self.dir.cleanup()

    def run_cases(self, *args):
        r = ridgeline("run", *args, "--repetitions", "1", "--min-time", "0.01", "--no-probe",
                      "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            return [b for b in json.load(f)["benchmarks"] if b["run_type"] == "iteration"]

    def test_list_says_which_bf16_and_int8_gemms_each_library_has(self):
        doc = listed()
        dtypes = {k["backend"]: k["dtypes"] for k in doc["kernels"] if k["op"] == "gemm"}
        text = ridgeline("list").stdout
        for lib in doc["blas"]:
            if not lib["loadable"]:
                continue
            file = os.path.basename(lib["path"])
            for key, dtype, missing in (("bf16_gemm", "bf16", BF16_MISSING),
                                        ("i8_gemm", "i8", I8_MISSING)):
                found = lib[key]
                self.assertEqual(dtype in dtypes["blas." + lib["name"]], bool(found), lib)
                self.assertIn(f"{'bf16' if dtype == 'bf16' else 'int8'} GEMM: {found}" if found
                              else missing.format(file), text)

    def test_a_bf16_or_int8_case_on_a_library_without_one_names_the_symbols(self):
        libs = [lib for lib in listed()["blas"] if lib["loadable"] and not lib["bf16_gemm"]
                and not lib["i8_gemm"]]
        if not libs:
            self.skipTest("every BLAS library here has a bf16 and an int8 GEMM")
        lib = libs[0]
        backend = "blas." + lib["name"]
        file = os.path.basename(lib["path"])
        cases = self.run_cases("--backend", backend, "--dtype", "bf16,i8", "--shape", "64",
                               "--threads", "1")
        reasons = {b["ridgeline"]["dtype"]: b["ridgeline"]["validation"]["message"] for b in cases}
        self.assertEqual(reasons, {"bf16": f"gemm.{backend}: " + BF16_MISSING.format(file),
                                   "i8": f"gemm.{backend}: " + I8_MISSING.format(file)})
        for b in cases:
            self.assertEqual(b["ridgeline"]["validation"]["disposition"], "not_supported")

    def test_the_installer_puts_mkl_where_discovery_looks(self):
        if not SOURCE_DIR:
            self.skipTest("RIDGELINE_SOURCE_DIR is not set (CTest sets it)")
        with open(os.path.join(SOURCE_DIR, "kernels", "include", "ridgeline", "kernels",
                               "blas_provider.hpp")) as f:
            self.assertIn(f'kProjectMklPath = "{mkl_place()}"', f.read())

    def test_mkl_runs_f32_bf16_and_int8_in_every_layout_on_gnu_openmp(self):
        if not SOURCE_DIR:
            self.skipTest("RIDGELINE_SOURCE_DIR is not set (CTest sets it)")
        place = mkl_place()
        if not os.path.exists(place):
            self.skipTest(f"MKL is not installed: {place} missing; scripts/install-deps --mkl "
                          "installs it")
        mkl = [lib for lib in listed()["blas"] if lib["name"] == "mkl"]
        self.assertEqual([(m["path"], m["loadable"]) for m in mkl], [(place, True)], mkl)
        self.assertEqual((mkl[0]["bf16_gemm"], mkl[0]["i8_gemm"]),
                         ("cblas_gemm_bf16bf16f32", "cblas_gemm_s8u8s32"))
        cases = self.run_cases("--backend", "blas.mkl", "--dtype", "f32,f64,bf16,i8", "--layout",
                               "NN,NT,TN,TT", "--shape", "67x45x131", "--threads", "1,2")
        self.assertEqual(len(cases), 4 * 4 * 2)
        for b in cases:
            rl = b["ridgeline"]
            self.assertEqual(rl["validation"]["disposition"], "passed", b["name"])
            notes = rl["kernel"]
            self.assertEqual(notes["thread_setter"], "MKL_Set_Num_Threads")
            self.assertIn("MKL_THREADING_GNU", notes["threading"])
            self.assertTrue(notes["kernels"], notes)  # the instructions MKL dispatches to
            if rl["dtype"] == "i8":
                self.assertEqual(notes["entry_point"], "cblas_gemm_s8u8s32")
                self.assertIn("in every call, timed", notes["conversion"])
            if rl["dtype"] == "bf16":
                self.assertEqual(notes["entry_point"], "cblas_gemm_bf16bf16f32")


if __name__ == "__main__":
    unittest.main()
