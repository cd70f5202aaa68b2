#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/runner/runner.hpp"
#include "test_kernels.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

namespace {

using testing::quick;
using testing::spec;

// The first result recorded for each case, in plan order.
std::vector<const CaseResult*> first_per_case(const Run& run) {
  std::vector<const CaseResult*> out;
  std::string last;
  for (const auto& r : run.benchmarks)
    if (r.run_name != last) {
      out.push_back(&r);
      last = r.run_name;
    }
  return out;
}

Disposition disposition(const CaseResult* r) {
  return r->ridgeline->validation.disposition;
}

}  // namespace

TEST(RunPlan, RecordsEachFailureAndKeepsTheCasesAround_it) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  const std::vector<CaseSpec> plan{spec("cpu.naive", 8),      spec("test.segfault", 8),
                                   spec("cpu.naive", 9),      spec("test.abort", 8),
                                   spec("test.hang", 8),      spec("test.wrong", 8),
                                   spec("test.unwritten", 8), spec("cpu.naive", 10)};
  fs::path journal =
      fs::temp_directory_path() / ("ridgeline_journal_" + std::to_string(::getpid()) + ".jsonl");
  fs::remove(journal);
  ridgeline::Run run = run_plan(catalog, plan, quick(), journal, {});

  auto cases = first_per_case(run);
  ASSERT_EQ(cases.size(), plan.size());
  EXPECT_EQ(disposition(cases[0]), Disposition::passed);
  EXPECT_EQ(disposition(cases[1]), Disposition::crashed);
  EXPECT_NE(cases[1]->error_message.find("SIGSEGV"), std::string::npos) << cases[1]->error_message;
  EXPECT_EQ(disposition(cases[2]), Disposition::passed);
  EXPECT_EQ(disposition(cases[3]), Disposition::crashed);
  EXPECT_NE(cases[3]->error_message.find("SIGABRT"), std::string::npos) << cases[3]->error_message;
  EXPECT_EQ(disposition(cases[4]), Disposition::timed_out);
  EXPECT_EQ(disposition(cases[5]), Disposition::incorrect);
  EXPECT_NE(cases[5]->ridgeline->validation.message.find("C[0,0]"), std::string::npos);
  EXPECT_EQ(cases[5]->iterations, 0) << "an incorrect kernel is not timed";
  EXPECT_EQ(disposition(cases[6]), Disposition::incorrect);
  EXPECT_EQ(disposition(cases[7]), Disposition::passed);
  EXPECT_TRUE(cases[7]->error_occurred == false && cases[7]->iterations > 0);
  EXPECT_FALSE(run.context.interrupted);

  // Passed cases carry one result per repetition plus Google Benchmark's aggregates.
  int naive10 = 0;
  for (const auto& r : run.benchmarks)
    if (r.run_name == plan[7].name()) ++naive10;
  EXPECT_EQ(naive10, 2 + 4);

  // The journal holds every result, one JSON document per line, in order.
  std::ifstream in(journal);
  std::string line;
  std::size_t lines = 0;
  while (std::getline(in, line)) {
    CaseResult r = case_result_from_json(nlohmann::json::parse(line), journal.string(), "line");
    ASSERT_LT(lines, run.benchmarks.size());
    EXPECT_EQ(r, run.benchmarks[lines]);
    ++lines;
  }
  EXPECT_EQ(lines, run.benchmarks.size());
  fs::remove(journal);
}

TEST(ExecuteCase, AFaultWhileTimedIsRecordedWithItsReason) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  const std::vector<CaseResult> results =
      execute_case(catalog, spec("test.throws_when_timed", 8), quick());
  ASSERT_FALSE(results.empty());
  EXPECT_EQ(results.front().ridgeline->validation.disposition, Disposition::passed);
  bool recorded = false;
  for (const auto& r : results)
    recorded = recorded || (r.error_occurred &&
                            r.error_message.find("threw while timed: cudaStreamSynchronize") !=
                                std::string::npos);
  EXPECT_TRUE(recorded) << results.front().error_message;
}

