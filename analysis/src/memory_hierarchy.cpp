#include "ridgeline/analysis/memory_hierarchy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace ridgeline {

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

std::string size_text(double bytes) {
  if (bytes >= 1048576) return fmt::format("{:.1f} MiB", bytes / 1048576);
  return fmt::format("{:.0f} KiB", bytes / 1024);
}

std::int64_t geometric_middle(std::int64_t a, std::int64_t b) {
  return std::llround(std::sqrt(static_cast<double>(a) * static_cast<double>(b)));
}

// A step down between two neighbouring plateaus of one sweep.
struct Step {
  std::int64_t lo = 0, hi = 0;  // the last working set above it, the first below it
  double drop = 0;              // log(rate above / rate below)
  int upper_points = 0, lower_points = 0;
  // How far each plateau's rate slopes across its own range (|log change| of a least-squares
  // line through its points against log size): a flat plateau is a level, a slope is not.
  double upper_slope = 0, lower_slope = 0;
  bool near(std::int64_t lo2, std::int64_t hi2, double factor) const {
    return static_cast<double>(lo2) <= static_cast<double>(hi) * factor &&
           static_cast<double>(hi2) >= static_cast<double>(lo) / factor;
  }
};

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

// One kernel's sweeps prepared: the median of its passes at each point, the noise measured
// from their spread, and the plateaus of the median and of each pass.
struct Curve {
  std::string kernel;
  std::vector<SweepPoint> median;
  double sigma = 0;
  bool from_passes = false;
  std::vector<SweepPlateau> plateaus;
  std::vector<std::vector<SweepPlateau>> pass_plateaus;
  std::vector<Step> steps;                    // of the median
  std::vector<std::vector<Step>> pass_steps;  // of each pass
};

std::vector<SweepPoint> sorted(std::vector<SweepPoint> pass) {
  std::sort(pass.begin(), pass.end(), [](const SweepPoint& a, const SweepPoint& b) {
    return a.working_set_bytes < b.working_set_bytes;
  });
  return pass;
}

// The spread of log rate between neighbouring points (a robust standard deviation): the
// noise of a sweep measured once.
double neighbour_sigma(const std::vector<SweepPoint>& p) {
  std::vector<double> d;
  for (std::size_t i = 1; i < p.size(); ++i)
    d.push_back(std::fabs(std::log(p[i].bytes_per_s / p[i - 1].bytes_per_s)));
  return 1.4826 * median_of(std::move(d)) / std::sqrt(2.0);
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
    c.sigma = neighbour_sigma(c.median);
  }
  c.sigma = std::max(c.sigma, o.min_noise);
  return c;
}

