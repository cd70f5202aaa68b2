"""`mpirun -np N ridgeline run` (issue #41): every rank runs the plan on its share of the
host and writes its own Run and journal beside the one named (run.rank1.json and .jsonl);
rank 0 gathers them into the one Run named, whose results carry rank and host and whose
context names every rank with its host, CPUs, outcome and (on each host's first rank) the
host's machine model.

Skipped, with the reason, where mpirun is absent or the build has no MPI
(RIDGELINE_MPI_BUILT, set by CTest). RIDGELINE names the binary.
"""
import json
import os
import re
import signal
import subprocess
import time
import unittest

from cli_support import (ENV, MPIRUN, RIDGELINE, MpiJobTest, job_environment, launched_process,
                         remove_cache)

QUICK = ["--suite", "smoke", "--filter", "^gemm/cpu\\.naive/f32/", "--repetitions", "1",
         "--min-time", "0.01", "--no-probe"]


def tearDownModule():
    remove_cache()


def rank_process(job_env, rank):
    """The pid of the ridgeline process of MPI rank `rank` in the job started with `job_env`."""
    return launched_process(job_env, f"OMPI_COMM_WORLD_RANK={rank}".encode(),
                            lambda parent: parent != "ridgeline")


class UnderMpirun(MpiJobTest):
    def check_merged(self, ranks):
        r = self.mpirun(ranks, *QUICK, "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"from {ranks} ranks on 1 host", r.stderr)
        # Rank 0's progress alone: each case's line once, one closing line.
        self.assertEqual(len(re.findall(r"^\[1/\d+\] ", r.stderr, re.M)), 1, r.stderr)
        self.assertEqual(len(re.findall(r"^wrote \S*run\.rank\d+\.json", r.stderr, re.M)), 1,
                         r.stderr)
        with open(self.out) as f:
            run = json.load(f)
        context = run["context"]["ridgeline"]
        self.assertEqual([k["rank"] for k in context["ranks"]], list(range(ranks)))
        self.assertEqual({k["outcome"] for k in context["ranks"]}, {"finished"})
        self.assertEqual([k["local_rank"] for k in context["ranks"]], list(range(ranks)))
        host = context["ranks"][0]["host"]
        per_rank = {}
        for b in run["benchmarks"]:
            self.assertEqual(b["ridgeline"]["host"], host)
            per_rank.setdefault(b["ridgeline"]["rank"], []).append(b["name"])
            self.assertEqual(b["ridgeline"]["validation"]["disposition"], "passed", b["name"])
        # Every rank ran the whole plan, and its own files hold what the merged Run has of it.
        self.assertEqual(sorted(per_rank), list(range(ranks)))
        self.assertEqual(len({tuple(v) for v in per_rank.values()}), 1, per_rank)
        for rank in range(ranks):
            own = os.path.join(self.dir.name, f"run.rank{rank}.json")
            with open(own) as f:
                self.assertEqual([b["name"] for b in json.load(f)["benchmarks"]], per_rank[rank])
            self.assertTrue(os.path.exists(os.path.join(self.dir.name, f"run.rank{rank}.jsonl")))
        return context["ranks"]

    def test_two_ranks_give_one_run_and_each_has_its_own_cpu_of_the_two(self):
        ranks = self.check_merged(2)
        if os.cpu_count() == 2:
            self.assertEqual(sorted(c for k in ranks for c in k["cpus"]), [0, 1], ranks)
        # Each rank's own file says whose results it holds, as the merged Run does.
        host = ranks[0]["host"]
        for rank in range(2):
            with open(os.path.join(self.dir.name, f"run.rank{rank}.json")) as f:
                for b in json.load(f)["benchmarks"]:
                    self.assertEqual((b["ridgeline"]["rank"], b["ridgeline"]["host"]),
                                     (rank, host), b["name"])
        # fleet refuses a rank's part beside the merged Run holding it (it would count twice),
        # and the same file given twice; the parts alone compare as ranks.
        part = os.path.join(self.dir.name, "run.rank1.json")
        for files, said in (([self.out, part], "is rank 1's part of"),
                            ([self.out, self.out], "is given twice")):
            r = subprocess.run([RIDGELINE, "fleet", *files, "--by", "rank"], capture_output=True,
                               text=True, timeout=60, env=ENV)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn(said, r.stderr)
        r = subprocess.run([RIDGELINE, "fleet", part.replace("rank1", "rank0"), part, "--by",
                            "rank"], capture_output=True, text=True, timeout=60, env=ENV)
        self.assertIn("fleet: 2 ranks, ", r.stdout, r.stderr)

    def test_a_plan_shown_under_mpirun_is_shown_once_and_writes_nothing(self):
        with open(self.out, "w") as f:
            f.write("{}")  # a Run from before: neither replaced nor moved aside
        for flag in ("--dry-run", "--benchmark_list_tests"):
            r = self.mpirun(2, *QUICK, flag, "-o", self.out)
            self.assertEqual(r.returncode, 0, r.stderr)
            names = re.findall(r"gemm/cpu\.naive/f32/m=64,n=64,k=64\S*", r.stdout)
            self.assertEqual(len(names), 1, r.stdout)  # rank 0 alone shows the plan
            self.assertEqual(sorted(os.listdir(self.dir.name)), ["run.json"], flag)
        self.assertIn("each runs on its share of its host", r.stderr)

    def test_the_run_on_standard_output_is_the_merged_one(self):
        r = self.mpirun(2, *QUICK, "--benchmark_format", "json", "-o", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        printed = json.loads(r.stdout)
        self.assertEqual({b["ridgeline"]["rank"] for b in printed["benchmarks"]}, {0, 1})
        with open(self.out) as f:
            self.assertEqual(len(json.load(f)["benchmarks"]), len(printed["benchmarks"]))

    def test_bad_input_under_mpirun_is_said_once(self):
        r = self.mpirun(2, *QUICK, "-o", os.path.join(self.dir.name, "no", "such", "run.json"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(re.findall(r"^ridgeline: ", r.stderr, re.M)), 1, r.stderr)
        r = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2",
                            RIDGELINE, "run", "--no-such-flag"], capture_output=True, text=True,
                           timeout=60, env=ENV)
        self.assertEqual(len(re.findall(r"^ridgeline: ", r.stderr, re.M)), 1, r.stderr)

    def test_four_ranks_give_one_run_and_fleet_compares_its_ranks(self):
        self.check_merged(4)
        # One host: as nodes there is nothing to compare (one line, exit 2); as ranks, four
        # members, one testcase each (whether one is out of family is this VM's to say).
        r = subprocess.run([RIDGELINE, "fleet", self.out], capture_output=True, text=True,
                           timeout=60, env=ENV)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("fleet needs at least two nodes to compare, found 1", r.stderr)
        self.assertIn("--by rank", r.stderr)
        junit = os.path.join(self.dir.name, "fleet.xml")
        r = subprocess.run([RIDGELINE, "fleet", self.out, "--by", "rank", "--junit", junit],
                           capture_output=True, text=True, timeout=60, env=ENV)
        self.assertIn(r.returncode, (0, 1), r.stderr)
        self.assertIn("fleet: 4 ranks, ", r.stdout)
        with open(junit) as f:
            cases = re.findall(r'<testcase classname="ridgeline.fleet.rank" name="(rank \d)"', f.read())
        self.assertEqual(sorted(cases), [f"rank {i}" for i in range(4)])

    def test_a_report_reads_the_merged_run(self):
        self.check_merged(2)
        md = os.path.join(self.dir.name, "report.md")
        r = subprocess.run([RIDGELINE, "report", self.out, "-o", md], capture_output=True,
                           text=True, timeout=120, env=ENV)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(md) as f:
            self.assertIn("gemm/cpu.naive/f32/", f.read())

    def test_another_ranks_progress_is_its_failed_cases_alone_named_by_rank(self):
        # A case limit nothing meets: every case times out on every rank.
        r = self.mpirun(2, *QUICK, "--case-timeout", "0.001", "-o", self.out)
        self.assertNotEqual(r.returncode, 0, r.stderr)
        lines = re.findall(r"^rank 1 on \S+: gemm/cpu\.naive/f32/\S+  timed_out: ", r.stderr, re.M)
        self.assertEqual(len(lines), 2, r.stderr)  # QUICK's two cases
        self.assertEqual(len(re.findall(r"^\[1/2\] ", r.stderr, re.M)), 1, r.stderr)  # rank 0's

    def start_job(self, *args):
        """A job of two ranks running `args`, returned once rank 1 has finished a case."""
        job_env = job_environment()
        job = subprocess.Popen([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2",
                                RIDGELINE, "run", *args, "-o", self.out],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=job_env)
        journal = os.path.join(self.dir.name, "run.rank1.jsonl")
        deadline = time.time() + 120
        while time.time() < deadline and job.poll() is None:
            if os.path.exists(journal):
                with open(journal) as f:
                    if f.read().count("\n") >= 4:  # at least one whole case
                        break
            time.sleep(0.02)
        return job, job_env

    GEMM_LADDER = ["--suite", "smoke", "--filter", "^gemm/cpu\\.(naive|reordered|tiled)/",
                   "--repetitions", "3", "--min-time", "0.1", "--no-probe"]

    def test_a_rank_killed_mid_run_is_named_and_every_finished_case_is_kept(self):
        job, job_env = self.start_job(*self.GEMM_LADDER)
        journal = os.path.join(self.dir.name, "run.rank1.jsonl")
        os.kill(rank_process(job_env, 1), signal.SIGKILL)
        _, err = job.communicate(timeout=120)
        self.assertNotEqual(job.returncode, 0, err)
        with open(self.out) as f:
            run = json.load(f)
        ranks = run["context"]["ridgeline"]["ranks"]
        self.assertEqual(ranks[0]["outcome"], "interrupted", err)
        self.assertIn("ended before writing its Run (killed?)", ranks[1]["outcome"])
        self.assertIn("read from the ranks' files (the job was stopped)", err)
        self.assertTrue(run["context"]["ridgeline"]["interrupted"])
        # What rank 1's journal kept is in the merged Run, rank 0's whole cases too.
        with open(journal) as f:
            kept = [json.loads(line)["name"] for line in f if line.endswith("}\n")]
        merged = [b["name"] for b in run["benchmarks"] if b["ridgeline"]["rank"] == 1]
        self.assertGreaterEqual(len(merged), 4)
        self.assertEqual(merged, kept[:len(merged)])
        self.assertTrue(any(b["ridgeline"]["rank"] == 0 for b in run["benchmarks"]))

    def test_a_rank_held_between_cases_is_given_up_on_and_named(self):
        # Rank 1 stopped (SIGSTOP) outside any collective: rank 0 finishes its plan and waits
        # at the end for twice the case time limit and 10 s (16 s) without a word from rank 1,
        # then writes the merged Run with rank 1's journal and ends the job.
        job, job_env = self.start_job(*self.GEMM_LADDER, "--case-timeout", "3")
        held = rank_process(job_env, 1)
        os.kill(held, signal.SIGSTOP)
        try:
            _, err = job.communicate(timeout=120)
        finally:
            try:
                os.kill(held, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.assertNotEqual(job.returncode, 0, err)
        self.assertIn("ridgeline run: 1 rank silent: ending the job", err)
        with open(self.out) as f:
            run = json.load(f)
        ranks = run["context"]["ridgeline"]["ranks"]
        self.assertEqual(ranks[0]["outcome"], "finished", err)
        self.assertRegex(ranks[1]["outcome"],
                         r"^silent: no word from it \(one is due after every case\) for 16 s "
                         r"while rank 0 waited at the end \(616 s before its first\): hung "
                         r"outside a collective, so rank 0 ended the job; the \d+ results its "
                         r"journal kept")
        with open(os.path.join(self.dir.name, "run.rank1.jsonl")) as f:
            kept = [json.loads(line)["name"] for line in f if line.endswith("}\n")]
        merged = [b["name"] for b in run["benchmarks"] if b["ridgeline"]["rank"] == 1]
        self.assertGreaterEqual(len(merged), 4)
        self.assertEqual(merged, kept[:len(merged)])
        rank0 = [b["name"] for b in run["benchmarks"] if b["ridgeline"]["rank"] == 0]
        self.assertGreater(len(rank0), len(merged))  # rank 0's whole plan

    def start_collectives(self, repetitions, *extra):
        """A job of two ranks in the collectives suite (`repetitions` of at least 0.2 s each),
        returned once rank 1 has finished a case, so that the ranks are inside another."""
        job, job_env = self.start_job("--suite", "collectives", "--repetitions", str(repetitions),
                                      "--min-time", "0.2", "--no-probe", *extra)
        time.sleep(0.5)
        return job, job_env

    def merged_ranks(self):
        with open(self.out) as f:
            run = json.load(f)
        self.assertTrue(run["context"]["ridgeline"]["interrupted"])
        return run, run["context"]["ridgeline"]["ranks"]

    def test_a_rank_held_inside_a_collective_ends_the_job_at_the_case_time_limit(self):
        # Rank 1 stopped (SIGSTOP) mid-case: rank 0 waits inside the collective until the
        # case time limit, notes the case timed out, writes the merged Run and ends the job.
        # A case takes about a second (6 repetitions), well inside the 10 s limit unless held
        # (or the machine is loaded: with four such jobs at once on the 2-core VM, one
        # allreduce took more than 5 s).
        job, job_env = self.start_collectives(6, "--case-timeout", "10")
        os.kill(rank_process(job_env, 1), signal.SIGSTOP)
        _, err = job.communicate(timeout=120)
        self.assertNotEqual(job.returncode, 0, err)
        self.assertRegex(err, r"rank 0 on \S+: \S+ timed out inside the collective after 10 s: "
                              r"ending the job")
        self.assertIn("read from the ranks' files (the job was stopped)", err)
        run, ranks = self.merged_ranks()
        self.assertRegex(ranks[0]["outcome"], r"^ended the job: \S+ timed out inside the "
                                              r"collective: the \d+ results its journal kept")
        self.assertIn("ended before writing its Run", ranks[1]["outcome"])
        timed_out = [b for b in run["benchmarks"]
                     if b["ridgeline"]["validation"]["disposition"] == "timed_out"]
        self.assertEqual([b["ridgeline"]["rank"] for b in timed_out], [0], err)
        self.assertIn("another rank stopped answering",
                      timed_out[0]["ridgeline"]["validation"]["message"])
        # Every finished case of both ranks is kept.
        self.assertTrue(any(b["ridgeline"]["rank"] == 1 and
                            b["ridgeline"]["validation"]["disposition"] == "passed"
                            for b in run["benchmarks"]))

    def test_a_rank_killed_inside_a_collective_leaves_a_merged_run(self):
        # Rank 0, held inside the collective when the launcher's SIGTERM comes, cannot reach
        # the end of its plan: it writes the merged Run from the files before the SIGKILL.
        job, job_env = self.start_collectives(20)  # cases of seconds: the ranks are in one
        os.kill(rank_process(job_env, 1), signal.SIGKILL)
        _, err = job.communicate(timeout=120)
        self.assertNotEqual(job.returncode, 0, err)
        self.assertIn("read from the ranks' files (the job was stopped)", err)
        run, ranks = self.merged_ranks()
        self.assertRegex(ranks[0]["outcome"], r"^stopped inside the collective of \S+/mpi\.")
        self.assertIn("ended before writing its Run (killed?)", ranks[1]["outcome"])
        self.assertEqual({b["ridgeline"]["rank"] for b in run["benchmarks"]}, {0, 1})

    def test_probe_then_profile_under_mpirun(self):
        # One rank per host probes it (here: one host, a quick probe); rank 0 prints each
        # host against the hosts' median and writes the model. The profile then reads that
        # host's cached model, runs on every rank, and rank 0 writes the reports.
        machine = os.path.join(self.dir.name, "machine.json")
        r = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2",
                            RIDGELINE, "probe", "--force", "--seconds", "0.01", "--trials", "1",
                            "--no-check", "-o", machine], capture_output=True, text=True,
                           timeout=300, env=ENV)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 host probed, one rank each (Open MPI's mpirun)", r.stdout)
        self.assertRegex(r.stdout, r"\n  \S+ +\d+ cores  f64 [\d.]+ GFLOP/s \(\+0\.0%\)")
        with open(machine) as f:
            self.assertTrue(json.load(f)["compute"])
        profile = os.path.join(self.dir.name, "profile")
        r = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2",
                            RIDGELINE, "profile", "-d", profile, "--suite", "smoke", "--filter",
                            "^gemm/cpu\\.naive/f32/", "--repetitions", "1", "--min-time",
                            "0.01"], capture_output=True, text=True, timeout=300, env=ENV)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("from 2 ranks on 1 host", r.stderr)
        self.assertEqual(r.stdout.count("Report: "), 1, r.stdout)  # rank 0's
        # The paths printed and the report's own name the merged Run, not rank 0's part.
        self.assertIn("Run:    " + os.path.join(os.path.abspath(profile), "run.json"), r.stdout)
        self.assertNotIn("run.rank0.json", r.stdout)
        with open(os.path.join(profile, "report.md")) as f:
            self.assertNotIn("run.rank0.json", f.read())
        for name in ("run.json", "run.rank1.json", "report.html", "report.md", "report.csv"):
            self.assertTrue(os.path.exists(os.path.join(profile, name)), name)
        with open(os.path.join(profile, "run.json")) as f:
            run = json.load(f)
        self.assertEqual({b["ridgeline"]["rank"] for b in run["benchmarks"]}, {0, 1})
        self.assertIn("machine", run["context"]["ridgeline"])
        # Re-measuring each host is the probe's job: said in one line.
        r = subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", "2",
                            RIDGELINE, "profile", "-d", profile, "--force-probe"],
                           capture_output=True, text=True, timeout=120, env=ENV)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--force-probe under Open MPI's mpirun: re-measure each host first",
                      r.stderr)

    def test_a_run_to_standard_output_is_refused_in_one_line(self):
        r = self.mpirun(2, *QUICK, "-o", "-")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("each rank writes its own Run beside the one named; name a file", r.stderr)
        self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    unittest.main()
