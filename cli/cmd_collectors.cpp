// ridgeline collectors: each collector and event source, available or the exact reason.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/counter_group.hpp"
#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/collectors/papi.hpp"
#include "ridgeline/collectors/perf_event.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/runner/collector_validation.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline::cli {

namespace {

int run_collectors(bool json) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : collector_registry()) {
    // Every event this collector knows, not only its defaults, so users see what works.
    std::vector<std::string> events = d.default_events;
    if (d.name == "perf") {
      events.clear();
      for (const auto& e : perf_event_catalog()) events.push_back(e.name);
    }
    // PAPI takes any name its components know: try a few telling ones.
    if (d.name == "papi")
      events = {"perf::TASK-CLOCK", "perf::PAGE-FAULTS", "PAPI_TOT_CYC", "PAPI_DP_OPS"};
    if (d.name == "likwid") events = {"FLOPS_DP"};  // a group LIKWID has for most CPUs
    auto collector = d.factory(events);
    Availability a = collector->probe();
    nlohmann::json entry = {{"name", d.name},
                            {"description", d.description},
                            {"available", a.available},
                            {"reason", a.reason},
                            {"default_events", d.default_events}};
    if (auto* perf = dynamic_cast<PerfEventCollector*>(collector.get())) {
      nlohmann::json ev = nlohmann::json::array();
      for (const auto& s : perf->events())
        ev.push_back({{"event", s.event}, {"available", s.available}, {"reason", s.reason}});
      entry["events"] = ev;
    }
    if (d.name == "likwid") {
      const Availability perfctr = likwid_perfctr_status();
      entry["likwid_perfctr"] = {{"available", perfctr.available}, {"reason", perfctr.reason}};
    }
    if (d.name == "papi") {
      std::string error;
      nlohmann::json comps = nlohmann::json::array();
      for (const auto& c : papi_components(error))
        comps.push_back({{"name", c.name}, {"disabled", c.disabled}, {"reason", c.reason}});
      entry["components"] = comps;
      entry["tried_events"] = events;
    }
    out.push_back(entry);
  }
  if (json) {
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  std::size_t name_width = 0;
  for (const auto& c : out) name_width = std::max(name_width, c["name"].get<std::string>().size());
  for (const auto& c : out) {
    fmt::print("{:<{}} {:<11} {}\n", c["name"].get<std::string>(), name_width,
               c["available"].get<bool>() ? "available" : "unavailable",
               c["description"].get<std::string>());
    if (c.contains("events")) {
      std::vector<TextRow> events;
      for (const auto& e : c["events"])
        events.push_back({e["event"].get<std::string>(), e["available"].get<bool>()
                                                             ? "available"
                                                             : e["reason"].get<std::string>()});
      fmt::print("{}", format_columns(events, "         "));
    } else if (!c["reason"].get<std::string>().empty()) {
      fmt::print("         {}\n", c["reason"].get<std::string>());
    }
    if (c.contains("likwid_perfctr"))
      fmt::print("         likwid-perfctr -m (marker regions per case): {}\n",
                 c["likwid_perfctr"]["available"].get<bool>()
                     ? "works here: " + c["likwid_perfctr"]["reason"].get<std::string>()
                     : c["likwid_perfctr"]["reason"].get<std::string>());
    if (c.contains("components"))
      for (const auto& comp : c["components"])
        fmt::print("         component {:<18} {}\n", comp["name"].get<std::string>(),
                   comp["disabled"].get<bool>() ? "disabled: " + comp["reason"].get<std::string>()
                                                : "enabled");
  }
  const CpuIdentity cpu = cpu_identity();
  const std::string arch = counter_group_arch(cpu.vendor, cpu.family, cpu.model);
  const auto dir = counter_groups_dir();
  std::string groups;
  for (const auto& g : list_counter_groups(dir, arch)) groups += " " + g;
  const std::string folders =
      arch == "generic" ? "generic/ only: no folder for this CPU" : arch + "/ and generic/";
  fmt::print("counter groups for {} ({}; in {}: {}; run --group NAME):{}\n", arch,
             counter_group_cpu(cpu.vendor, cpu.family, cpu.model), dir.string(), folders,
             groups.empty() ? " none found" : groups);
  return 0;
}

// Checks each counter against work of known count, prints the verdicts and keeps them in
// the cache, where every later run on this machine finds them.
int run_validation(bool json) {
  const CollectorValidation v = validate_collectors();
  const auto cache = validation_cache_path();
  std::error_code ec;
  std::filesystem::create_directories(cache.parent_path(), ec);
  write_file_atomically(cache, validation_to_json(v));
  if (json) {
    fmt::print("{}\n", validation_to_json(v));
    return 0;
  }
  std::vector<TextRow> rows{
      {"collector", "metric", "known work", "expected", "counted", "tol.", "verdict"}};
  for (const auto& c : v.checks)
    rows.push_back({c.collector, c.metric, c.workload, fmt::format("{:.6g}", c.expected),
                    c.verdict == "skipped" ? "-" : fmt::format("{:.6g}", c.counted),
                    fmt::format("{:.0f}%", c.tolerance * 100),
                    c.verdict == "skipped" ? "skipped: " + c.reason : c.verdict});
  fmt::print("{}", format_columns(rows, "", {3, 4, 5}));
  fmt::print(stderr, "kept in {}: runs on this machine record each collector's verdict\n",
             cache.string());
  return 0;
}

}  // namespace

Command add_collectors_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto validate = std::make_shared<bool>(false);
  CLI::App* sub =
      app.add_subcommand("collectors", "Each collector and event: available, or the exact reason");
  sub->add_flag("--json", *json, "Machine-readable output");
  sub->add_flag("--validate", *validate,
                "Check each available counter against work of known count; a counter off by more "
                "than its tolerance is marked untrusted in later runs");
  return {sub,
          [json, validate] { return *validate ? run_validation(*json) : run_collectors(*json); }};
}

}  // namespace ridgeline::cli
