#include "memory_sweep.hpp"

#include <algorithm>
#include <cmath>

#include "ridgeline/analysis/memory_hierarchy.hpp"

namespace ridgeline {

namespace {

std::vector<SweepPoint> points_of(const std::vector<std::int64_t>& sizes,
                                  const std::vector<double>& rates) {
  std::vector<SweepPoint> out;
  for (std::size_t i = 0; i < sizes.size() && i < rates.size(); ++i)
    out.push_back({sizes[i], std::max(rates[i], 1.0)});  // a point that measured nothing
  return out;
}

bool dram_reached(const MemorySweep& sweep, const MemorySweepOptions& options) {
  const std::int64_t last = sweep.working_set_bytes.back();
  if (last < options.dram_from_bytes) return false;
  const auto plateaus = find_plateaus(points_of(sweep.working_set_bytes, sweep.bytes_per_s));
  return !plateaus.empty() && plateaus.back().last_bytes == last &&
         plateaus.back().points >= options.dram_points;
}

double measure_point(StreamKernel kernel, StreamIsa isa, std::int64_t bytes, StreamArrays& arrays,
                     const MemorySweepOptions& options) {
  return measure_bandwidth(kernel, bytes, arrays, {isa}, options.seconds, options.trials).best;
}

}  // namespace

MemorySweep sweep_memory(StreamKernel kernel, StreamArrays& arrays, StreamIsa isa,
                         const MemorySweepOptions& options,
                         const std::function<void(std::int64_t, double)>& point) {
  const int threads = arrays.threads();
  MemorySweep sweep;
  sweep.kernel = to_string(kernel);
  sweep.isa = to_string(isa);
  sweep.threads = threads;
  const double first = static_cast<double>(options.first_bytes_per_thread * threads);
  for (int k = 0;; ++k) {
    const auto bytes = static_cast<std::int64_t>(
        std::llround(first * std::exp2(static_cast<double>(k) / options.points_per_octave)));
    if (bytes > options.max_bytes) break;
    const double rate = measure_point(kernel, isa, bytes, arrays, options);
    sweep.working_set_bytes.push_back(bytes);
    sweep.bytes_per_s.push_back(rate);
    if (point) point(bytes, rate);
    if (dram_reached(sweep, options)) break;
  }
  sweep.passes.push_back(sweep.bytes_per_s);
  return sweep;
}

void repeat_sweep(MemorySweep& sweep, StreamKernel kernel, StreamIsa isa, StreamArrays& arrays,
                  const MemorySweepOptions& options,
                  const std::function<void(std::int64_t, double)>& point) {
  if (sweep.passes.empty()) sweep.passes.push_back(sweep.bytes_per_s);
  std::vector<double> rates;
  for (std::int64_t bytes : sweep.working_set_bytes) {
    rates.push_back(measure_point(kernel, isa, bytes, arrays, options));
    if (point) point(bytes, rates.back());
  }
  sweep.passes.push_back(std::move(rates));
  for (std::size_t i = 0; i < sweep.working_set_bytes.size(); ++i) {
    std::vector<double> at;
    for (const auto& pass : sweep.passes) at.push_back(pass[i]);
    sweep.bytes_per_s[i] = median_of(std::move(at));
  }
}

std::vector<MeasuredLevel> levels_of(std::vector<MemorySweep*> sweeps, const CacheSizes& reported) {
  if (sweeps.empty()) return {};
  // The read sweep places the levels.
  std::stable_partition(sweeps.begin(), sweeps.end(),
                        [](const MemorySweep* s) { return s->kernel == "read"; });
  const int threads = sweeps.front()->threads;
  std::vector<KernelSweeps> in;
  for (const MemorySweep* s : sweeps) {
    KernelSweeps k{s->kernel, {}};
    if (s->passes.empty()) k.passes.push_back(points_of(s->working_set_bytes, s->bytes_per_s));
    for (const auto& pass : s->passes) k.passes.push_back(points_of(s->working_set_bytes, pass));
    in.push_back(std::move(k));
  }
  const Hierarchy h =
      detect_hierarchy(in, {{std::string(display_name(MemoryLevel::l1)), reported.l1d * threads},
                            {std::string(display_name(MemoryLevel::l2)), reported.l2 * threads},
                            {std::string(display_name(MemoryLevel::l3)), reported.l3}});
  for (std::size_t i = 0; i < sweeps.size() && i < h.noise.size(); ++i)
    sweeps[i]->noise = h.noise[i].relative;
  std::vector<MeasuredLevel> out;
  for (const MemorySweep* s : sweeps)
    for (const HierarchyLevel& hl : h.levels)
      for (const HierarchyLevel::Span& sp : hl.spans) {
        if (sp.kernel != s->kernel) continue;
        MeasuredLevel l;
        l.name = hl.name;
        l.kernel = sp.kernel;
        l.threads = threads;
        l.first_bytes = sp.first_bytes;
        l.last_bytes = sp.last_bytes;
        l.bytes_per_s = sp.bytes_per_s;
        l.capacity_bytes = sp.capacity_bytes;
        l.reported_bytes = hl.reported_bytes;
        l.decision = hl.decision;
        l.disagrees = hl.decision == CacheSizeDecision::replaced;
        l.why = hl.why;
        out.push_back(l);
      }
  return out;
}

}  // namespace ridgeline
