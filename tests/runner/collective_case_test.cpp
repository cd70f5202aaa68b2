// The runner's side of a collective case (KernelInfo::ranks): its ranks run it together or
// not at all, and a rank that leaves it part-way cannot go on with the plan.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ridgeline/runner/runner.hpp"
#include "test_kernels.hpp"

namespace ridgeline {

namespace {
using testing::quick;
using testing::spec;
}  // namespace

// A collective's ranks time a case together or not at all (Kernel::all_ranks): a rank whose
// own result was right, in a job where another rank's was not (or another could not prepare),
// leaves the case untimed, says why, and is not itself counted as wrong.
TEST(ExecuteCase, ACollectiveRankLeavesTheCaseUntimedWhenAnotherRankFailed) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  for (const char* backend : {"test.other_rank_wrong", "test.other_rank_unprepared"}) {
    const std::vector<CaseResult> results = execute_case(catalog, spec(backend, 8), quick());
    ASSERT_EQ(results.size(), 1u) << backend;
    const CaseResult& r = results.front();
    EXPECT_EQ(r.ridgeline->validation.disposition, Disposition::skipped) << backend;
    EXPECT_NE(r.ridgeline->validation.message.find("on another rank of the job"), std::string::npos)
        << r.ridgeline->validation.message;
    EXPECT_EQ(r.iterations, 0) << backend;
  }
}

// A collective that throws at one rank after its ranks agreed to run it leaves the others
// inside a call: the rank cannot go on, so run_plan journals the crash and throws it on
// (the caller ends the job); the cases before it stay in the journal, none after it runs.
TEST(RunPlan, ACollectiveLeftPartWayIsJournaledAndStopsThePlan) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  for (const char* backend : {"test.collective_throws", "test.collective_throws_when_timed"}) {
    const std::filesystem::path journal =
        std::filesystem::path(::testing::TempDir()) / "collective_left.jsonl";
    std::filesystem::remove(journal);
    const std::vector<CaseSpec> plan{spec("cpu.naive", 8), spec(backend, 8), spec("cpu.naive", 9)};
    std::vector<std::string> finished;
    RunObserver observer;
    observer.case_finished = [&](std::size_t, std::size_t, const CaseSpec& c,
                                 const std::vector<CaseResult>&) { finished.push_back(c.name()); };
    std::string why;
    try {
      run_plan(catalog, plan, quick(), journal, observer);
    } catch (const CollectiveLeft& left) {
      why = left.result.ridgeline->validation.message;
      EXPECT_EQ(left.result.ridgeline->validation.disposition, Disposition::crashed);
      EXPECT_EQ(left.result.family_index, 1);
    }
    EXPECT_NE(why.find("part-way through a collective"), std::string::npos) << backend << why;
    EXPECT_NE(why.find(std::string(backend).find("timed") != std::string::npos
                           ? "threw while timed: cudaStreamSynchronize"
                           : "threw: the shard's buffer"),
              std::string::npos)
        << why;
    EXPECT_EQ(finished, (std::vector<std::string>{plan[0].name(), plan[1].name()})) << backend;
    std::ifstream in(journal);
    std::string line, text, last;
    while (std::getline(in, line)) {
      text += line + "\n";
      last = line;
    }
    EXPECT_NE(text.find(plan[0].name()), std::string::npos) << text;
    EXPECT_EQ(text.find(plan[2].name()), std::string::npos) << text;
    EXPECT_NE(last.find("part-way through a collective"), std::string::npos) << last;
  }
}

}  // namespace ridgeline
