#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include "machine_load.hpp"
#include "ridgeline/analysis/repetitions.hpp"
#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/runner/collector_validation.hpp"
#include "ridgeline/runner/isolation.hpp"
#include "ridgeline/runner/probe.hpp"
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
  Run run;
  run.context = current_context();
  std::string unavailable;
  // Named by --collect (with or without events) or read by --group's events.
  std::set<std::string> asked;
  for (const auto& item : settings.collect) asked.insert(item.substr(0, item.find(':')));
  if (settings.group)
    for (const auto& e : settings.group->events) asked.insert(e.collector);
  for (const auto& c : make_collectors(settings.collect)) {
    Availability a = c->probe();
    run.context.collectors.push_back(
        {c->name(), a.available, a.reason, "", "", asked.count(c->name()) > 0});
    if (!a.available) unavailable += fmt::format("; {}: {}", c->name(), a.reason);
  }
  if (settings.group) {
    // The group is usable when every collector it reads from is.
    const CounterGroup& g = *settings.group;
    bool available = true;
    for (const auto& e : g.events)
      for (const auto& s : run.context.collectors)
        if (s.name == e.collector && !s.available) available = false;
    run.context.collectors.push_back(
        {"group:" + g.name, available,
         fmt::format("{} ({}){}", g.file.string(), g.short_description,
                     available ? "" : "; metrics left out, collectors unavailable" + unavailable),
         "", "", true});
  }
  // What `ridgeline collectors --validate` found on this machine, if it ran here.
  if (std::error_code ec; std::filesystem::exists(validation_cache_path(), ec)) {
    try {
      const CollectorValidation v = validation_from_json(read_text_file(validation_cache_path()),
                                                         validation_cache_path().string());
      if (v.fingerprint == machine_fingerprint()) apply_validation(v, run.context.collectors);
    } catch (const std::exception&) {
      // an unreadable cache is as if --validate had not run
    }
  }
  likwid_marker_init();
  // Three trials of the add chain, about 60 ms: the clock at each end of the run.
  constexpr int kClockTrials = 3;
  const double clock_start = measure_clock_hz(kClockTrials);
  const auto load_start = read_cpu_times();
  const auto wall_start = std::chrono::steady_clock::now();
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
  if (const auto load_end = read_cpu_times(); load_start && load_end) {
    run.context.machine_load = machine_load_between(
        *load_start, *load_end,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count());
    run.context.machine_load->clock_start_hz = clock_start;
    run.context.machine_load->clock_end_hz = measure_clock_hz(kClockTrials);
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
  return run;
}

}  // namespace ridgeline
