#include "memory_sweep.hpp"

#include <cmath>

#include "ridgeline/analysis/memory_levels.hpp"

namespace ridgeline {

namespace {

std::vector<SweepPoint> points_of(const MemorySweep& sweep) {
  std::vector<SweepPoint> out;
  for (std::size_t i = 0; i < sweep.working_set_bytes.size(); ++i)
    out.push_back({sweep.working_set_bytes[i], sweep.bytes_per_s[i]});
  return out;
}

bool dram_reached(const MemorySweep& sweep, const MemorySweepOptions& options) {
  const std::int64_t last = sweep.working_set_bytes.back();
  if (last < options.dram_from_bytes) return false;
  const auto plateaus = find_plateaus(points_of(sweep));
  return !plateaus.empty() && plateaus.back().last_bytes == last &&
         plateaus.back().points >= options.dram_points;
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
    const double rate =
        measure_bandwidth(kernel, bytes, arrays, {isa}, options.seconds, options.trials).best;
    sweep.working_set_bytes.push_back(bytes);
    sweep.bytes_per_s.push_back(rate);
    if (point) point(bytes, rate);
    if (dram_reached(sweep, options)) break;
  }
  return sweep;
}

std::vector<MeasuredLevel> levels_of(const MemorySweep& sweep, const CacheSizes& reported) {
  const std::int64_t sizes[] = {reported.l1d * sweep.threads, reported.l2 * sweep.threads,
                                reported.l3};
  int caches = 0;
  for (std::int64_t s : sizes) caches += s > 0 ? 1 : 0;
  std::vector<MeasuredLevel> out;
  for (const NamedPlateau& n : name_plateaus(find_plateaus(points_of(sweep)), caches)) {
    MeasuredLevel l;
    l.name = n.name;
    l.kernel = sweep.kernel;
    l.threads = sweep.threads;
    l.first_bytes = n.plateau.first_bytes;
    l.last_bytes = n.plateau.last_bytes;
    l.bytes_per_s = n.plateau.bytes_per_s;
    l.capacity_bytes = n.capacity_bytes;
    const char* const names[] = {"L1", "L2", "L3"};
    for (int i = 0; i < 3; ++i)
      if (n.name == names[i]) l.reported_bytes = sizes[i];
    l.disagrees = sizes_disagree(l.capacity_bytes, l.reported_bytes);
    out.push_back(l);
  }
  return out;
}

}  // namespace ridgeline