TEST(RunPlan, InterruptKeepsWhatFinished) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  const std::vector<CaseSpec> plan{spec("cpu.naive", 8), spec("test.hang", 8),
                                   spec("cpu.naive", 9)};
  RunSettings settings = quick();
  settings.case_timeout_s = 60;
  std::atomic<bool> interrupted{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    interrupted = true;
  });
  auto start = std::chrono::steady_clock::now();
  ridgeline::Run run = run_plan(catalog, plan, settings, std::nullopt, {}, &interrupted);
  stopper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_TRUE(run.context.interrupted);
  auto cases = first_per_case(run);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0]->run_name, plan[0].name());
}

TEST(RunPlan, UnsupportedCaseIsRecordedNotRun) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  CaseSpec c = spec("cpu.naive", 8);
  c.threads = 2;
  ridgeline::Run run = run_plan(catalog, {c}, quick(), std::nullopt, {});
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_EQ(disposition(&run.benchmarks[0]), Disposition::not_supported);
  EXPECT_TRUE(run.benchmarks[0].error_occurred);
  EXPECT_EQ(run.benchmarks[0].time_unit, "ns") << "the unit it has when it runs: compare.py";
}

TEST(RunPlan, ResultsCarryWorkMetricsWithSources) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  ridgeline::Run run = run_plan(catalog, {spec("cpu.tiled", 16)}, quick(), std::nullopt, {});
  ASSERT_FALSE(run.benchmarks.empty());
  const CaseResult& r = run.benchmarks[0];
  ASSERT_TRUE(r.ridgeline);
  EXPECT_DOUBLE_EQ(r.ridgeline->work.flops, 2.0 * 16 * 16 * 16);
  std::map<std::string, MetricSource> sources;
  for (const auto& m : r.ridgeline->metrics) sources[m.name] = m.source;
  EXPECT_EQ(sources.at("flops"), MetricSource::analytic);
  EXPECT_EQ(sources.at("time_per_iteration"), MetricSource::timed);
  EXPECT_EQ(sources.at("flop_rate"), MetricSource::derived);
  EXPECT_EQ(sources.at("wall_time"), MetricSource::timed);
  EXPECT_GT(r.counters.at("flops"), 0);
  EXPECT_TRUE(run.context.has_ridgeline);
  EXPECT_FALSE(run.context.collectors.empty());
}

// cache=cold: the operands flushed before each timed call, the flush untimed; the result
// says so, passes validation and keeps every repetition's time.
TEST(ExecuteCase, AColdCaseRecordsItsCacheStateAndTimesOnlyTheCall) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  CaseSpec cold = spec("cpu.tiled", 64);
  cold.cache = CacheState::cold;
  ridgeline::Run run = run_plan(catalog, {cold}, quick(), std::nullopt, {});
  ASSERT_FALSE(run.benchmarks.empty());
  const CaseResult& r = run.benchmarks[0];
  ASSERT_TRUE(r.ridgeline);
  EXPECT_EQ(r.run_name, cold.name());
  EXPECT_EQ(r.ridgeline->cache, CacheState::cold);
  EXPECT_EQ(r.ridgeline->validation.disposition, Disposition::passed);
  EXPECT_NE(r.ridgeline->kernel_notes.at("cache").find("flushed"), std::string::npos);
  EXPECT_GT(r.real_time, 0);
  const ridgeline::Run warm = run_plan(catalog, {spec("cpu.tiled", 64)}, quick(), std::nullopt, {});
  EXPECT_EQ(warm.benchmarks[0].ridgeline->cache, CacheState::warm);
  EXPECT_FALSE(warm.benchmarks[0].ridgeline->kernel_notes.count("cache"));
}

