#include <fmt/format.h>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/run_json.hpp"
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
  auto body = [&] {
    try {
      return encode(execute_case(catalog, spec, settings));
    } catch (const std::exception& e) {
      return encode(
          {untimed_result(spec, Disposition::crashed, fmt::format("threw: {}", e.what()))});
    }
  };
  if (!settings.isolate) return decode(body());
  ChildOutcome out = run_isolated(body, settings.case_timeout_s, interrupted);
  switch (out.status) {
    case ChildOutcome::Status::completed:
      try {
        return decode(out.payload);
      } catch (const std::exception& e) {
        return {untimed_result(spec, Disposition::crashed,
                               fmt::format("child wrote an unreadable result: {}", e.what()))};
      }
    case ChildOutcome::Status::crashed:
      return {untimed_result(spec, Disposition::crashed, out.detail)};
    case ChildOutcome::Status::timed_out:
      return {untimed_result(spec, Disposition::timed_out, out.detail)};
    case ChildOutcome::Status::interrupted:
      was_interrupted = true;
      return {};
  }
  return {};
}

}  // namespace

Run run_plan(const KernelCatalog& catalog, const std::vector<CaseSpec>& plan,
             const RunSettings& settings, const std::optional<std::filesystem::path>& journal,
             const RunObserver& observer, const std::atomic<bool>* interrupted) {
  Run run;
  run.context = current_context();
  std::string unavailable;
  for (const auto& c : make_collectors(settings.collect)) {
    Availability a = c->probe();
    run.context.collectors.push_back({c->name(), a.available, a.reason, "", ""});
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
         "", ""});
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
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (interrupted && interrupted->load()) {
      run.context.interrupted = true;
      break;
    }
    if (observer.case_started) observer.case_started(i, plan.size(), plan[i]);
    bool was_interrupted = false;
    std::vector<CaseResult> results =
        run_one(catalog, plan[i], settings, interrupted, was_interrupted);
    if (was_interrupted) {
      run.context.interrupted = true;
      break;
    }
    for (auto& r : results) {
      r.family_index = static_cast<std::int64_t>(i);
      if (journal) append_line_durably(*journal, to_json(r).dump());
    }
    if (observer.case_finished) observer.case_finished(i, plan.size(), plan[i], results);
    for (auto& r : results) run.benchmarks.push_back(std::move(r));
  }
  likwid_marker_close();  // under likwid-perfctr -m: the regions' counts for it to print
  return run;
}

}  // namespace ridgeline
