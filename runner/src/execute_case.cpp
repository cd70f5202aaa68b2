// One case in this process: validate against the reference, then time with Google
// Benchmark, with the collectors started and stopped around each repetition's timed loop
// and their readings reported with that repetition, as its time is.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "fp_env_scope.hpp"
#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/kernels/validation.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

namespace {

// What the kernel says it is; a backend no kernel answers to is guessed from its name.
CaseDetails details_for(const CaseSpec& spec, const WorkModel& work, const KernelInfo* info) {
  CaseDetails d;
  d.backend = spec.backend;
  d.device = info ? info->device : inferred_device(spec.backend);
  d.role = info ? info->role : inferred_role(spec.backend);
  d.family = info ? info->family : inferred_family(spec.backend);
  d.compute_unit = default_compute_unit(d.device);  // the kernel's own, once it is prepared
  d.problem = spec.problem;
  d.threads = spec.threads;
  d.fp_env = spec.fp_env;
  // The device harness rotates operand copies past its L2 on every call: always cold.
  d.cache = d.device == Device::gpu ? CacheState::cold : spec.cache;
  d.work = work;
  d.metrics.push_back({"flops", work.flops, "FLOP", MetricSource::analytic});
  for (const auto& [level, bytes] : work.bytes)
    d.metrics.push_back({bytes_metric(level), bytes, "B", MetricSource::analytic});
  return d;
}

benchmark::TimeUnit time_unit_of(const std::string& name) {
  if (name == "s") return benchmark::kSecond;
  if (name == "ms") return benchmark::kMillisecond;
  if (name == "us") return benchmark::kMicrosecond;
  return benchmark::kNanosecond;
}

// Collects Google Benchmark's runs instead of printing them.
class CollectingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) runs_.push_back(r);
  }
  const std::vector<Run>& runs() const { return runs_; }

 private:
  std::vector<Run> runs_;
};

// The counter that ties a reported run to the collector window of the call that made it.
constexpr const char* kWindowCounter = "ridgeline.collector_window";

// The readings of the window behind `run`; nullptr where the run carries none (a run that
// stopped with an error before its readings were taken).
const std::vector<Metric>* window_of(const benchmark::BenchmarkReporter::Run& run,
                                     const std::vector<std::vector<Metric>>& collected) {
  const auto it = run.counters.find(kWindowCounter);
  if (it == run.counters.end() || !(it->second.value >= 0)) return nullptr;
  const auto index = static_cast<std::size_t>(it->second.value);
  return index < collected.size() ? &collected[index] : nullptr;
}

// Each pass's seconds per call over one repetition, as "pass_time.<i>.<name>" (timed), and
// its modelled bytes and FLOPs (analytic). A clock lapped a different number of times than
// the kernel has passes names no pass: none is written, and the report shows the chain
// without its passes.
void append_pass_times(const PassClock& clock, const std::vector<PassWork>& passes,
                       std::vector<Metric>& out) {
  if (clock.calls() <= 0 || clock.seconds().size() != passes.size()) return;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const WorkModel& w = passes[i].work;
    out.push_back({pass_time_metric(i, passes[i].name),
                   clock.seconds()[i] / static_cast<double>(clock.calls()), "s",
                   MetricSource::timed});
    out.push_back({pass_bytes_metric(i, passes[i].name), w.bytes_at(MemoryLevel::main), "B",
                   MetricSource::analytic});
    out.push_back({pass_flops_metric(i, passes[i].name), w.flops, "FLOP", MetricSource::analytic});
  }
}

}  // namespace

std::string time_unit_for(const WorkModel& work, Device device) {
  const bool gpu = device == Device::gpu;
  double bytes = 0;
  for (const auto& [level, b] : work.bytes) bytes = std::max(bytes, b);
  const double expected =
      std::max(work.flops / (gpu ? 1e13 : 1e11), bytes / (gpu ? 1e12 : 1e10));  // seconds
  for (const auto& [unit, scale] : {std::pair{"s", 1.0}, {"ms", 1e3}, {"us", 1e6}})
    if (expected * scale >= 1000) return unit;
  return "ns";
}

