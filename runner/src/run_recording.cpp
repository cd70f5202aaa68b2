#include "ridgeline/runner/run_recording.hpp"

#include <fmt/format.h>

#include <set>

#include "machine_load.hpp"
#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/runner/collector_validation.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline {

namespace {

// Three trials of the add chain, about 60 ms: the clock at each end of the run.
constexpr int kClockTrials = 3;

// Each collector: whether it runs here, and whether it was asked for (named by --collect,
// with or without events, or read by --group's events); the group's own line.
void record_collectors(const RunSettings& settings, RunContext& context) {
  std::string unavailable;
  std::set<std::string> asked;
  for (const auto& item : settings.collect) asked.insert(item.substr(0, item.find(':')));
  if (settings.group)
    for (const auto& e : settings.group->events) asked.insert(e.collector);
  for (const auto& c : make_collectors(settings.collect)) {
    Availability a = c->probe();
    context.collectors.push_back(
        {c->name(), a.available, a.reason, "", "", asked.count(c->name()) > 0});
    if (!a.available) unavailable += fmt::format("; {}: {}", c->name(), a.reason);
  }
  if (settings.group) {
    // The group is usable when every collector it reads from is.
    const CounterGroup& g = *settings.group;
    bool available = true;
    for (const auto& e : g.events)
      for (const auto& s : context.collectors)
        if (s.name == e.collector && !s.available) available = false;
    context.collectors.push_back(
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
      if (v.fingerprint == machine_fingerprint()) apply_validation(v, context.collectors);
    } catch (const std::exception&) {
      // an unreadable cache is as if --validate had not run
    }
  }
}

}  // namespace

RunRecording::RunRecording(const RunSettings& settings) {
  run_.context = current_context();
  record_collectors(settings, run_.context);
  clock_start_hz_ = measure_clock_hz(kClockTrials);
  if (auto times = read_cpu_times()) load_start_ = std::make_unique<CpuTimes>(*times);
  wall_start_ = std::chrono::steady_clock::now();
}

RunRecording::~RunRecording() = default;

Run RunRecording::finish() {
  if (const auto load_end = read_cpu_times(); load_start_ && load_end) {
    run_.context.machine_load = machine_load_between(
        *load_start_, *load_end,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count());
    run_.context.machine_load->clock_start_hz = clock_start_hz_;
    run_.context.machine_load->clock_end_hz = measure_clock_hz(kClockTrials);
  }
  return std::move(run_);
}

}  // namespace ridgeline
