#include "timed_loop.hpp"

#include <fmt/format.h>

#include <chrono>

#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/kernels/patterns.hpp"

namespace ridgeline {

namespace {

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

TimedLoop::TimedLoop(Kernel& kernel, const CaseSpec& spec, std::vector<MemoryRange> cold_memory,
                     const WorkModel& work, std::vector<std::unique_ptr<Collector>>& collectors)
    : kernel_(kernel),
      spec_(spec),
      cold_memory_(std::move(cold_memory)),
      work_(work),
      collectors_(collectors),
      region_(likwid_region_name(spec.name())),
      device_timed_(kernel.info().device != Device::cpu),
      cold_(!device_timed_ && spec.cache == CacheState::cold),
      pass_clock_(kernel.pass_clock()),
      passes_(pass_clock_ ? kernel.passes(spec.problem) : std::vector<PassWork>{}) {}

// cache=cold: the call's operands flushed from every cache level first, untimed; the
// call's own time is the iteration's.
double TimedLoop::cold_call() {
  evict_from_caches(cold_memory_);
  const auto start = std::chrono::steady_clock::now();
  kernel_.run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void TimedLoop::operator()(benchmark::State& state) {
  if (pass_clock_) pass_clock_->reset();
  for (auto& c : collectors_) c->start();
  likwid_marker_start(region_, spec_.threads);
  try {
    if (device_timed_)  // each iteration's time from the device's own events
      for (auto _ : state) state.SetIterationTime(*kernel_.timed_run());
    else if (cold_)
      for (auto _ : state) state.SetIterationTime(cold_call());
    else
      for (auto _ : state) kernel_.run();
  } catch (const std::exception& e) {  // a device fault mid-run: recorded with its reason
    threw_ = fmt::format("threw while timed: {}", e.what());
    state.SkipWithError(threw_.c_str());
  }
  likwid_marker_stop(region_, spec_.threads);
  for (auto& c : collectors_) c->stop();
  std::vector<Metric> metrics;
  for (auto& c : collectors_)
    for (auto& m : c->read()) metrics.push_back(std::move(m));
  if (pass_clock_) append_pass_times(*pass_clock_, passes_, metrics);
  // The window's readings go with the run Google Benchmark reports for this call, as its
  // timer's reading does: a counter holding their index, read back by the conversion
  // (sizing and warm-up calls are never reported, so their readings are never looked up).
  state.counters[kWindowCounter] = static_cast<double>(windows_.size());
  windows_.push_back(std::move(metrics));
  state.counters["flops"] =
      benchmark::Counter(work_.flops, benchmark::Counter::kIsIterationInvariantRate);
  state.SetBytesProcessed(static_cast<std::int64_t>(work_.bytes_at(MemoryLevel::main)) *
                          state.iterations());
}

}  // namespace ridgeline