CaseResult untimed_result(const CaseSpec& spec, Disposition disposition, const std::string& why,
                          const KernelInfo* info) {
  CaseResult r;
  r.name = spec.name();
  r.run_name = r.name;
  r.error_occurred = true;
  r.error_message = fmt::format("{}: {}", to_string(disposition), why);
  r.ridgeline = details_for(spec, op_work(spec.problem), info);
  r.time_unit = time_unit_for(r.ridgeline->work, r.ridgeline->device);  // as when it runs
  r.ridgeline->validation.disposition = disposition;
  r.ridgeline->validation.message = why;
  return r;
}

CollectiveLeft::CollectiveLeft(CaseResult r)
    : std::runtime_error(r.error_message), result(std::move(r)) {}

std::vector<Metric> energy_efficiency(const std::vector<Metric>& readings, double flops) {
  std::vector<Metric> out;
  for (const auto& m : readings)
    if (m.name.rfind("energy.", 0) == 0 && m.value > 0 && flops > 0)
      out.push_back(
          {"flop_per_joule." + m.name.substr(7), flops / m.value, "FLOP/J", MetricSource::derived});
  return out;
}

std::vector<CaseResult> execute_case(const KernelCatalog& catalog, const CaseSpec& spec,
                                     const RunSettings& settings) {
  // Collectors first: counters opened now also count the threads the kernel starts later.
  std::vector<std::unique_ptr<Collector>> collectors;
  for (auto& c : make_collectors(settings.collect))
    if (c->probe().available) collectors.push_back(std::move(c));
  auto kernel = catalog.create(spec.backend, spec.problem.op);
  if (!kernel)
    return {untimed_result(spec, Disposition::not_supported,
                           fmt::format("no {} kernel named {}", spec.problem.op, spec.backend))};
  Support support = kernel->supports(spec.problem, spec.threads);
  if (support) support = pattern_support(spec.problem.pattern, spec.problem.dtype);
  if (support) support = fp_env_support(spec.fp_env, kernel->info(), spec.threads);
  if (!support)
    return {untimed_result(spec, Disposition::not_supported, support.reason, &kernel->info())};

  const Problem& problem = spec.problem;
  Operands ops = allocate_operands(problem);
  // Validation always runs on fresh random data, whatever pattern is timed, so a kernel
  // cannot pass by being right only on zeros; outputs start poisoned.
  fill_operands(ops, "normal", settings.seed);
  // A collective kernel's ranks go on together or stop together (Kernel::all_ranks): here
  // prepared, and below validated, at every rank or the case is left untimed at all of them.
  const auto elsewhere = [&](const char* what) {
    return std::vector<CaseResult>{untimed_result(
        spec, Disposition::skipped,
        fmt::format("not timed: {} on another rank of the job (a collective's ranks time it "
                    "together or not at all)",
                    what),
        &kernel->info())};
  };
  std::string threw;
  try {
    kernel->prepare(problem, ops, spec.threads);
  } catch (const std::exception& e) {
    threw = fmt::format("threw: {}", e.what());
  }
  if (!kernel->all_ranks(threw.empty()))
    return threw.empty() ? elsewhere("prepare() failed")
                         : std::vector<CaseResult>{
                               untimed_result(spec, Disposition::crashed, threw, &kernel->info())};
  // From here a collective's ranks are inside its calls together: one that throws cannot
  // leave them there and go on (CollectiveLeft).
  const bool collective = kernel->info().ranks > 0;
  const auto crashed = [&](const std::string& why) -> std::vector<CaseResult> {
    if (!collective) return {untimed_result(spec, Disposition::crashed, why, &kernel->info())};
    throw CollectiveLeft(untimed_result(
        spec, Disposition::crashed,
        fmt::format("{} (part-way through a collective, whose other ranks wait inside it: this "
                    "rank ended the job)",
                    why),
        &kernel->info()));
  };
  Validation validation;
  try {
    kernel->run();
    kernel->finish();
    validation = validate(problem, ops, settings.seed + 100);
  } catch (const std::exception& e) {
    return crashed(fmt::format("threw: {}", e.what()));
  }
  WorkModel work = kernel->work(problem);
  const bool passed = validation.disposition == Disposition::passed;
  if (!kernel->all_ranks(passed) && passed) {
    std::vector<CaseResult> r = elsewhere("the result was not correct");
    r[0].ridgeline->validation.method = validation.method;
    r[0].ridgeline->kernel_notes = kernel->notes();
    return r;
  }
  if (!passed) {
    CaseResult r =
        untimed_result(spec, validation.disposition, validation.message, &kernel->info());
    r.ridgeline->validation = validation;
    r.ridgeline->compute_unit = kernel->compute_unit(problem);
    r.ridgeline->kernel_notes = kernel->notes();
    return {r};
  }
  if (problem.pattern != "normal") {
    fill_operands(ops, problem.pattern, settings.seed + 200);
    kernel->prepare(problem, ops, spec.threads);
  }

  std::vector<std::vector<Metric>> collected;  // one entry per call of the benchmark
  const std::string name = spec.name();
  benchmark::ClearRegisteredBenchmarks();
  // Under likwid-perfctr -m, one marker region per case around the timed loops.
  const std::string region = likwid_region_name(name);
  const bool device_timed = kernel->info().device != Device::cpu;
  const bool cold = !device_timed && spec.cache == CacheState::cold;
  // cache=cold: each call's operands flushed from every cache level first, untimed; the
  // call's own time is the iteration's.
  const auto cold_call = [&] {
    evict_from_caches(ops);
    const auto start = std::chrono::steady_clock::now();
    kernel->run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  PassClock* pass_clock = kernel->pass_clock();
  const std::vector<PassWork> passes =
      pass_clock ? kernel->passes(problem) : std::vector<PassWork>{};
  std::string threw_while_timed;
  auto* bench = benchmark::RegisterBenchmark(name.c_str(), [&](benchmark::State& state) {
    if (pass_clock) pass_clock->reset();
    for (auto& c : collectors) c->start();
    likwid_marker_start(region, spec.threads);
    try {
      if (device_timed)  // each iteration's time from the device's own events
        for (auto _ : state) state.SetIterationTime(*kernel->timed_run());
      else if (cold)
        for (auto _ : state) state.SetIterationTime(cold_call());
      else
        for (auto _ : state) kernel->run();
    } catch (const std::exception& e) {  // a device fault mid-run: recorded with its reason
      threw_while_timed = fmt::format("threw while timed: {}", e.what());
      state.SkipWithError(threw_while_timed.c_str());
    }
    likwid_marker_stop(region, spec.threads);
    for (auto& c : collectors) c->stop();
    std::vector<Metric> metrics;
    for (auto& c : collectors)
      for (auto& m : c->read()) metrics.push_back(std::move(m));
    if (pass_clock) append_pass_times(*pass_clock, passes, metrics);
    // The window's readings go with the run Google Benchmark reports for this call, as its
    // timer's reading does: a counter holding their index, read back below (sizing and
    // warm-up calls are never reported, so their readings are never looked up).
    state.counters[kWindowCounter] = static_cast<double>(collected.size());
    collected.push_back(std::move(metrics));
    state.counters["flops"] =
        benchmark::Counter(work.flops, benchmark::Counter::kIsIterationInvariantRate);
    state.SetBytesProcessed(static_cast<std::int64_t>(work.bytes_at(MemoryLevel::main)) *
                            state.iterations());
  });
  bench->Repetitions(settings.repetitions)
      ->Unit(time_unit_of(time_unit_for(work, kernel->info().device)));
  // A collective kernel's ranks must make the same calls: a count they agreed on.
  std::optional<std::int64_t> agreed = settings.iterations;
  try {
    if (!agreed) agreed = kernel->fixed_iterations(settings.min_time_s);
  } catch (const std::exception& e) {
    benchmark::ClearRegisteredBenchmarks();
    return crashed(fmt::format("threw: {}", e.what()));
  }
  if (agreed)  // a fixed count: Google Benchmark allows no warm-up with it
    bench->Iterations(*agreed);
  else
    bench->MinTime(settings.min_time_s)->MinWarmUpTime(settings.warmup_s);
  if (device_timed || cold)
    bench->UseManualTime();
  else
    bench->UseRealTime();
  CollectingReporter reporter;
  {
    // Only the timed runs see FTZ/DAZ: the inputs were converted and filled before.
    const FpEnvScope fp_env(spec.fp_env, spec.threads);
    // An explicit spec: a BENCHMARK_FILTER in the environment must not drop the one case.
    benchmark::RunSpecifiedBenchmarks(&reporter, ".");
  }
  benchmark::ClearRegisteredBenchmarks();
  if (collective && !threw_while_timed.empty()) return crashed(threw_while_timed);

  if (reporter.runs().empty())
    return {untimed_result(spec, Disposition::crashed, "Google Benchmark reported no run",
                           &kernel->info())};
  std::vector<CaseResult> results;
  auto notes = kernel->notes();
  if (cold)
    notes["cache"] =
        "cold: every operand flushed (clflush) before each call, untimed; counters read over "
        "the timed loop include the flushes' write-backs of the outputs";
  for (const auto& run : reporter.runs()) {
    CaseResult r;
    const bool aggregate = run.run_type == benchmark::BenchmarkReporter::Run::RT_Aggregate;
    r.run_name = name;
    r.name = aggregate ? name + "_" + run.aggregate_name : name;
    r.run_type = aggregate ? "aggregate" : "iteration";
    r.aggregate_name = aggregate ? run.aggregate_name : "";
    r.repetitions = run.repetitions;
    r.repetition_index = aggregate ? 0 : run.repetition_index;
    r.threads = run.threads;
    r.iterations = run.iterations;
    r.time_unit = time_unit_for(work, kernel->info().device);
    if (aggregate && run.aggregate_unit == benchmark::StatisticUnit::kPercentage) {
      // cv: the plain fraction, as Google Benchmark's JSON writer does
      r.aggregate_unit = "percentage";
      r.real_time = run.real_accumulated_time;
      r.cpu_time = run.cpu_accumulated_time;
    } else {
      r.aggregate_unit = aggregate ? "time" : "";
      r.real_time = run.GetAdjustedRealTime();
      r.cpu_time = run.GetAdjustedCPUTime();
    }
    r.error_occurred = run.error_occurred;
    r.error_message = run.error_message;
    for (const auto& [cname, counter] : run.counters)
      if (cname != kWindowCounter) r.counters[cname] = counter.value;
    r.ridgeline = details_for(spec, work, &kernel->info());
    r.ridgeline->compute_unit = kernel->compute_unit(problem);
    r.ridgeline->validation = validation;
    r.ridgeline->kernel_notes = notes;
    if (!aggregate) {
      const double seconds = run.real_accumulated_time / static_cast<double>(run.iterations);
      r.ridgeline->metrics.push_back({"time_per_iteration", seconds, "s", MetricSource::timed});
      r.ridgeline->metrics.push_back(
          {"flop_rate", work.flops / seconds, "FLOP/s", MetricSource::derived});
      if (const std::vector<Metric>* window = window_of(run, collected)) {
        for (const auto& m : *window) r.ridgeline->metrics.push_back(m);
        for (auto& m : energy_efficiency(*window, work.flops * static_cast<double>(run.iterations)))
          r.ridgeline->metrics.push_back(std::move(m));
        if (settings.group) {
          std::vector<std::string> missing;  // the context's group status says why
          for (auto& m : evaluate_group(*settings.group, *window, run.real_accumulated_time,
                                        static_cast<double>(run.iterations), missing))
            r.ridgeline->metrics.push_back(std::move(m));
        }
      }
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace ridgeline
