#include "ridgeline/analysis/memory_hierarchy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "hierarchy_curves.hpp"

namespace ridgeline {

namespace {

using hierarchy::Curve;
using hierarchy::geometric_middle;
using hierarchy::significant;
using hierarchy::step_near;

std::string size_text(double bytes) {
  if (bytes >= 1048576) return fmt::format("{:.1f} MiB", bytes / 1048576);
  return fmt::format("{:.0f} KiB", bytes / 1024);
}

// Empty when every kernel and every pass shows `s` (a step of the first kernel's median),
// large against the measured noise, after a plateau of min_level_points; else why not.
std::string doubt(const hierarchy::Step& s, const std::vector<Curve>& curves,
                  const HierarchyOptions& o) {
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
std::vector<std::size_t> order_preserving_match(const std::vector<hierarchy::Step>& steps,
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
bool plateaus_on_both_sides(const hierarchy::Step& s, const HierarchyOptions& o) {
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
  for (const KernelSweeps& k : sweeps) curves.push_back(hierarchy::prepare(k, o));
  std::vector<ReportedCache> os;
  for (const ReportedCache& r : os_all)
    if (r.bytes > 0) os.push_back(r);

  Hierarchy h;
  for (const Curve& c : curves)
    h.noise.push_back({c.kernel, static_cast<int>(c.pass_plateaus.size()), c.sigma, c.from_passes});

  const Curve& first = curves.front();
  const std::vector<hierarchy::Step>& steps = first.steps;
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
      const hierarchy::Step& s = steps[*at[i]];
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
    const hierarchy::Step& s = steps[*best];
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
        if (const hierarchy::Step* s =
                step_near(c.steps, c.sigma, bd.lo, bd.hi, o.match_factor, o)) {
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
  dram.name = display_name(MemoryLevel::main);
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