TEST(ExecuteCase, AggregatesAreGoogleBenchmarksAndTheUnitIsTheCases) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  RunSettings settings = quick();
  settings.repetitions = 3;
  const CaseSpec c = spec("cpu.naive", 16);
  const std::vector<CaseResult> results = execute_case(catalog, c, settings);
  const std::string unit = time_unit_for(op_work(c.problem), Device::cpu);
  EXPECT_EQ(unit, "ns") << "8192 FLOP: microseconds would print as 0 in compare.py";
  std::vector<double> times;
  const CaseResult* cv = nullptr;
  for (const auto& r : results) {
    EXPECT_EQ(r.time_unit, unit) << r.name;
    if (r.run_type == "iteration") times.push_back(r.real_time);
    if (r.aggregate_name == "cv") cv = &r;
  }
  ASSERT_EQ(times.size(), 3u);
  ASSERT_TRUE(cv);
  EXPECT_EQ(cv->aggregate_unit, "percentage");
  // Google Benchmark's cv: the sample standard deviation over the mean, a plain fraction
  // (every repetition ran the same iterations).
  double mean = 0, var = 0;
  for (double t : times) mean += t / 3;
  for (double t : times) var += (t - mean) * (t - mean) / 2;
  EXPECT_NEAR(cv->real_time, std::sqrt(var) / mean, 1e-9 * std::max(1.0, cv->real_time));
  EXPECT_EQ(to_json(*cv)["aggregate_unit"], "percentage");
}

// Each repetition carries the readings of its own collector window: the timer collector's
// wall time of the window holds that repetition's timed loop (its iterations times its time
// per iteration) and little more. A sizing or warm-up call's window, which Google Benchmark
// runs but does not report, would hold far fewer iterations; the window index is not a
// counter of the result.
TEST(ExecuteCase, EachRepetitionCarriesTheReadingsOfItsOwnTimedLoop) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  RunSettings settings = quick();
  settings.repetitions = 4;
  settings.min_time_s = 0.02;
  settings.warmup_s = 0.02;
  settings.collect = {"timer"};
  const std::vector<CaseResult> results = execute_case(catalog, spec("cpu.naive", 48), settings);
  int repetitions = 0;
  for (const auto& r : results) {
    if (r.run_type != "iteration") continue;
    ++repetitions;
    double wall = -1;
    for (const auto& m : r.ridgeline->metrics)
      if (m.name == "wall_time") wall = m.value;
    const double timed = r.real_time * 1e-9 * static_cast<double>(r.iterations);  // ns units
    ASSERT_EQ(r.time_unit, "ns");
    EXPECT_GE(wall, 0.98 * timed) << r.name << " rep " << r.repetition_index;
    EXPECT_LE(wall, 3 * timed + 0.01) << r.name << " rep " << r.repetition_index;  // a busy CI
    EXPECT_EQ(r.counters.count("ridgeline.collector_window"), 0u);
  }
  EXPECT_EQ(repetitions, 4);
}

// An unfused chain's repetitions carry each pass's time (the kernel's laps, timed, seconds
// per call) and modelled work (analytic) named from the op's passes; the laps lie inside the
// timed call, so together they take no longer than it. A fused case carries none.
TEST(ExecuteCase, AnUnfusedChainRecordsEachPassTimeInsideTheCallsTime) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  RunSettings settings = quick();
  settings.repetitions = 3;
  Problem p;
  p.op = "softmax";
  p.params = parse_params(op_definition("softmax"), "rows=64,cols=1024");
  const std::vector<PassWork> passes = op_unfused_passes(p);
  ASSERT_EQ(passes.size(), 5u);
  int repetitions = 0;
  for (const auto& r : execute_case(catalog, {"cpu.unfused", p, 2}, settings)) {
    if (r.run_type != "iteration") continue;
    ++repetitions;
    std::map<std::string, Metric> by_name;
    for (const auto& m : r.ridgeline->metrics) by_name[m.name] = m;
    double sum = 0;
    for (std::size_t i = 0; i < passes.size(); ++i) {
      const auto it = by_name.find(pass_time_metric(i, passes[i].name));
      ASSERT_NE(it, by_name.end()) << passes[i].name;
      EXPECT_EQ(it->second.source, MetricSource::timed);
      EXPECT_EQ(it->second.unit, "s");
      EXPECT_GT(it->second.value, 0) << passes[i].name;
      sum += it->second.value;
      // Beside it, the pass's modelled work (analytic), as the kernel's passes() gives it.
      const Metric& bytes = by_name.at(pass_bytes_metric(i, passes[i].name));
      EXPECT_EQ(bytes.source, MetricSource::analytic);
      EXPECT_DOUBLE_EQ(bytes.value, passes[i].work.bytes.at(MemoryLevel::main)) << passes[i].name;
      EXPECT_DOUBLE_EQ(by_name.at(pass_flops_metric(i, passes[i].name)).value, passes[i].work.flops)
          << passes[i].name;
    }
    EXPECT_LE(sum, by_name.at("time_per_iteration").value * (1 + 1e-9));
  }
  EXPECT_EQ(repetitions, 3);
  for (const auto& r : execute_case(catalog, {"cpu.fused", p, 2}, settings))
    for (const auto& m : r.ridgeline->metrics)
      EXPECT_NE(m.name.rfind("pass_time.", 0), 0u) << m.name;
}

