#include "benchmark_runs.hpp"

#include "case_details.hpp"
#include "timed_loop.hpp"

namespace ridgeline {

namespace {

// The readings of the window behind `run`; nullptr where the run carries none (a run that
// stopped with an error before its readings were taken).
const std::vector<Metric>* window_of(const benchmark::BenchmarkReporter::Run& run,
                                     const std::vector<std::vector<Metric>>& windows) {
  const auto it = run.counters.find(kWindowCounter);
  if (it == run.counters.end() || !(it->second.value >= 0)) return nullptr;
  const auto index = static_cast<std::size_t>(it->second.value);
  return index < windows.size() ? &windows[index] : nullptr;
}

// A repetition's own figures: its time per call and rate (timed, derived), its window's
// readings, their FLOP per joule and the --group's metrics.
void append_repetition_metrics(const benchmark::BenchmarkReporter::Run& run, const WorkModel& work,
                               const std::vector<std::vector<Metric>>& windows,
                               const RunSettings& settings, std::vector<Metric>& out) {
  const double seconds = run.real_accumulated_time / static_cast<double>(run.iterations);
  out.push_back({"time_per_iteration", seconds, "s", MetricSource::timed});
  out.push_back({"flop_rate", work.flops / seconds, "FLOP/s", MetricSource::derived});
  const std::vector<Metric>* window = window_of(run, windows);
  if (!window) return;
  for (const auto& m : *window) out.push_back(m);
  for (auto& m : energy_efficiency(*window, work.flops * static_cast<double>(run.iterations)))
    out.push_back(std::move(m));
  if (settings.group) {
    std::vector<std::string> missing;  // the context's group status says why
    for (auto& m : evaluate_group(*settings.group, *window, run.real_accumulated_time,
                                  static_cast<double>(run.iterations), missing))
      out.push_back(std::move(m));
  }
}

}  // namespace

std::vector<Metric> energy_efficiency(const std::vector<Metric>& readings, double flops) {
  std::vector<Metric> out;
  for (const auto& m : readings)
    if (m.name.rfind("energy.", 0) == 0 && m.value > 0 && flops > 0)
      out.push_back(
          {"flop_per_joule." + m.name.substr(7), flops / m.value, "FLOP/J", MetricSource::derived});
  return out;
}

std::vector<CaseResult> case_results(const std::vector<benchmark::BenchmarkReporter::Run>& runs,
                                     const TimedCase& timed,
                                     const std::vector<std::vector<Metric>>& windows,
                                     const RunSettings& settings) {
  const std::string name = timed.spec.name();
  const KernelInfo& info = timed.kernel.info();
  std::vector<CaseResult> results;
  for (const auto& run : runs) {
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
    r.time_unit = time_unit_for(timed.work, info.device);
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
    r.ridgeline = details_for(timed.spec, timed.work, &info);
    r.ridgeline->compute_unit = timed.kernel.compute_unit(timed.spec.problem);
    r.ridgeline->validation = timed.validation;
    record_how_it_ran(*r.ridgeline, timed.kernel, timed.notes);
    if (!aggregate)
      append_repetition_metrics(run, timed.work, windows, settings, r.ridgeline->metrics);
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace ridgeline