// The smallest drop a step between plateaus of these sizes must have to be one: larger than
// min_drop and than z standard errors of the difference of two medians.
double threshold(const Step& s, double sigma, const HierarchyOptions& o) {
  const double se =
      1.2533 * sigma *
      std::sqrt(1.0 / std::max(1, s.upper_points) + 1.0 / std::max(1, s.lower_points));
  return std::max(-std::log(1 - o.min_drop), o.z * se);
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

// Empty when every kernel and every pass shows `s` (a step of the first kernel's median),
// large against the measured noise, after a plateau of min_level_points; else why not.
std::string doubt(const Step& s, const std::vector<Curve>& curves, const HierarchyOptions& o) {
  constexpr double kAgree = 1.6;  // about two points at three per octave
  const Curve& first = curves.front();
  if (s.upper_points < o.min_level_points)
    return fmt::format("the plateau before it has {} points, fewer than {}", s.upper_points,
                       o.min_level_points);
  if (s.drop <= std::max(-std::log(1 - o.min_drop), o.z * first.sigma))
    return fmt::format("its drop ({:.0f}%) is within {:g}x the {} sweep's noise ({:.1f}%)",
                       100 * (1 - std::exp(-s.drop)), o.z, first.kernel, 100 * first.sigma);
  for (const Curve& c : curves) {
    if (c.pass_plateaus.size() < 2)
      return fmt::format("{} was swept once: a size is replaced only on repeated sweeps", c.kernel);
    if (!step_near(c.steps, c.sigma, s.lo, s.hi, kAgree, o))
      return fmt::format("the {} sweep shows no such step", c.kernel);
    for (std::size_t p = 0; p < c.pass_plateaus.size(); ++p)
      if (!step_near(c.pass_steps[p], c.sigma, s.lo, s.hi, kAgree, o))
        return fmt::format("pass {} of {} of the {} sweep does not show it", p + 1,
                           c.pass_plateaus.size(), c.kernel);
  }
  return "";
}

// Which of the sizes os[first, last) each step of `pool` (in order, no more than the sizes)
// ends: order kept, the sum of |log(step / size)| the least (dynamic programming).
std::vector<std::size_t> order_preserving_match(const std::vector<Step>& steps,
                                                const std::vector<std::size_t>& pool,
                                                const std::vector<ReportedCache>& os,
                                                std::size_t first, std::size_t last) {
  const std::size_t p = pool.size(), n = last - first;
  const auto cost = [&](std::size_t q, std::size_t i) {
    return std::fabs(
        std::log(static_cast<double>(geometric_middle(steps[pool[q]].lo, steps[pool[q]].hi)) /
                 static_cast<double>(os[first + i].bytes)));
  };
  // best[q][i]: the least cost of the first q steps ending among the first i sizes.
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> best(p + 1, std::vector<double>(n + 1, inf));
  for (std::size_t i = 0; i <= n; ++i) best[0][i] = 0;
  for (std::size_t q = 1; q <= p; ++q)
    for (std::size_t i = q; i <= n; ++i)
      best[q][i] = std::min(best[q][i - 1], best[q - 1][i - 1] + cost(q - 1, i - 1));
  std::vector<std::size_t> out(p);
  for (std::size_t q = p, i = n; q > 0; --i)
    if (best[q][i] != best[q][i - 1]) out[--q] = first + i - 1;
  return out;
}

// A level the OS does not report is a plateau: on either side of its step min_extra_points
// or more whose rate slopes by less than half the step (a VM's share of a shared L3 ending
// softens the rate over an octave or two, which a fit cuts into pieces with steps between
// them; none of those is a level).
bool plateaus_on_both_sides(const Step& s, const HierarchyOptions& o) {
  return s.upper_points >= o.min_extra_points && s.lower_points >= o.min_extra_points &&
         s.upper_slope < s.drop / 2 && s.lower_slope < s.drop / 2;
}

// Where one level ends in the first kernel's sweep: a measured step, or (the OS's size kept
// without a step to show it) a split at that size.
struct Boundary {
  std::int64_t lo = 0, hi = 0;  // points <= lo are below it, points >= hi above
  bool measured = false;
  std::string name;  // the level that ends here
  CacheSizeDecision decision = CacheSizeDecision::confirmed;
  std::int64_t reported = 0;
  std::string why;
};

// A kernel's span of the level between working sets (after, upto]: the longest plateau there
// (the first of equals), clipped to it. A level can hold more than one plateau (an L3 that
// softens where a VM's share of it ends, or an OS's size kept where the sweep stepped down
// sooner); its own rate is where it serves longest, not a slope or ramp within it.
HierarchyLevel::Span span_of(const Curve& c, std::int64_t after, std::int64_t upto,
                             std::int64_t capacity) {
  HierarchyLevel::Span best;
  best.kernel = c.kernel;
  best.capacity_bytes = capacity;
  for (const SweepPlateau& p : c.plateaus) {
    std::vector<double> rates;
    HierarchyLevel::Span sp = best;
    for (const SweepPoint& x : c.median)
      if (x.working_set_bytes >= p.first_bytes && x.working_set_bytes <= p.last_bytes &&
          x.working_set_bytes > after && x.working_set_bytes <= upto) {
        if (rates.empty()) sp.first_bytes = x.working_set_bytes;
        sp.last_bytes = x.working_set_bytes;
        rates.push_back(x.bytes_per_s);
      }
    sp.points = static_cast<int>(rates.size());
    sp.bytes_per_s = median_of(std::move(rates));
    if (sp.points > best.points) best = sp;
  }
  return best;
}

}  // namespace