// An einsum case records its kernel's lowering: the kind it declares and, once prepared, its
// steps, each lapped one named as the pass whose time it carries; a case its kernel cannot
// run records the kind alone.
TEST(ExecuteCase, AnEinsumCaseRecordsItsKernelsLoweringAndSteps) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  const auto einsum = [](const char* params) {
    Problem p;
    p.op = "einsum";
    p.params = parse_params(op_definition("einsum"), params);
    return p;
  };
  const Problem scores = einsum(R"(equation="bthr,bThr->bhtT"/extents="b=2,t=8,h=2,r=4,T=8")");
  int repetitions = 0;
  for (const auto& r : execute_case(catalog, {"cpu.ttgt", scores, 1}, quick())) {
    ASSERT_TRUE(r.ridgeline->lowering) << r.name;
    EXPECT_EQ(r.ridgeline->lowering->kind, LoweringKind::ttgt);
    const std::vector<LoweringStep>& steps = r.ridgeline->lowering->steps;
    ASSERT_EQ(steps.size(), 3u) << r.name;
    EXPECT_EQ(steps[0], (LoweringStep{StepKind::permute, "A", "permute_A"}));
    EXPECT_EQ(steps[2].kind, StepKind::gemm);
    if (r.run_type != "iteration") continue;
    ++repetitions;
    for (std::size_t i = 0; i < steps.size(); ++i)
      EXPECT_TRUE(std::any_of(
          r.ridgeline->metrics.begin(), r.ridgeline->metrics.end(),
          [&](const Metric& m) { return m.name == pass_time_metric(i, steps[i].pass); }))
          << steps[i].pass;
  }
  EXPECT_GT(repetitions, 0);
  const Problem copy = einsum(R"(equation="btd,hdk->bthk"/extents="b=2,t=4,d=8,h=2,k=4")");
  const std::vector<CaseResult> refused = execute_case(catalog, {"cpu.strided", copy, 1}, quick());
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].ridgeline->validation.disposition, Disposition::not_supported);
  EXPECT_EQ(refused[0].ridgeline->lowering, (Lowering{LoweringKind::strided, {}}));
  // Another op's case has none.
  for (const auto& r : execute_case(catalog, spec("cpu.naive", 8), quick()))
    EXPECT_FALSE(r.ridgeline->lowering) << r.name;
}

TEST(TimeUnit, TheLargestUnitInWhichTheExpectedTimeReadsAtLeastAThousand) {
  auto unit = [](std::int64_t n, Device device) {
    return time_unit_for(op_work(gemm_problem(Shape{n, n, n, 1}, Layout::NN, DType::f32, "normal")),
                         device);
  };
  EXPECT_EQ(unit(64, Device::cpu), "ns");    // 0.5 MFLOP, 49 kB: ~5 us
  EXPECT_EQ(unit(512, Device::cpu), "us");   // 268 MFLOP: ~2.7 ms
  EXPECT_EQ(unit(4096, Device::cpu), "ms");  // 137 GFLOP: ~1.4 s
  EXPECT_EQ(unit(8192, Device::gpu), "us");  // 1.1 TFLOP at 10 TFLOP/s: ~110 ms
  EXPECT_EQ(time_unit_for({}, Device::cpu), "ns");
}

}  // namespace ridgeline

