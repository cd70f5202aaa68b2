#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "ridgeline/analysis/repetitions.hpp"
#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/runner/isolation.hpp"
#include "ridgeline/runner/run_recording.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

namespace {

std::string encode(const std::vector<CaseResult>& results) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& r : results) j.push_back(to_json(r));
  return j.dump();
}

std::vector<CaseResult> decode(const std::string& payload) {
  std::vector<CaseResult> results;
  nlohmann::json j = nlohmann::json::parse(payload);
  for (std::size_t i = 0; i < j.size(); ++i)
    results.push_back(case_result_from_json(j[i], "child result", fmt::format("[{}]", i)));
  return results;
}

std::vector<CaseResult> run_one(const KernelCatalog& catalog, const CaseSpec& spec,
                                const RunSettings& settings, const std::atomic<bool>* interrupted,
                                bool& was_interrupted) {
  const KernelInfo* info = catalog.find(spec.backend, spec.problem.op);
  auto body = [&] {
    try {
      return encode(execute_case(catalog, spec, settings));
    } catch (const CollectiveLeft&) {
      throw;  // the rank cannot go on: run_plan journals it and the caller ends the job
    } catch (const std::exception& e) {
      return encode(
          {untimed_result(spec, Disposition::crashed, fmt::format("threw: {}", e.what()), info)});
    }
  };
  // A collective kernel runs in this process: a forked child cannot take part in MPI.
  if (!settings.isolate || (info && info->ranks > 0)) return decode(body());
  ChildOutcome out = run_isolated(body, settings.case_timeout_s, interrupted);
  switch (out.status) {
    case ChildOutcome::Status::completed:
      try {
        return decode(out.payload);
      } catch (const std::exception& e) {
        return {untimed_result(spec, Disposition::crashed,
                               fmt::format("child wrote an unreadable result: {}", e.what()),
                               info)};
      }
    case ChildOutcome::Status::crashed:
      return {untimed_result(spec, Disposition::crashed, out.detail, info)};
    case ChildOutcome::Status::timed_out:
      return {untimed_result(spec, Disposition::timed_out, out.detail, info)};
    case ChildOutcome::Status::interrupted:
      was_interrupted = true;
      return {};
  }
  return {};
}

