"""End-to-end tests of the `ridgeline` command as a user runs it: bad input, collectors,
list and run. Each test runs the real command on this machine's kernels and BLAS libraries.
The probe and what builds on it are in test_probe_report_profile.py.
"""
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

from arch_facts import ARCH, EMULATED, LIBDIR, PACKED_BACKEND
from cli_support import ENV, RIDGELINE, remove_cache, ridgeline

LIBM = LIBDIR + "/libm.so.6"
REFBLAS = LIBDIR + "/blas/libblas.so.3"


def tearDownModule():
    remove_cache()


def check_google_benchmark_shape(test, doc):
    """The fields Google Benchmark's JSON readers (tools/compare.py, gbench.util) use."""
    test.assertIsInstance(doc["context"], dict)
    for key in ("date", "host_name", "num_cpus", "mhz_per_cpu", "caches", "library_build_type"):
        test.assertIn(key, doc["context"])
    test.assertEqual(doc["context"]["json_schema_version"], 1)
    test.assertIsInstance(doc["benchmarks"], list)
    for b in doc["benchmarks"]:
        test.assertIsInstance(b["name"], str)
        test.assertIn(b["run_type"], ("iteration", "aggregate"))
        test.assertIn(b["time_unit"], ("ns", "us", "ms", "s"))
        for key in ("real_time", "cpu_time"):
            test.assertIsInstance(b[key], (int, float))
        for key in ("family_index", "per_family_instance_index", "repetitions", "threads", "iterations"):
            test.assertIsInstance(b[key], int)
        if b["run_type"] == "aggregate":
            test.assertEqual(b["name"], b["run_name"] + "_" + b["aggregate_name"])
            test.assertIn(b["aggregate_unit"], ("time", "percentage"))
        else:
            test.assertIsInstance(b["repetition_index"], int)


class BadInput(unittest.TestCase):
    def assert_bad(self, args, *needles):
        r = ridgeline(*args)
        self.assertEqual(r.returncode, 2, f"{args}: rc={r.returncode} stderr={r.stderr}")
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"one line expected: {r.stderr!r}")
        for n in needles:
            self.assertIn(n, lines[0])
        self.assertEqual(r.stdout, "")

    def test_unknown_names(self):
        self.assert_bad(["run", "--suite", "nightly"], "unknown suite 'nightly'")
        self.assert_bad(["run", "--backend", "cpu.magic"], "unknown backend 'cpu.magic'")
        self.assert_bad(["run", "--dtype", "f8"], "unknown dtype 'f8'")
        self.assert_bad(["run", "--pattern", "ones"], "unknown pattern 'ones'")

    def test_every_problem_of_a_request_is_said_at_once(self):
        # make_plan checks the whole request: each problem named by its option, one line.
        for command in (["run"], ["profile", "-d", "never-made"]):
            self.assert_bad(command + ["--backend", "cpu.magic", "--dtype", "f8", "--shape", "0",
                                       "--min-time", "3y", "--collect", "bogus:x"],
                            "--backend: unknown backend 'cpu.magic'", "--dtype: unknown dtype 'f8'",
                            "--shape 0", "--min-time 3y", "--collect bogus:x")

    def test_bad_sizes(self):
        self.assert_bad(["run", "--shape", "0"], "--shape 0", "positive")
        self.assert_bad(["run", "--shape", "-3"], "--shape -3", "positive")
        self.assert_bad(["run", "--shape", "big"], "'big' is not a whole number")
        self.assert_bad(["run", "--shape", "1048576", "--backend", "cpu.naive"], "GiB for its operands")
        self.assert_bad(["run", "--repetitions", "0"], "--repetitions", "between 1 and 10000")
        self.assert_bad(["run", "--repetitions", "many"], "--repetitions")

    def test_unwritable_output_fails_before_running(self):
        self.assert_bad(["run", "--suite", "smoke", "-o", "/nonexistent-dir/run.json"],
                        "/nonexistent-dir/run.json", "does not exist")
        self.assert_bad(["run", "--suite", "smoke", "-o", "/tmp"], "-o /tmp: is a directory")

    def test_bad_regex(self):
        self.assert_bad(["run", "--filter", "gemm/(f32"], "invalid regular expression")

    def test_filter_matching_nothing(self):
        self.assert_bad(["run", "--filter", "^nothing$"], "no case matches")

    def test_blas_lib_errors_name_path_and_symbol(self):
        self.assert_bad(["run", "--blas-lib", "/nonexistent/libfoo.so"], "/nonexistent/libfoo.so: no such file")
        if os.path.exists(LIBM):
            self.assert_bad(["run", "--blas-lib", LIBM], LIBM, "missing symbol cblas_sgemm")

    def test_unknown_option_and_no_subcommand(self):
        self.assert_bad(["run", "--frobnicate"], "frobnicate")
        r = ridgeline()
        self.assertEqual(r.returncode, 2)

    def test_help_exits_zero(self):
        for sub in ([], ["run"], ["list"]):
            r = ridgeline(*sub, "--help")
            self.assertEqual(r.returncode, 0)
            self.assertIn("Usage", r.stdout)


