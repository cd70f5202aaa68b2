// The eltwise chain over its length L: fused, its intensity grows with L (one read and one
// write whatever L is) until it reaches the machine's ridge, past which the chain is
// compute-bound and fusing more ops no longer saves time; unfused, it stays flat.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "fusion_cases.hpp"
#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/op.hpp"

namespace ridgeline {

namespace {

// Past this many times the longest L run, an extrapolated crossing is not worth a number.
constexpr double kMaxExtrapolation = 64;

void find_ridge(EltwiseSweep& s, const MachineModel* machine) {
  if (!machine) {
    s.ridge_note = "no machine model: no ridge";
    return;
  }
  const Roof roof = roof_for(*machine, s.dtype, s.threads, s.device);
  s.ridge_intensity = ridge_point(roof, s.level);
  if (s.ridge_intensity <= 0) {
    s.ridge_note = fmt::format(
        "no ridge: the machine model has no usable {} peak or {} bandwidth at {} thread{}", s.dtype,
        s.level, roof.threads, roof.threads == 1 ? "" : "s");
    return;
  }
  const double ridge = s.ridge_intensity;
  const auto& pts = s.points;
  if (pts.front().intensity >= ridge) {
    s.ridge_note = fmt::format("at or past the {} ridge ({:.3g} FLOP/B) already at L = {}", s.level,
                               ridge, pts.front().length);
    return;
  }
  // Intensity grows about linearly in L (FLOPs per element do): interpolate in L.
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const auto& a = pts[i];
    const auto& b = pts[i + 1];
    if (a.intensity < ridge && b.intensity >= ridge) {
      s.ridge_length = static_cast<double>(a.length) +
                       (ridge - a.intensity) * static_cast<double>(b.length - a.length) /
                           (b.intensity - a.intensity);
      s.ridge_note = fmt::format("reaches the {} ridge ({:.3g} FLOP/B) between L = {} and {}",
                                 s.level, ridge, a.length, b.length);
      return;
    }
  }
  const auto& a = pts[pts.size() - 2];
  const auto& b = pts.back();
  const double slope = (b.intensity - a.intensity) / static_cast<double>(b.length - a.length);
  const double length = static_cast<double>(b.length) + (ridge - b.intensity) / slope;
  if (!usable(slope) || !usable(length) ||
      length > kMaxExtrapolation * static_cast<double>(b.length)) {
    s.ridge_note = fmt::format(
        "does not reach the {} ridge ({:.3g} FLOP/B): its intensity ({:.3g} FLOP/B at L = {}) "
        "does not grow towards it",
        s.level, ridge, b.intensity, b.length);
    return;
  }
  s.ridge_length = length;
  s.ridge_extrapolated = true;
  s.ridge_note = fmt::format(
      "below the {} ridge ({:.3g} FLOP/B) up to L = {} ({:.3g} FLOP/B); extrapolated from the "
      "last two lengths",
      s.level, ridge, b.length, b.intensity);
}

}  // namespace

std::vector<EltwiseSweep> eltwise_sweeps(const Run& run,
                                         const std::vector<RooflinePlacement>& placements,
                                         const MachineModel* machine) {
  const auto details = detail::case_details(run, placements);
  using Key = std::tuple<std::string, std::string, std::string, int, Device, std::string>;
  std::map<Key, std::size_t> index;  // backend, dtype, pattern, threads, device, params -> sweep
  std::vector<EltwiseSweep> sweeps;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const CaseDetails* d = details[i];
    const RooflinePlacement& p = placements[i];
    if (!d || !p.placeable || d->problem.op != "eltwise_chain") continue;
    const auto length = d->problem.params.dims.find("L");
    const std::string level = detail::comparison_level(p);
    if (length == d->problem.params.dims.end() || level.empty()) continue;
    Problem rest = d->problem;
    rest.params.dims.erase("L");
    const std::string params = params_label(rest);
    const auto [it, added] = index.try_emplace(
        Key{p.backend, p.dtype, d->problem.pattern, p.threads, p.device, params}, sweeps.size());
    if (added) {
      EltwiseSweep s;
      s.backend = p.backend;
      s.dtype = p.dtype;
      s.pattern = d->problem.pattern;
      s.device = p.device;
      s.params = params;
      s.threads = p.threads;
      s.fused = d->role == KernelRole::fused;
      s.level = level;
      sweeps.push_back(std::move(s));
    }
    EltwiseSweep& s = sweeps[it->second];
    const auto at = p.intensity.find(s.level);
    const bool seen =
        std::any_of(s.points.begin(), s.points.end(),
                    [&](const EltwiseSweepPoint& q) { return q.length == length->second; });
    if (at == p.intensity.end() || seen) continue;  // another level, or a repeated L
    s.points.push_back({length->second, i, p.seconds, p.achieved, at->second});
  }
  std::erase_if(sweeps, [](const EltwiseSweep& s) { return s.points.size() < 2; });
  for (auto& s : sweeps) {
    std::sort(s.points.begin(), s.points.end(),
              [](const auto& a, const auto& b) { return a.length < b.length; });
    find_ridge(s, machine);
  }
  return sweeps;
}

}  // namespace ridgeline
