// The cluster module's parts that need no MPI job: the launcher's variables, each rank's
// share of its host, and every rank's Run joined into one. Under mpirun: tests/cli/test_mpi.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#ifdef RIDGELINE_NCCL_BUILT
#include "nccl_library.hpp"
#endif
#include "ridgeline/cluster/host_share.hpp"
#include "ridgeline/cluster/network_probe.hpp"
#include "ridgeline/cluster/rank_runs.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/run_json.hpp"
#include "scratch_dir.hpp"

namespace ridgeline::cluster {
namespace {

std::vector<std::string> g_variables;  // the variables fake_environment has
char g_value[] = "4";
char* fake_environment(const char* name) {
  return std::find(g_variables.begin(), g_variables.end(), name) != g_variables.end() ? g_value
                                                                                      : nullptr;
}

TEST(MpiLauncher, EachLaunchersVariablesNameItAndNoneMeansNoLauncher) {
  const auto launcher = [](std::vector<std::string> variables) {
    g_variables = std::move(variables);
    return mpi_launcher(&fake_environment);
  };
  EXPECT_EQ(launcher({}), "");
  EXPECT_EQ(launcher({"OMPI_COMM_WORLD_SIZE", "PMIX_RANK"}), "Open MPI's mpirun");
  EXPECT_EQ(launcher({"PMIX_RANK"}), "PMIx");
  EXPECT_EQ(launcher({"PMIX_RANK", "SLURM_STEP_ID"}), "Slurm's srun (PMIx)");
  EXPECT_EQ(launcher({"PMI_SIZE"}), "PMI");
  EXPECT_EQ(launcher({"PMI_RANK", "SLURM_STEP_ID"}), "Slurm's srun (PMI-2)");
  // A batch script's own environment (sbatch, salloc) is no launcher until srun starts a step.
  EXPECT_EQ(launcher({"SLURM_STEP_ID"}), "");
  EXPECT_EQ(launcher({"OMPI_SOMETHING_ELSE"}), "");
}

TEST(HostShare, RanksGetContiguousBlocksAsEvenAsTheCountAllows) {
  const std::vector<int> cpus = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(host_share(cpus, 0, 1), cpus);
  EXPECT_EQ(host_share(cpus, 0, 2), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(host_share(cpus, 1, 2), (std::vector<int>{5, 6, 7, 8, 9}));
  // 10 over 4: 3, 3, 2, 2, every CPU once.
  std::vector<int> all;
  for (int r = 0; r < 4; ++r) {
    const std::vector<int> share = host_share(cpus, r, 4);
    EXPECT_EQ(share.size(), r < 2 ? 3u : 2u) << r;
    all.insert(all.end(), share.begin(), share.end());
  }
  EXPECT_EQ(all, cpus);
  // An allowed set with holes (a cgroup's CPUs) is split as it is.
  EXPECT_EQ(host_share({2, 5, 7, 11}, 1, 2), (std::vector<int>{7, 11}));
}

TEST(HostShare, MoreRanksThanCpusShareThemInTurn) {
  const std::vector<int> cpus = {0, 1};
  EXPECT_EQ(host_share(cpus, 0, 4), std::vector<int>{0});
  EXPECT_EQ(host_share(cpus, 1, 4), std::vector<int>{1});
  EXPECT_EQ(host_share(cpus, 2, 4), std::vector<int>{0});
  EXPECT_EQ(host_share(cpus, 3, 4), std::vector<int>{1});
}

class GpuTree : public ScratchDirTest {
 protected:
  GpuTree() : ScratchDirTest("ridgeline-gpus-") {}
};

// The driver's /proc tree (a fixture: one directory per GPU, named by its bus address), and
// each rank's share of the GPUs as of the CPUs: one each where ranks outnumber them.
TEST_F(GpuTree, TheHostsGpusAreCountedFromTheDriverAndSharedAmongItsRanks) {
  EXPECT_EQ(nvidia_gpus(dir_), 0);  // no driver
  for (const char* bus : {"0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0", "0000:5d:00.0"})
    std::filesystem::create_directories(dir_ / "proc/driver/nvidia/gpus" / bus);
  EXPECT_EQ(nvidia_gpus(dir_), 4);
  const std::vector<int> gpus{0, 1, 2, 3};
  EXPECT_EQ(host_share(gpus, 1, 4), std::vector<int>{1});       // one GPU per rank
  EXPECT_EQ(host_share(gpus, 1, 2), (std::vector<int>{2, 3}));  // two each
  EXPECT_EQ(host_share(gpus, 5, 8), std::vector<int>{1});       // ranks share them in turn
}

TEST(NetworkProbe, SizesRunFromOneByteToTheLargestByTheFactor) {
  NetworkProbeOptions o;
  const std::vector<std::int64_t> sizes = message_sizes(o);
  EXPECT_EQ(sizes.front(), 1);
  EXPECT_EQ(sizes.back(), std::int64_t{64} << 20);
  EXPECT_EQ(sizes.size(), 14u);  // 4^0 ... 4^13 = 64 MiB
  o.max_bytes = 1000;
  EXPECT_EQ(message_sizes(o), (std::vector<std::int64_t>{1, 4, 16, 64, 256, 1000}));
  o.min_bytes = o.max_bytes = 8;
  EXPECT_EQ(message_sizes(o), std::vector<std::int64_t>{8});
}

TEST(NetworkProbe, EachCollectiveSizeIsMeasuredOnce) {
  // 1 B, 4 B and 16 B on 2 ranks are 1, 1 and 2 f32 elements a rank: two sizes, not three.
  EXPECT_EQ(collective_parts({1, 4, 16, 64, 1000}, 2), (std::vector<std::int64_t>{1, 2, 8, 125}));
  EXPECT_EQ(collective_parts({1, 4, 16, 64}, 4), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(collective_parts({8}, 1), std::vector<std::int64_t>{2});
}

TEST(MpiLauncher, EachRankIsKnownFromItsLaunchersVariablesBeforeMpiStarts) {
  g_variables = {};
  EXPECT_EQ(launcher_rank(&fake_environment), 0);
  g_variables = {"OMPI_COMM_WORLD_RANK"};
  EXPECT_EQ(launcher_rank(&fake_environment), 4);  // fake_environment's value
  g_variables = {"SLURM_PROCID"};
  EXPECT_EQ(launcher_rank(&fake_environment), 4);
}

TEST(NetworkProbe, BusBandwidthIsNcclTestsFactorOfTheAlgorithmBandwidth) {
  EXPECT_DOUBLE_EQ(bus_factor("allreduce", 4), 1.5);  // 2 (n - 1) / n
  EXPECT_DOUBLE_EQ(bus_factor("allreduce", 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor("allgather", 4), 0.75);  // (n - 1) / n
  EXPECT_DOUBLE_EQ(bus_factor("reduce_scatter", 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor("alltoall", 2), 0.5);
  EXPECT_DOUBLE_EQ(bus_factor("latency", 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor("bibw", 2), 1.0);
}

TEST(NcclCeilings, TwoRanksOnOneGpuAreRefusedNamingTheRanksAndTheGpu) {
  EXPECT_EQ(
      shared_gpu_reason({"node-a 0000:18:00.0", "node-a 0000:2a:00.0", "node-b 0000:18:00.0"}),
      "");  // the same bus on two hosts is two GPUs
  EXPECT_EQ(
      shared_gpu_reason({"node-a 0000:18:00.0", "node-a 0000:2a:00.0", "node-a 0000:18:00.0"}),
      "ranks 0 and 2 share one GPU (node-a 0000:18:00.0), and NCCL runs one rank per GPU: "
      "start one rank per GPU (mpirun --map-by ppr:G:node with G the GPUs of a node)");
  EXPECT_EQ(shared_gpu_reason({}), "");
}

#ifdef RIDGELINE_NCCL_BUILT
TEST(NcclCeilings, EveryFunctionTheProbeCallsResolvesFromTheInstalledNccl) {
  const std::string why = nccl_reason();
  if (why.find("cannot open shared object file") != std::string::npos) GTEST_SKIP() << why;
  EXPECT_EQ(why, "");  // a missing function would be named here ("undefined symbol: ...")
  EXPECT_TRUE(std::regex_match(nccl_version(), std::regex(R"(2\.\d+\.\d+)"))) << nccl_version();
}

TEST(NcclCeilings, ALibraryWithoutNcclsFunctionsIsRefusedNamingTheFirstMissing) {
  NcclApi api;
  const Support s = load_nccl_api(api, "libc.so.6");
  EXPECT_FALSE(s);
  EXPECT_NE(s.reason.find("undefined symbol: ncclGetVersion"), std::string::npos) << s.reason;
  const Support none = load_nccl_api(api, "libnccl-not-here.so.2");
  EXPECT_NE(none.reason.find("libnccl-not-here.so.2: cannot open shared object file"),
            std::string::npos)
      << none.reason;
}
#else
TEST(NcclCeilings, WithoutNcclTheProbeSaysWhy) {
  EXPECT_NE(nccl_reason(), "");
  EXPECT_EQ(nccl_version(), "");
}
#endif

TEST(RankOutput, EachRanksRunGoesBesideTheMergedOne) {
  EXPECT_EQ(rank_output("run.json", 3), "run.rank3.json");
  EXPECT_EQ(rank_output("out/nightly.json", 0), "out/nightly.rank0.json");
  EXPECT_EQ(rank_output("results", 12), "results.rank12.json");
}

Run rank_run(const std::string& host, bool interrupted) {
  Run run;
  run.context.has_ridgeline = true;
  run.context.host_name = host;
  run.context.interrupted = interrupted;
  MachineModel m;
  m.fingerprint = host;
  m.cores = 2;
  run.context.machine = m;
  CaseResult r;
  r.name = r.run_name = "gemm/cpu.naive/f32/m=4,n=5,k=6/layout=NN/pattern=normal/threads=1";
  r.real_time = 1.0;
  r.iterations = 10;  // a timed row: a Run's reader refuses one timed over no iterations
  CaseDetails d;
  d.backend = "cpu.naive";
  d.problem = gemm_problem({4, 5, 6, 1}, Layout::NN, DType::f32, "normal");
  d.work = op_work(d.problem);
  d.validation.disposition = Disposition::passed;
  r.ridgeline = d;
  run.benchmarks = {r, r};
  return run;
}

RankPlace place(int rank, int ranks, int local_rank, int node, const std::string& host) {
  return {rank, ranks, local_rank, 2, node, 2, host};
}

TEST(MergeRankRuns, EveryResultCarriesItsRankAndHostAndEveryRankIsNamed) {
  std::vector<RankRun> parts = {
      {place(0, 4, 0, 0, "node-a"), {0, 1}, rank_run("node-a", false), "", {0}},
      {place(1, 4, 1, 0, "node-a"), {2, 3}, rank_run("node-a", false), ""},
      {place(2, 4, 0, 1, "node-b"), {0, 1}, rank_run("node-b", true), ""},
      {place(3, 4, 1, 1, "node-b"), {2, 3}, std::nullopt, "failed: out of memory"}};
  // Through the text each rank sends, as rank 0 receives it.
  std::vector<RankRun> received;
  for (std::size_t r = 0; r < parts.size(); ++r)
    received.push_back(decode_rank_run(encode_rank_run(parts[r]), static_cast<int>(r)));
  const ridgeline::Run merged = merge_rank_runs(received);

  for (const RankRun& r : received) EXPECT_EQ(r.failure, parts[r.place.rank].failure);
  ASSERT_EQ(merged.benchmarks.size(), 6u);  // two from each rank with a Run
  for (std::size_t i = 0; i < merged.benchmarks.size(); ++i) {
    const RankOrigin& o = *merged.benchmarks[i].ridgeline->origin;
    EXPECT_EQ(o.rank, static_cast<int>(i / 2));
    EXPECT_EQ(o.host, i < 4 ? "node-a" : "node-b");
  }
  ASSERT_EQ(merged.context.ranks.size(), 4u);
  EXPECT_EQ(merged.context.host_name, "node-a");  // rank 0's context
  EXPECT_TRUE(merged.context.interrupted);        // rank 2 was
  EXPECT_EQ(merged.context.ranks[0].outcome, "finished");
  EXPECT_EQ(merged.context.ranks[2].outcome, "interrupted");
  EXPECT_EQ(merged.context.ranks[3].outcome, "failed: out of memory");
  EXPECT_EQ(merged.context.ranks[3].cpus, (std::vector<int>{2, 3}));
  EXPECT_EQ(merged.context.ranks[0].gpus, std::vector<int>{0});  // through the text too
  EXPECT_TRUE(merged.context.ranks[1].gpus.empty());
  // Each host's model once, on its first rank.
  EXPECT_EQ(merged.context.ranks[0].machine->fingerprint, "node-a");
  EXPECT_FALSE(merged.context.ranks[1].machine);
  EXPECT_EQ(merged.context.ranks[2].machine->fingerprint, "node-b");
  EXPECT_EQ(merged.context.ranks[2].node, 1);
  // The merged Run is a Run: written and read back whole.
  EXPECT_EQ(run_from_json(to_json(merged), "merged"), merged);
}

TEST(MergeRankRuns, APartThatCannotBeReadNamesItsRankAndWhy) {
  const RankRun bad = decode_rank_run("{\"ranks\": 2, \"cut", 1);
  EXPECT_FALSE(bad.run);
  EXPECT_EQ(bad.place.rank, 1);
  EXPECT_NE(bad.failure.find("could not be read at rank 0"), std::string::npos) << bad.failure;
  const ridgeline::Run merged =
      merge_rank_runs({{place(0, 2, 0, 0, "a"), {0}, rank_run("a", false), ""}, bad});
  ASSERT_EQ(merged.context.ranks.size(), 2u);
  EXPECT_EQ(merged.context.ranks[1].outcome, bad.failure);
  EXPECT_EQ(merged.benchmarks.size(), 2u);
}

class RankFiles : public ScratchDirTest {
 protected:
  RankFiles() : ScratchDirTest("ridgeline_rank_files_") {}
};

TEST_F(RankFiles, AStoppedJobsRanksAreReadFromTheirRunTheirJournalOrNamedWithWhy) {
  const std::string merged = (dir_ / "run.json").string();
  EXPECT_EQ(rank_journal(merged, 2), (dir_ / "run.rank2.jsonl").string());
  write_run_file(rank_output(merged, 1), rank_run("node-a", true));
  {  // rank 2 was killed: its journal has one entry and half of the next
    std::ofstream journal(rank_journal(merged, 2));
    const ridgeline::Run run = rank_run("node-b", false);
    journal << to_json(run.benchmarks[0]).dump() << "\n"
            << to_json(run.benchmarks[1]).dump().substr(0, 40);
  }
  const RankRun one = rank_run_from_files(place(1, 4, 1, 0, "node-a"), {1}, merged);
  ASSERT_TRUE(one.run);
  EXPECT_EQ(one.failure, "");
  EXPECT_TRUE(one.run->context.interrupted);
  const RankRun two = rank_run_from_files(place(2, 4, 0, 1, "node-b"), {0}, merged);
  ASSERT_TRUE(two.run);
  EXPECT_EQ(two.run->benchmarks.size(), 1u);
  EXPECT_NE(two.failure.find("ended before writing its Run (killed?): the 1 results its journal"),
            std::string::npos)
      << two.failure;
  const RankRun three = rank_run_from_files(place(3, 4, 1, 1, "node-b"), {1}, merged);
  EXPECT_FALSE(three.run);
  EXPECT_NE(three.failure.find("neither its Run"), std::string::npos) << three.failure;

  const ridgeline::Run run = merge_rank_runs(
      {{place(0, 4, 0, 0, "node-a"), {0}, rank_run("node-a", true), ""}, one, two, three});
  EXPECT_EQ(run.benchmarks.size(), 2u + 2u + 1u);
  EXPECT_EQ(run.context.ranks[2].outcome, two.failure);
  EXPECT_EQ(run.context.ranks[3].outcome, three.failure);
  EXPECT_TRUE(run.context.interrupted);
}

TEST(RankWorld, ABuildWithoutMpiSaysWhyAndHowToTurnItOn) {
  if (mpi_off_reason().empty())
    GTEST_SKIP() << "this build has MPI (tests/cli/test_mpi.py runs it)";
  EXPECT_EQ(mpi_off_reason().rfind("this build has no MPI: ", 0), 0u) << mpi_off_reason();
  EXPECT_THROW(RankWorld{}, std::runtime_error);
}

}  // namespace
}  // namespace ridgeline::cluster
