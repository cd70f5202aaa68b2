// A run read row by row into its cases places and compares exactly as the whole run does.
#include "ridgeline/analysis/run_cases.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {
namespace {

void expect_same_placements(const std::vector<RooflinePlacement>& a,
                            const std::vector<RooflinePlacement>& b, const std::string& file) {
  ASSERT_EQ(a.size(), b.size()) << file;
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(file + ": " + a[i].name);
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].placeable, b[i].placeable);
    EXPECT_EQ(a[i].reason, b[i].reason);
    EXPECT_EQ(a[i].seconds, b[i].seconds);
    EXPECT_EQ(a[i].achieved, b[i].achieved);
    EXPECT_EQ(a[i].repetitions.seconds, b[i].repetitions.seconds);
    EXPECT_EQ(a[i].noisy, b[i].noisy);
    EXPECT_EQ(a[i].cpu_share, b[i].cpu_share);
    EXPECT_EQ(a[i].notes, b[i].notes);
    EXPECT_EQ(a[i].disposition, b[i].disposition);
    EXPECT_EQ(a[i].complexity_fit, b[i].complexity_fit);
  }
}

TEST(RunCases, AFileReadRowByRowPlacesAsTheWholeRun) {
  // Ours with repetitions and a machine model; Google Benchmark's own rows, aggregates only,
  // and rate counters whose time base depends on the context read after the rows.
  for (const char* name :
       {"run-smoke-f64-zen4-vm.json", "run-fusion-small-zen5-vm.json", "gbench-foreign.json",
        "gbench-1.7.1-aggregates-only.json", "gbench-1.9.5-aggregates-only.json",
        "gbench-1.7.1-rates.json", "gbench-1.9.5-rates.json"}) {
    const std::string file = std::string(RIDGELINE_FIXTURES "/") + name;
    const ridgeline::Run run = read_run_file(file);
    const RunCases cases = read_run_cases(file);
    const MachineModel* machine = run.context.machine ? &*run.context.machine : nullptr;
    expect_same_placements(place_results(run, machine), place_cases(cases, machine), file);
    std::size_t rows = 0;
    for (const auto& c : cases.cases()) rows += c.chosen.has_value();
    EXPECT_LE(rows, run.benchmarks.size()) << file;
    EXPECT_GT(rows, 0u) << file;
  }
}

TEST(RunCases, TheMedianAggregateStandsForItsCaseWhereverItComes) {
  ridgeline::Run run;
  const auto row = [](const char* type, const char* aggregate, double t) {
    CaseResult r;
    r.name = r.run_name = "case";
    if (std::string(type) == "aggregate") r.name = std::string("case_") + aggregate;
    r.run_type = type;
    r.aggregate_name = aggregate;
    r.real_time = r.cpu_time = t;
    r.time_unit = "ns";
    return r;
  };
  run.benchmarks = {row("iteration", "", 10), row("aggregate", "mean", 11),
                    row("iteration", "", 12), row("aggregate", "median", 13),
                    row("aggregate", "stddev", 1)};
  const RunCases cases = run_cases(run);
  ASSERT_EQ(cases.cases().size(), 1u);
  const auto& c = cases.cases()[0];
  ASSERT_TRUE(c.chosen);
  EXPECT_EQ(c.chosen->aggregate_name, "median");
  EXPECT_EQ(c.foreign_rows.size(), 2u) << "the two iteration rows, kept for their time base";
  EXPECT_TRUE(c.seconds.empty()) << "no row of ours";
}

TEST(RunCases, PoolingRunsIsReadingTheirRowsOneAfterTheOther) {
  // compare --history's baseline: ours with a machine model, and Google Benchmark's rows
  // whose time base comes from the pooled run's context.
  for (const char* name : {"run-smoke-f64-zen4-vm.json", "gbench-1.9.5-rates.json"}) {
    const std::string file = std::string(RIDGELINE_FIXTURES "/") + name;
    const ridgeline::Run run = read_run_file(file);
    ridgeline::Run twice = run;
    twice.benchmarks.insert(twice.benchmarks.end(), run.benchmarks.begin(), run.benchmarks.end());
    RunCases pooled;
    pooled.context = run.context;
    pooled.pool(run_cases(run));
    pooled.pool(read_run_cases(file));
    const auto placed = place_cases(pooled, nullptr);
    expect_same_placements(place_results(twice, nullptr), placed, file);
    for (const auto& p : placed) {
      if (p.repetitions.seconds.empty()) continue;
      EXPECT_EQ(p.repetitions.seconds.size() % 2, 0u) << p.name << ": both runs' samples";
    }
  }
}

TEST(RunCases, ComparingCasesIsComparingTheRuns) {
  const std::string file = RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json";
  const ridgeline::Run run = read_run_file(file);
  const RunComparison whole = compare_runs(run, run, {});
  const RunComparison streamed = compare_runs(read_run_cases(file), read_run_cases(file), {});
  ASSERT_EQ(whole.cases.size(), streamed.cases.size());
  ASSERT_FALSE(whole.cases.empty());
  for (std::size_t i = 0; i < whole.cases.size(); ++i) {
    EXPECT_EQ(whole.cases[i].key, streamed.cases[i].key);
    EXPECT_EQ(whole.cases[i].base, streamed.cases[i].base);
    EXPECT_EQ(whole.cases[i].verdict, streamed.cases[i].verdict);
    EXPECT_EQ(whole.cases[i].reason, streamed.cases[i].reason);
  }
  EXPECT_EQ(whole.notes, streamed.notes);
}

TEST(RunCases, FilesReadSideBySideFailOnTheFirstBadOneInOrder) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("ridgeline_run_cases_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto write = [&](const char* name, const char* text) {
    std::ofstream(dir / name) << text;
    return dir / name;
  };
  const auto good = std::filesystem::path(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  const auto truncated = write("truncated.json", R"({"benchmarks": [)");
  const auto not_json = write("not.json", "x");
  const auto error_of = [](const std::vector<std::filesystem::path>& files) {
    try {
      read_run_cases(files);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  for (int i = 0; i < 5; ++i) {  // whichever thread finishes first
    EXPECT_EQ(error_of({good, not_json, truncated}).rfind(not_json.string(), 0), 0u);
    EXPECT_EQ(error_of({truncated, not_json}).rfind(truncated.string(), 0), 0u);
  }
  const auto both = read_run_cases({good, good, good});
  ASSERT_EQ(both.size(), 3u);
  EXPECT_EQ(both[0].cases().size(), read_run_cases(good).cases().size());
  EXPECT_EQ(both[2].cases().size(), both[0].cases().size());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ridgeline
