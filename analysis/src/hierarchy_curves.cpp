#include "hierarchy_curves.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ridgeline::hierarchy {

namespace {

double slope_across(const SweepPlateau& p, const std::vector<SweepPoint>& points) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const SweepPoint& x : points) {
    if (x.working_set_bytes < p.first_bytes || x.working_set_bytes > p.last_bytes) continue;
    const double lx = std::log(static_cast<double>(x.working_set_bytes)),
                 ly = std::log(x.bytes_per_s);
    n += 1;
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  const double var = sxx - sx * sx / std::max(n, 1.0);
  if (n < 3 || var <= 0) return 0;
  const double slope = (sxy - sx * sy / n) / var;
  return std::fabs(
      slope * std::log(static_cast<double>(p.last_bytes) / static_cast<double>(p.first_bytes)));
}

std::vector<Step> steps_of(const std::vector<SweepPlateau>& p,
                           const std::vector<SweepPoint>& points) {
  std::vector<Step> s;
  for (std::size_t i = 0; i + 1 < p.size(); ++i)
    s.push_back({p[i].last_bytes, p[i + 1].first_bytes,
                 std::log(p[i].bytes_per_s / p[i + 1].bytes_per_s), p[i].points, p[i + 1].points,
                 slope_across(p[i], points), slope_across(p[i + 1], points)});
  return s;
}

// The plateaus without the ramps: a plateau shorter than min_level_points whose rate lies
// between its neighbours' is part of the step between them (a step spread over a few points
// by noise, or a level's rate softening before the next), not a plateau of its own.
std::vector<SweepPlateau> without_ramps(std::vector<SweepPlateau> p, const HierarchyOptions& o) {
  for (std::size_t i = 1; i + 1 < p.size();) {
    const double lo = std::min(p[i - 1].bytes_per_s, p[i + 1].bytes_per_s),
                 hi = std::max(p[i - 1].bytes_per_s, p[i + 1].bytes_per_s);
    if (p[i].points < o.min_level_points && p[i].bytes_per_s > lo && p[i].bytes_per_s < hi)
      p.erase(p.begin() + static_cast<std::ptrdiff_t>(i));
    else
      ++i;
  }
  return p;
}

std::vector<SweepPoint> sorted(std::vector<SweepPoint> pass) {
  std::sort(pass.begin(), pass.end(), [](const SweepPoint& a, const SweepPoint& b) {
    return a.working_set_bytes < b.working_set_bytes;
  });
  return pass;
}

// The smallest drop a step between plateaus of these sizes must have to be one: larger than
// min_drop and than z standard errors of the difference of two medians.
double threshold(const Step& s, double sigma, const HierarchyOptions& o) {
  const double se =
      1.2533 * sigma *
      std::sqrt(1.0 / std::max(1, s.upper_points) + 1.0 / std::max(1, s.lower_points));
  return std::max(-std::log(1 - o.min_drop), o.z * se);
}

}  // namespace

std::int64_t geometric_middle(std::int64_t a, std::int64_t b) {
  return std::llround(std::sqrt(static_cast<double>(a) * static_cast<double>(b)));
}

Curve prepare(const KernelSweeps& k, const HierarchyOptions& o) {
  if (k.passes.empty() || k.passes.front().empty())
    throw std::invalid_argument("a sweep of " + k.kernel + " has no points");
  Curve c;
  c.kernel = k.kernel;
  std::vector<std::vector<SweepPoint>> passes;
  for (const auto& p : k.passes) passes.push_back(sorted(p));
  const std::size_t n = passes.front().size();
  for (const auto& p : passes) {
    if (p.size() != n)
      throw std::invalid_argument("the passes of " + k.kernel + " measured different working sets");
    for (std::size_t i = 0; i < n; ++i)
      if (p[i].working_set_bytes != passes.front()[i].working_set_bytes)
        throw std::invalid_argument("the passes of " + k.kernel +
                                    " measured different working sets");
  }
  std::vector<double> spreads;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> rates, logs;
    for (const auto& p : passes) {
      rates.push_back(p[i].bytes_per_s);
      logs.push_back(std::log(p[i].bytes_per_s));
    }
    c.median.push_back({passes.front()[i].working_set_bytes, median_of(rates)});
    if (logs.size() > 1) {
      double mean = 0, ss = 0;
      for (double l : logs) mean += l / static_cast<double>(logs.size());
      for (double l : logs) ss += (l - mean) * (l - mean);
      spreads.push_back(std::sqrt(ss / static_cast<double>(logs.size() - 1)));
    }
  }
  PlateauOptions po;
  po.same_level = std::exp(-o.min_drop);
  po.min_noise = o.min_noise;
  for (const auto& p : passes) {
    c.pass_plateaus.push_back(without_ramps(find_plateaus(p, po), o));
    c.pass_steps.push_back(steps_of(c.pass_plateaus.back(), p));
  }
  c.plateaus = without_ramps(find_plateaus(c.median, po), o);
  c.steps = steps_of(c.plateaus, c.median);
  if (!spreads.empty()) {
    // The median of a sample standard deviation of k = passes - 1 degrees of freedom is
    // about sigma (1 - 2/(9k))^1.5 (Wilson-Hilferty).
    const double dof = static_cast<double>(passes.size() - 1);
    c.sigma = median_of(spreads) / std::pow(1 - 2 / (9 * dof), 1.5);
    c.from_passes = true;
  } else {
    std::vector<double> logs;
    for (const SweepPoint& x : c.median) logs.push_back(std::log(x.bytes_per_s));
    c.sigma = neighbour_noise(logs);
  }
  c.sigma = std::max(c.sigma, o.min_noise);
  return c;
}

bool significant(const Step& s, double sigma, const HierarchyOptions& o) {
  return s.drop > threshold(s, sigma, o);
}

const Step* step_near(const std::vector<Step>& steps, double sigma, std::int64_t lo,
                      std::int64_t hi, double factor, const HierarchyOptions& o) {
  const Step* best = nullptr;
  for (const Step& s : steps)
    if (significant(s, sigma, o) && s.near(lo, hi, factor) && (!best || s.drop > best->drop))
      best = &s;
  return best;
}

}  // namespace ridgeline::hierarchy