namespace ridgeline {

TEST(EnergyEfficiency, FlopPerJoulePerEnergyDomain) {
  const std::vector<Metric> readings{{"energy.package-0", 4.0, "J", MetricSource::counted},
                                     {"energy.dram", 0.0, "J", MetricSource::counted},
                                     {"perf.task-clock", 5.0, "ns", MetricSource::counted}};
  const auto m = energy_efficiency(readings, 8e9);
  ASSERT_EQ(m.size(), 1u);  // a domain that read zero joules gives no ratio
  EXPECT_EQ(m[0].name, "flop_per_joule.package-0");
  EXPECT_DOUBLE_EQ(m[0].value, 2e9);
  EXPECT_EQ(m[0].unit, "FLOP/J");
  EXPECT_EQ(m[0].source, MetricSource::derived);
  EXPECT_TRUE(energy_efficiency(readings, 0).empty());
}

}  // namespace ridgeline

namespace ridgeline {
namespace {

TEST(RunPlan, InterleavedRepetitionsGoRoundRobinAndACaseThatFailsIsNotRunAgain) {
  const KernelCatalog catalog = testing::catalog_with_test_kernels();
  const std::vector<CaseSpec> plan{spec("cpu.naive", 8), spec("test.segfault", 8),
                                   spec("cpu.naive", 9)};
  RunSettings s = quick();
  s.repetitions = 3;
  s.interleave = true;
  fs::path journal =
      fs::temp_directory_path() / ("ridgeline_interleave_" + std::to_string(::getpid()) + ".jsonl");
  fs::remove(journal);
  std::vector<std::size_t> started;
  RunObserver observer;
  observer.case_started = [&](std::size_t step, std::size_t total, const CaseSpec&) {
    started.push_back(step);
    EXPECT_EQ(total, 9u);
  };
  const ridgeline::Run run = run_plan(catalog, plan, s, journal, observer);
  // Rounds 0, 1, 2 of cases 0 and 2; the crashing case only in round 0.
  EXPECT_EQ(started, (std::vector<std::size_t>{0, 1, 2, 3, 5, 6, 8}));
  // The journal in the order they ran: naive 8, segfault, naive 9, naive 8, naive 9, ...
  std::vector<std::pair<std::string, std::int64_t>> order;
  std::ifstream in(journal);
  for (std::string line; std::getline(in, line);) {
    const CaseResult r = case_result_from_json(nlohmann::json::parse(line), "journal", "line");
    if (r.run_type == "iteration") order.emplace_back(r.run_name, r.repetition_index);
  }
  fs::remove(journal);
  const std::vector<std::pair<std::string, std::int64_t>> expected{
      {plan[0].name(), 0}, {plan[1].name(), 0}, {plan[2].name(), 0}, {plan[0].name(), 1},
      {plan[2].name(), 1}, {plan[0].name(), 2}, {plan[2].name(), 2}};
  EXPECT_EQ(order, expected);
  // The Run keeps each case together: its 3 rows (repetition 0, 1, 2 of 3), then the four
  // aggregates computed from them, as Google Benchmark would have written.
  std::vector<const CaseResult*> naive8;
  for (const auto& r : run.benchmarks)
    if (r.run_name == plan[0].name()) naive8.push_back(&r);
  ASSERT_EQ(naive8.size(), 3u + 4u);
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(naive8[i]->run_type, "iteration");
    EXPECT_EQ(naive8[i]->repetition_index, i);
    EXPECT_EQ(naive8[i]->repetitions, 3);
    sum += naive8[i]->real_time;
  }
  EXPECT_EQ(naive8[3]->aggregate_name, "mean");
  EXPECT_DOUBLE_EQ(naive8[3]->real_time, sum / 3);
  EXPECT_EQ(naive8[4]->aggregate_name, "median");
  EXPECT_EQ(naive8[6]->aggregate_name, "cv");
  EXPECT_EQ(naive8[6]->aggregate_unit, "percentage");
  std::size_t crashed = 0;
  for (const auto& r : run.benchmarks) crashed += r.run_name == plan[1].name();
  EXPECT_EQ(crashed, 1u);
  // The run's machine load, with the clock at both ends.
  ASSERT_TRUE(run.context.machine_load.has_value());
  EXPECT_GT(run.context.machine_load->wall_s, 0);
  EXPECT_EQ(run.context.machine_load->cpus, static_cast<int>(std::thread::hardware_concurrency()));
  EXPECT_GT(run.context.machine_load->clock_start_hz, 1e8);
  EXPECT_GT(run.context.machine_load->clock_end_hz, 1e8);
}

}  // namespace
}  // namespace ridgeline
