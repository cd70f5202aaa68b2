// The jobs of `run`, `probe` and `probe --network` under a launcher, in the parts that need no
// MPI job: the watch that ends a rank held inside a collective, where another host's model
// goes, and what each job refuses before it starts MPI. The jobs themselves run under mpirun
// in tests/cli/test_mpi.py and test_mpi_network.py.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "ridgeline/cluster/collective_watch.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/cluster/ranked_network_probe.hpp"
#include "ridgeline/cluster/ranked_probe.hpp"
#include "ridgeline/cluster/ranked_run.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline::cluster {
namespace {

using namespace std::chrono_literals;

CaseSpec collective_case(const std::string& backend) {
  CaseSpec spec;
  spec.backend = backend;
  spec.problem = gemm_problem({4, 5, 6, 1}, Layout::NN, DType::f32, "normal");
  return spec;
}

// What the watch ended: the case and whether it timed out, once it has.
struct Ended {
  std::mutex mutex;
  std::condition_variable changed;
  std::optional<std::pair<std::string, bool>> call;
  int calls = 0;
  CollectiveWatch::EndRank recorder() {
    return [this](const CaseSpec& held_in, bool timed_out) {
      std::lock_guard lock(mutex);
      call = {held_in.name(), timed_out};
      ++calls;
      changed.notify_all();
    };
  }
  bool wait(std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, limit, [this] { return call.has_value(); });
  }
};

TEST(CollectiveWatch, ARankHeldPastTheCaseTimeLimitIsEndedOnceAsTimedOut) {
  std::atomic<bool> stopped{false};
  Ended ended;
  CollectiveWatch watch(0.2, stopped, ended.recorder());
  const auto start = std::chrono::steady_clock::now();
  watch.entered(collective_case("mpi.allreduce"));
  ASSERT_TRUE(ended.wait(5s)) << "a rank held past the limit was never ended";
  EXPECT_GE(std::chrono::steady_clock::now() - start, 200ms);
  EXPECT_EQ(ended.call->first, collective_case("mpi.allreduce").name());
  EXPECT_TRUE(ended.call->second);
  std::this_thread::sleep_for(300ms);  // the case is watched no further
  EXPECT_EQ(ended.calls, 1);
}

TEST(CollectiveWatch, ARankStillInsideACollectiveOnceTheJobIsStoppedIsEndedAsStopped) {
  std::atomic<bool> stopped{false};
  Ended ended;
  CollectiveWatch watch(600, stopped, ended.recorder());
  watch.entered(collective_case("mpi.tp_gemm"));
  std::this_thread::sleep_for(150ms);
  EXPECT_EQ(ended.calls, 0) << "ended before the limit and before any signal";
  stopped = true;
  ASSERT_TRUE(ended.wait(5s)) << "a rank held inside the call after the signal was never ended";
  EXPECT_EQ(ended.call->first, collective_case("mpi.tp_gemm").name());
  EXPECT_FALSE(ended.call->second);
}

TEST(CollectiveWatch, ACaseThatLeftInTimeOrNoCaseAtAllIsNeverEnded) {
  std::atomic<bool> stopped{false};
  Ended ended;
  {
    CollectiveWatch watch(0.2, stopped, ended.recorder());
    watch.entered(collective_case("mpi.allreduce"));
    std::this_thread::sleep_for(50ms);
    watch.left();
    stopped = true;  // a signal between cases is the plan's to read, not the watch's
    std::this_thread::sleep_for(400ms);
  }  // and the watch's thread ends with it
  EXPECT_EQ(ended.calls, 0);
}

TEST(HostModelFile, EachOtherHostsModelGoesBesideTheOneNamed) {
  EXPECT_EQ(host_model_file("machine.json", "node-b"), "machine.node-b.json");
  EXPECT_EQ(host_model_file("out/m.json", "gpu01.cluster"), "out/m.gpu01_cluster.json");
  EXPECT_EQ(host_model_file("model", "a/b c"), "model.a_b_c");
}

// Each job's refusal, said before MPI starts (so these run in any build): the build's own
// reason where it has no MPI, else the job's.
std::string refusal(const std::function<void()>& job) {
  try {
    job();
  } catch (const InputError& e) {
    return e.what();
  }
  return "nothing refused";
}

constexpr const char* kLauncher = "Open MPI's mpirun";

TEST(RankedRun, TheMergedRunOnAStreamIsRefusedNamingTheLauncher) {
  RunRequest request;
  std::atomic<bool> stopped{false};
  bool ran = false;
  RankedRun job;
  job.launcher = kLauncher;
  job.output = "-";
  job.request = &request;
  job.stopped = &stopped;
  job.run_plan = [&](const RankAssignment&, ridgeline::Run&) {
    ran = true;
    return 0;
  };
  job.say = [](const std::string&) {};
  const std::string why = refusal([&] { run_ranked(job); });
  if (!mpi_off_reason().empty())
    EXPECT_EQ(why, fmt::format("started by {}, but {}: each process would run alone and write the "
                               "same files",
                               kLauncher, mpi_off_reason()));
  else
    EXPECT_EQ(why, fmt::format("-o -: under {} each rank writes its own Run beside the one named; "
                               "name a file",
                               kLauncher));
  job.output = "/dev/stdout";
  EXPECT_NE(refusal([&] { run_ranked(job); }), "nothing refused");
  EXPECT_FALSE(ran);
}

TEST(RankedNetworkProbe, WithoutALauncherOrToAStreamItIsRefused) {
  const auto say = [](const std::string&) {};
  EXPECT_EQ(refusal([&] {
              measure_job_network("", "network.json", 1024, say);
            }).rfind("--network measures between MPI ranks: run it under a launcher", 0),
            0u);
  const std::string why = refusal([&] { measure_job_network(kLauncher, "-", 1024, say); });
  if (!mpi_off_reason().empty())
    EXPECT_EQ(why, fmt::format("started by {}, but {}", kLauncher, mpi_off_reason()));
  else
    EXPECT_EQ(why, fmt::format("-o -: under {} the network's model goes to a file (the table to "
                               "standard output); name one",
                               kLauncher));
}

TEST(RankedProbe, AnOutputThatCannotBeWrittenIsRefusedBeforeAnythingIsMeasured) {
  int lines = 0;
  const std::string why = refusal([&] {
    probe_every_host(kLauncher, "/nonexistent-ridgeline-dir/machine.json", false, {},
                     [&](const std::string&) { ++lines; });
  });
  if (!mpi_off_reason().empty())
    EXPECT_EQ(why, fmt::format("started by {}, but {}: each process would probe its host at once",
                               kLauncher, mpi_off_reason()));
  else
    EXPECT_NE(why.find("/nonexistent-ridgeline-dir"), std::string::npos) << why;
  EXPECT_EQ(lines, 0);
}

}  // namespace
}  // namespace ridgeline::cluster