// What Google Benchmark adds after a case's repetitions (mean, median, stddev, cv of the time
// per iteration), for the rows of an interleaved case, which each ran alone.
std::vector<CaseResult> interleaved_aggregates(const std::vector<CaseResult>& rows) {
  std::vector<double> real, cpu;
  for (const auto& r : rows)
    if (r.run_type == "iteration" && !r.error_occurred && !r.skipped) {
      real.push_back(r.real_time);
      cpu.push_back(r.cpu_time);
    }
  if (real.size() < 2) return {};
  // Google Benchmark's four aggregates, in its order, from the analysis's one summary.
  const auto stats = [](std::vector<double> v) {
    const RepetitionSamples r = summarize_repetitions(std::move(v));
    return std::array<double, 4>{r.mean, r.median, r.stddev, r.cv};
  };
  const auto rs = stats(real), cs = stats(cpu);
  std::map<std::string, std::array<double, 4>> counters;  // each counter's statistics too
  for (const auto& [name, _] : rows.front().counters) {
    std::vector<double> v;
    for (const auto& r : rows)
      if (r.run_type == "iteration" && !r.error_occurred && !r.skipped && r.counters.count(name))
        v.push_back(r.counters.at(name));
    if (v.size() == real.size()) counters[name] = stats(v);
  }
  std::vector<CaseResult> out;
  const char* names[] = {"mean", "median", "stddev", "cv"};
  for (int k = 0; k < 4; ++k) {
    CaseResult a = rows.front();
    a.name = a.run_name + "_" + names[k];
    a.run_type = "aggregate";
    a.aggregate_name = names[k];
    a.aggregate_unit = k == 3 ? "percentage" : "time";
    a.repetition_index = 0;
    a.repetitions = static_cast<std::int64_t>(real.size());
    a.real_time = rs[static_cast<std::size_t>(k)];
    a.cpu_time = cs[static_cast<std::size_t>(k)];
    a.counters.clear();
    for (const auto& [name, st] : counters) a.counters[name] = st[static_cast<std::size_t>(k)];
    if (a.ridgeline)  // as execute_case's aggregates: the work model only; readings stay per row
      std::erase_if(a.ridgeline->metrics,
                    [](const Metric& m) { return m.source != MetricSource::analytic; });
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

Run run_plan(const KernelCatalog& catalog, const std::vector<CaseSpec>& plan,
             const RunSettings& settings, const std::optional<std::filesystem::path>& journal,
             const RunObserver& observer, const std::atomic<bool>* interrupted) {
  RunRecording recording(settings);
  Run& run = recording.run();
  likwid_marker_init();
  // Interleaved: `repetitions` rounds of one repetition of every case; a case that did not
  // time (not supported, crashed, timed out) is not run again.
  const int rounds = settings.interleave ? settings.repetitions : 1;
  RunSettings per_round = settings;
  if (settings.interleave) per_round.repetitions = 1;
  std::vector<std::vector<CaseResult>> by_case(plan.size());
  std::vector<bool> done(plan.size(), false);
  const std::size_t total = plan.size() * static_cast<std::size_t>(rounds);
  for (int round = 0; round < rounds && !run.context.interrupted; ++round)
    for (std::size_t i = 0; i < plan.size(); ++i) {
      if (done[i]) continue;
      if (interrupted && interrupted->load()) {
        run.context.interrupted = true;
        break;
      }
      const std::size_t step = static_cast<std::size_t>(round) * plan.size() + i;
      if (observer.case_started) observer.case_started(step, total, plan[i]);
      bool was_interrupted = false;
      std::vector<CaseResult> results;
      try {
        results = run_one(catalog, plan[i], per_round, interrupted, was_interrupted);
      } catch (CollectiveLeft& left) {
        left.result.family_index = static_cast<std::int64_t>(i);
        if (left.result.ridgeline) left.result.ridgeline->origin = settings.origin;
        if (journal) append_line_durably(*journal, to_json(left.result).dump());
        if (observer.case_finished) observer.case_finished(step, total, plan[i], {left.result});
        throw;
      }
      if (was_interrupted) {
        run.context.interrupted = true;
        break;
      }
      for (auto& r : results) {
        r.family_index = static_cast<std::int64_t>(i);
        if (r.ridgeline && settings.origin) r.ridgeline->origin = settings.origin;
        if (settings.interleave) {
          r.repetitions = settings.repetitions;
          r.repetition_index = round;
        }
        if (journal) append_line_durably(*journal, to_json(r).dump());
      }
      if (observer.case_finished) observer.case_finished(step, total, plan[i], results);
      const bool timed = std::any_of(results.begin(), results.end(), [](const CaseResult& r) {
        return r.run_type == "iteration" && !r.error_occurred && !r.skipped && r.ridgeline &&
               r.ridgeline->validation.disposition == Disposition::passed;
      });
      if (settings.interleave && !timed) done[i] = true;
      for (auto& r : results) by_case[i].push_back(std::move(r));
    }
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (settings.interleave && !done[i] && by_case[i].size() > 1) {
      auto aggregates = interleaved_aggregates(by_case[i]);
      if (journal)
        for (const auto& a : aggregates) append_line_durably(*journal, to_json(a).dump());
      for (auto& a : aggregates) by_case[i].push_back(std::move(a));
    }
    for (auto& r : by_case[i]) run.benchmarks.push_back(std::move(r));
  }
  likwid_marker_close();  // under likwid-perfctr -m: the regions' counts for it to print
  return recording.finish();
}

}  // namespace ridgeline