class CollectorsCommand(unittest.TestCase):
    def test_each_collector_is_available_or_says_why(self):
        r = ridgeline("collectors", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        by = {c["name"]: c for c in json.loads(r.stdout)}
        self.assertTrue(by["timer"]["available"])
        events = {e["event"]: e for e in by["perf"]["events"]}
        task_clock = events["task-clock"]
        if EMULATED:  # qemu-user has no perf_event_open, and says so
            self.assertIn("(qemu-user) does not implement perf_event_open", task_clock["reason"])
        else:
            self.assertTrue(task_clock["available"], task_clock)
        cycles = events["cycles"]
        self.assertTrue(cycles["available"] or "perf_event_open for cycles returned" in cycles["reason"], cycles)
        self.assertTrue(by["rapl"]["available"] or by["rapl"]["reason"], by["rapl"])
        text = ridgeline("collectors")
        self.assertEqual(text.returncode, 0)
        self.assertIn("task-clock", text.stdout)

    def test_unknown_collector_or_event_is_bad_input(self):
        for arg, needle in (("frobnicator:x", "unknown collector 'frobnicator'"),
                            ("perf:frobs", "perf has no event 'frobs'"),
                            ("timer:x", "timer has no event 'x' (known: wall, cpu)"),
                            ("rapl:x", "rapl has no event 'x' (it takes no events)")):
            r = ridgeline("run", "--collect", arg, "--no-probe")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(needle, r.stderr)

    def test_run_records_counted_software_events(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "run.json")
            r = ridgeline("run", "--suite", "smoke", "--filter", "cpu.tiled/f64/m=64", "--no-probe",
                          "--collect", "perf:page-faults,perf:task-clock", "-o", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                doc = json.load(f)
            status = {c["name"]: c for c in doc["context"]["ridgeline"]["collectors"]}
            if not status["perf"]["available"]:
                self.skipTest(status["perf"]["reason"])
            first = doc["benchmarks"][0]["ridgeline"]["metrics"]
            names = {m["name"]: m for m in first}
            self.assertEqual(names["perf.task-clock"]["source"], "counted")
            self.assertGreater(names["perf.task-clock"]["value"], 0)
            self.assertIn("perf.page-faults", names)


class ValidateCommand(unittest.TestCase):
    def test_validate_checks_counters_and_later_runs_record_the_verdicts(self):
        r = ridgeline("collectors", "--validate", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        v = json.loads(r.stdout)
        checks = {c["item"]: c for c in v["checks"]}
        for item in ("perf:page-faults", "perf:instructions", "papi:PAPI_DP_OPS"):
            self.assertIn(item, checks)
        for c in v["checks"]:
            self.assertIn(c["verdict"], ("trusted", "untrusted", "skipped"))
            if c["verdict"] == "skipped":
                self.assertTrue(c["reason"], c)
        text = ridgeline("collectors", "--validate")
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertIn("known work", text.stdout)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "run.json")
            r = ridgeline("run", "--backend", "cpu.naive", "--shape", "64", "--dtype", "f64",
                          "--repetitions", "1", "--no-probe", "-o", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                status = {c["name"]: c for c in json.load(f)["context"]["ridgeline"]["collectors"]}
        if checks["perf:page-faults"]["verdict"] == "skipped":
            self.skipTest(checks["perf:page-faults"]["reason"])
        self.assertIn(status["perf"]["trust"], ("trusted", "untrusted"))
        self.assertIn("--validate", status["perf"]["validation"])


class CounterGroups(unittest.TestCase):
    def test_collectors_lists_the_groups_for_this_cpu(self):
        r = ridgeline("collectors")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"counter groups for \w+ .*SOFTWARE")

    def test_software_group_metrics_are_derived_from_counted_events(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "run.json")
            r = ridgeline("run", "--backend", "cpu.naive", "--shape", "64", "--dtype", "f64",
                          "--repetitions", "2", "--group", "SOFTWARE", "--no-probe", "-o", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                doc = json.load(f)
            status = {c["name"]: c for c in doc["context"]["ridgeline"]["collectors"]}
            self.assertIn("group:SOFTWARE", status)
            if not status["perf"]["available"]:
                self.assertFalse(status["group:SOFTWARE"]["available"])
                self.skipTest(status["perf"]["reason"])
            self.assertIn("SOFTWARE.txt", status["group:SOFTWARE"]["reason"])
            reps = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
            self.assertEqual(len(reps), 2)
            for b in reps:
                m = {x["name"]: x for x in b["ridgeline"]["metrics"]}
                self.assertEqual(m["cpu_utilisation"]["source"], "derived")
                # task-clock over the timed loop's wall time, as the group's formula says
                # (how much of a core the case got depends on the machine's load: not
                # asserted); one thread keeps at most about one core busy
                timed = m["time_per_iteration"]["value"] * b["iterations"]
                self.assertEqual(m["perf.task-clock"]["source"], "counted")
                self.assertAlmostEqual(m["cpu_utilisation"]["value"],
                                       m["perf.task-clock"]["value"] * 1e-9 / timed, delta=1e-6)
                self.assertGreater(m["cpu_utilisation"]["value"], 0)
                self.assertLess(m["cpu_utilisation"]["value"], 1.5)
                self.assertIn("faults_per_iteration", m)

    def test_unknown_group_is_bad_input_listing_the_groups(self):
        r = ridgeline("run", "--group", "NOPE", "--no-probe")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("counter group 'NOPE'", r.stderr)
        self.assertIn("SOFTWARE", r.stderr)
        # The CPU that was detected, the folders there are, where adding one is described.
        if ARCH == "aarch64":  # MIDR's implementer (by name where it has one) and part
            self.assertRegex(r.stderr, r"this CPU, (\w+|implementer 0x[0-9a-f]{2}) part 0x[0-9a-f]{3}")
        else:
            self.assertRegex(r.stderr, r"this CPU, \w+ family [0-9A-F]+h model [0-9A-F]{2}h")
        self.assertRegex(r.stderr, r"Folders in \S+: [^.]*generic[^.]*zen4")
        self.assertIn("docs/adding-a-collector.md#counter-groups", r.stderr)


class ListCommand(unittest.TestCase):
    def test_json_lists_kernels_blas_and_suites(self):
        r = ridgeline("list", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        backends = {k["backend"] for k in doc["kernels"]}
        for b in ("cpu.naive", "cpu.reordered", "cpu.tiled", PACKED_BACKEND, "cpu.eigen"):
            self.assertIn(b, backends)
        self.assertEqual({s["name"] for s in doc["suites"]},
                         {"smoke", "default", "ladder", "blas", "fusion", "gpu", "gpu-fusion", "gpu-patterns",
                          "einsum", "collectives", "patterns"})
        ops = {k["op"] for k in doc["kernels"]}
        self.assertTrue(
            {"gemm", "softmax", "layernorm", "rmsnorm", "eltwise_chain", "attention"} <= ops, ops)
        # Without a device the GPU block says why; GPU kernels are listed when built with CUDA.
        gpu = doc["gpu"]
        if not gpu["devices"]:
            self.assertTrue(gpu["reason"], gpu)
            for k in doc["kernels"]:
                if k["device"] == "gpu":
                    self.assertFalse(k["available"], k)
        if gpu["built"]:
            self.assertIn("cuda.cublas", backends)
            self.assertIn("cuda.wmma_128x128x32", backends)
        for lib in doc["blas"]:
            self.assertTrue(lib["loadable"], lib)
            self.assertIn("blas." + lib["name"], backends)
            # Its TTGT refuses the op's example (a product with nothing to permute) and runs
            # the einsums that need a permute: listed as available.
            ttgt = [k for k in doc["kernels"]
                    if k["backend"] == "blas." + lib["name"] + ".ttgt" and k["op"] == "einsum"]
            self.assertEqual([k["available"] for k in ttgt], [True], ttgt)

    def test_ops_with_their_params_and_the_kernels_roles(self):
        doc = json.loads(ridgeline("list", "--json").stdout)
        ops = {o["name"]: o for o in doc["ops"]}
        self.assertEqual(set(ops), {"gemm", "gemm_bias_act", "softmax", "layernorm", "rmsnorm",
                                    "eltwise_chain", "attention", "einsum", "allreduce",
                                    "tp_gemm", "callable"})
        # A caller's function (Python's measure): no params, and no kernel of the suites.
        self.assertEqual((ops["callable"]["dims"], ops["callable"]["attrs"]), ([], []))
        self.assertEqual(ops["callable"]["backends"], [])
        attention = ops["attention"]
        dims = {d["name"]: d for d in attention["dims"]}
        self.assertEqual(list(dims), ["batch", "heads", "seq", "head_dim"])
        self.assertEqual(dims["batch"]["default"], 1)
        self.assertIsNone(dims["seq"]["default"])
        self.assertEqual(attention["attrs"][0]["values"], ["0", "1"])
        self.assertIn("cpu.fused", ops["softmax"]["backends"])
        roles = {k["id"]: k["role"] for k in doc["kernels"]}
        self.assertEqual(roles["gemm.cpu.naive"], "ladder")
        self.assertEqual(roles["softmax.cpu.fused"], "fused")
        self.assertEqual(roles["softmax.cpu.unfused"], "unfused")
        self.assertEqual(roles["softmax.vendor.onednn"], "vendor")
        self.assertEqual(roles["gemm.cpu.eigen"], "vendor")

    def test_text_output(self):
        r = ridgeline("list")
        self.assertEqual(r.returncode, 0, r.stderr)
        for heading in ("Ops", "Kernels", "BLAS libraries", "GPU", "Suites"):
            self.assertIn(heading, r.stdout)
        # What --params takes, per op: a defaulted dim with its value, attributes with theirs.
        self.assertRegex(r.stdout, r"\n  attention +batch=1 heads seq head_dim causal=0\|1 ")
        self.assertRegex(r.stdout, r"\n  gemm_bias_act +m n k act=gelu_tanh\|relu ")
        self.assertRegex(r.stdout, r"\n  softmax.cpu.fused +fused ")


class RunCommand(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "run.json")

    def tearDown(self):
        self.dir.cleanup()

    def test_smoke_suite_writes_a_google_benchmark_compatible_run(self):
        r = ridgeline("run", "--suite", "smoke", "--no-probe", "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            doc = json.load(f)
        check_google_benchmark_shape(self, doc)
        self.assertEqual(doc["context"]["ridgeline"]["schema"], 3)
        cases = {b["run_name"]: b for b in doc["benchmarks"]}
        self.assertGreaterEqual(len(cases), 20)
        for name, b in cases.items():
            rl = b["ridgeline"]
            self.assertEqual(rl["validation"]["disposition"], "passed", name)
            self.assertEqual(name.split("/")[1], rl["backend"])
            # Schema 3: the kernel's own role and family, not a guess from its name.
            blas = rl["backend"].startswith("blas.")
            self.assertEqual(rl["role"], "vendor" if blas or rl["backend"] == "cpu.eigen" else "ladder",
                             name)
            self.assertEqual(rl["family"], "blas" if blas else "", name)
            self.assertEqual(rl["device"], "cpu", name)
            self.assertEqual(rl["work"]["flops"], 2 * rl["params"]["dims"]["m"] * rl["params"]["dims"]["n"] * rl["params"]["dims"]["k"])
            self.assertTrue(all(m["source"] in ("counted", "timed", "analytic", "derived", "sampled")
                                for m in rl["metrics"]))
            self.assertGreater(b["flops"], 0)
        self.assertTrue(any(n.startswith("gemm/blas.openblas/") for n in cases))
        # The live journal beside it holds the same results, one per line.
        with open(os.path.join(self.dir.name, "run.jsonl")) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual(len(lines), len(doc["benchmarks"]))
        self.assertIn("wrote " + self.out, r.stderr)

    def test_filter_repetitions_and_user_blas_lib(self):
        if not os.path.exists(REFBLAS):
            self.skipTest(REFBLAS + " not installed")
        r = ridgeline("run", "--blas-lib", REFBLAS, "--backend", "blas.blas,cpu.packed",
                      "--filter", "gemm/.*/f32/.*n=96.*", "--shape", "96", "--repetitions", "3",
                      "--min-time", "0.01", "--no-probe", "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            doc = json.load(f)
        names = {b["run_name"] for b in doc["benchmarks"]}
        self.assertEqual(len(names), 2, names)
        self.assertTrue(any("/blas.blas/f32/" in n for n in names))
        reps = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
        self.assertEqual(len(reps), 2 * 3)
        aggs = {b["aggregate_name"] for b in doc["benchmarks"] if b["run_type"] == "aggregate"}
        self.assertEqual(aggs, {"mean", "median", "stddev", "cv"})
        user = [b for b in doc["benchmarks"] if "/blas.blas/" in b["name"]][0]
        self.assertEqual(user["ridgeline"]["kernel"]["library"], REFBLAS)

    def test_google_benchmark_flags_work_as_aliases(self):
        r = ridgeline("run", "--suite", "smoke", r"--benchmark_filter=gemm/cpu\.tiled/f64/",
                      "--benchmark_repetitions=2", "--benchmark_min_time=0.01",
                      f"--benchmark_out={self.out}", "--no-probe")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            doc = json.load(f)
        names = {b["run_name"] for b in doc["benchmarks"]}
        self.assertEqual(len(names), 2, names)
        self.assertTrue(all("/cpu.tiled/f64/" in n for n in names))
        self.assertEqual(sum(b["run_type"] == "iteration" for b in doc["benchmarks"]), 4)

    def test_ctrl_c_keeps_what_finished(self):
        p = subprocess.Popen([RIDGELINE, "run", "--suite", "default", "--backend", "cpu.naive",
                              "--dtype", "f64", "--no-probe", "-o", self.out],
                             stderr=subprocess.PIPE, text=True, env=ENV)
        deadline = time.time() + 120
        journal = os.path.join(self.dir.name, "run.jsonl")
        while time.time() < deadline and not (os.path.exists(journal) and os.path.getsize(journal) > 0):
            time.sleep(0.1)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 130, err)
        with open(self.out) as f:
            doc = json.load(f)
        self.assertTrue(doc["context"]["ridgeline"]["interrupted"])
        self.assertGreaterEqual(len(doc["benchmarks"]), 1)
        self.assertTrue(all(b["ridgeline"]["validation"]["disposition"] == "passed" for b in doc["benchmarks"]))
        self.assertIn("interrupted", err)



if __name__ == "__main__":
    unittest.main()