Hierarchy detect_hierarchy(const std::vector<KernelSweeps>& sweeps,
                           const std::vector<ReportedCache>& os_all, const HierarchyOptions& o) {
  if (sweeps.empty()) throw std::invalid_argument("no sweeps to find the memory hierarchy in");
  std::vector<Curve> curves;
  for (const KernelSweeps& k : sweeps) curves.push_back(prepare(k, o));
  std::vector<ReportedCache> os;
  for (const ReportedCache& r : os_all)
    if (r.bytes > 0) os.push_back(r);

  Hierarchy h;
  for (const Curve& c : curves)
    h.noise.push_back({c.kernel, static_cast<int>(c.pass_plateaus.size()), c.sigma, c.from_passes});

  const Curve& first = curves.front();
  const std::vector<Step>& steps = first.steps;
  std::vector<bool> taken(steps.size(), false);
  std::vector<std::optional<std::size_t>> at(os.size());  // the step that ends each cache

  // Each OS size a step down confirms, in order: the largest step within match_factor of it,
  // where no larger step comes before it in what the OS says is this level (a larger one
  // there means the level ended sooner: a VM reporting the host's L3 of 508 MiB, its DRAM
  // stepping down 17% near 256 MiB).
  std::size_t next = 0;
  for (std::size_t i = 0; i < os.size(); ++i) {
    std::optional<std::size_t> best;
    for (std::size_t k = next; k < steps.size(); ++k)
      if (significant(steps[k], first.sigma, o) &&
          steps[k].near(os[i].bytes, os[i].bytes, o.match_factor) &&
          (!best || steps[k].drop > steps[*best].drop))
        best = k;
    if (!best) continue;
    bool larger_before = false;
    for (std::size_t k = next; k < *best; ++k)
      larger_before |= significant(steps[k], first.sigma, o) && steps[k].drop > steps[*best].drop;
    if (larger_before) continue;
    at[i] = best;
    taken[*best] = true;
    next = *best + 1;
  }

  std::vector<Boundary> bounds;
  std::vector<std::string> whys(os.size());
  std::vector<CacheSizeDecision> decisions(os.size(), CacheSizeDecision::confirmed);
  // The OS sizes no step confirms, in runs between two confirmed ones (or the ends): the
  // largest of the other steps between those, as many as the run has sizes at most, each
  // given in order to the size nearest it (in log size). The step replaces the size on strong
  // evidence; otherwise the size is kept and the sweep was inconclusive.
  std::vector<std::optional<std::size_t>> candidate(os.size());
  for (std::size_t i = 0; i < os.size();) {
    if (at[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < os.size() && !at[j]) ++j;
    const std::size_t from = i > 0 ? *at[i - 1] + 1 : 0, to = j < os.size() ? *at[j] : steps.size();
    std::vector<std::size_t> pool;
    for (std::size_t k = from; k < to; ++k)
      if (significant(steps[k], first.sigma, o)) pool.push_back(k);
    std::stable_sort(pool.begin(), pool.end(),
                     [&](std::size_t a, std::size_t b) { return steps[a].drop > steps[b].drop; });
    pool.resize(std::min(pool.size(), j - i));
    std::sort(pool.begin(), pool.end());
    const auto sizes = order_preserving_match(steps, pool, os, i, j);
    for (std::size_t q = 0; q < pool.size(); ++q) candidate[sizes[q]] = pool[q];
    i = j;
  }
  for (std::size_t i = 0; i < os.size(); ++i) {
    const std::string b = size_text(static_cast<double>(os[i].bytes));
    if (at[i]) {
      const Step& s = steps[*at[i]];
      whys[i] = fmt::format("{} steps down {:.0f}% at {} to {}, within {:g}x of the OS's {}",
                            first.kernel, 100 * (1 - std::exp(-s.drop)), size_text(s.lo),
                            size_text(s.hi), o.match_factor, b);
      continue;
    }
    const std::optional<std::size_t> best = candidate[i];
    decisions[i] = CacheSizeDecision::inconclusive;
    if (!best) {
      whys[i] = fmt::format(
          "no step down near the OS's {} beyond the noise ({:.1f}%): the OS's size is kept", b,
          100 * first.sigma);
      continue;
    }
    const Step& s = steps[*best];
    const std::string why = doubt(s, curves, o);
    const std::string seen =
        fmt::format("{} steps down {:.0f}% at {} to {}, not near the OS's {}", first.kernel,
                    100 * (1 - std::exp(-s.drop)), size_text(s.lo), size_text(s.hi), b);
    if (!why.empty()) {
      whys[i] = seen + ", but " + why + ": the OS's size is kept";
      continue;
    }
    at[i] = best;
    taken[*best] = true;
    decisions[i] = CacheSizeDecision::replaced;
    whys[i] = fmt::format(
        "{}; every kernel and all {} passes show it, {:.0f}x the noise: the "
        "measured size is used",
        seen, first.pass_plateaus.size(), s.drop / first.sigma);
  }

  // The levels end at: each cache's step or size, and any other step every kernel and pass
  // shows (a level the OS does not report). The last plateau is DRAM.
  const std::int64_t dram_first = first.plateaus.empty() ? 0 : first.plateaus.back().first_bytes;
  for (std::size_t i = 0; i < os.size(); ++i) {
    Boundary bd;
    bd.name = os[i].name;
    bd.decision = decisions[i];
    bd.reported = os[i].bytes;
    bd.why = whys[i];
    if (at[i]) {
      bd.lo = steps[*at[i]].lo;
      bd.hi = steps[*at[i]].hi;
      bd.measured = true;
    } else {
      // Kept without a step: split at the OS's size, never inside the DRAM plateau.
      bd.lo = bd.hi = os[i].bytes;
      if (!steps.empty() && bd.hi >= dram_first) {
        bd.lo = steps.back().lo;
        bd.hi = steps.back().hi;
      }
    }
    bounds.push_back(bd);
  }
  for (std::size_t k = 0; k < steps.size(); ++k)
    if (!taken[k] && significant(steps[k], first.sigma, o) && doubt(steps[k], curves, o).empty() &&
        plateaus_on_both_sides(steps[k], o)) {
      Boundary bd;
      bd.lo = steps[k].lo;
      bd.hi = steps[k].hi;
      bd.measured = true;
      bd.decision = CacheSizeDecision::extra;
      bd.why = fmt::format(
          "a level the OS does not report: every kernel and pass steps down at {} "
          "to {}",
          size_text(steps[k].lo), size_text(steps[k].hi));
      bounds.push_back(bd);
    }
  std::stable_sort(bounds.begin(), bounds.end(),
                   [](const Boundary& a, const Boundary& b) { return a.hi < b.hi; });
  int closed = 0;  // caches named so far
  for (Boundary& bd : bounds) {
    if (bd.decision != CacheSizeDecision::extra) {
      ++closed;
      continue;
    }
    if (os.empty()) {  // the OS reports no cache: every level is one it does not report
      bd.name = fmt::format("L{}", ++closed);
      continue;
    }
    bd.name = closed == 0                            ? "L0"
              : closed < static_cast<int>(os.size()) ? fmt::format("L{}-L{}", closed, closed + 1)
                                                     : fmt::format("L{}-DRAM", os.size());
  }

  // Each kernel's points above its last boundary: > this working set.
  std::vector<std::int64_t> after(curves.size(), 0);
  for (const Boundary& bd : bounds) {
    HierarchyLevel l;
    l.name = bd.name;
    l.decision = bd.decision;
    l.reported_bytes = bd.reported;
    l.why = bd.why;
    if (bd.measured) l.measured_bytes = geometric_middle(bd.lo, bd.hi);
    l.used_bytes = bd.decision == CacheSizeDecision::replaced ? l.measured_bytes : bd.reported;
    for (std::size_t ci = 0; ci < curves.size(); ++ci) {
      const Curve& c = curves[ci];
      // Each kernel ends the level at its own step near the first kernel's, where it has one.
      std::int64_t lo = bd.lo, hi = bd.hi;
      if (ci > 0 && bd.measured)
        if (const Step* s = step_near(c.steps, c.sigma, bd.lo, bd.hi, o.match_factor, o)) {
          lo = s->lo;
          hi = s->hi;
        }
      HierarchyLevel::Span sp =
          span_of(c, after[ci], lo, bd.measured ? geometric_middle(lo, hi) : 0);
      after[ci] = bd.measured ? hi - 1 : hi;
      if (sp.points > 0) l.spans.push_back(sp);
    }
    h.levels.push_back(std::move(l));
  }
  HierarchyLevel dram;
  dram.name = "DRAM";
  dram.decision = CacheSizeDecision::memory;
  for (const Curve& c : curves) {
    if (c.plateaus.empty()) continue;
    const SweepPlateau& p = c.plateaus.back();
    dram.spans.push_back({c.kernel, p.first_bytes, p.last_bytes, p.bytes_per_s, p.points, 0});
  }
  if (!dram.spans.empty()) h.levels.push_back(std::move(dram));
  return h;
}

}  // namespace ridgeline
