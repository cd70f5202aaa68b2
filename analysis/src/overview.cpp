#include "ridgeline/analysis/overview.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "ridgeline/analysis/ladder_comparison.hpp"
#include "ridgeline/analysis/where_ran.hpp"
#include "ridgeline/core/spelling.hpp"

namespace ridgeline {

namespace {

bool below(const OverviewRoof& a, const OverviewRoof& b) {
  return std::tie(a.threads, a.per_second) < std::tie(b.threads, b.per_second);
}

// The roof of each (device, dtype, unit) and each (device, level) at the most threads measured.
OverviewMachine machine_block(const MachineModel* m) {
  OverviewMachine out;
  if (!m) {
    out.absent = "no machine model: points without roofs";
    return out;
  }
  out.known = true;
  out.cpu =
      fmt::format("{}, family {} model {} ({:#x}), {} core{}", m->cpu_model, m->cpu_family,
                  m->cpu_model_number, m->cpu_model_number, m->cores, m->cores == 1 ? "" : "s");
  out.emulated = m->emulated;
  if (m->measured_clock_hz > 0)
    out.clock = fmt::format("{:.2f} GHz measured", m->measured_clock_hz / 1e9);
  for (const auto& g : m->gpus) out.gpus.push_back(g.name);
  std::map<std::tuple<Device, std::string, ComputeUnit>, OverviewRoof> compute;
  for (const auto& c : m->compute) {
    const OverviewRoof r{c.device,  c.dtype,      std::string(display_name(c.compute_unit)),
                         c.threads, c.per_second, c.unit,
                         c.isa,     "",           c.source};
    auto [it, fresh] = compute.try_emplace({c.device, c.dtype, c.compute_unit}, r);
    if (!fresh && below(it->second, r)) it->second = r;
  }
  for (auto& [key, r] : compute) out.compute.push_back(std::move(r));
  std::map<std::pair<Device, std::string>, OverviewRoof> memory;
  for (const auto& c : m->memory) {
    const OverviewRoof r{c.device, c.level, "",       c.threads, c.bytes_per_s,
                         "B/s",    c.isa,   c.kernel, c.source};
    auto [it, fresh] = memory.try_emplace({c.device, c.level}, r);
    if (!fresh && below(it->second, r)) it->second = r;
  }
  // Nearest level first (L1, L2, L3, DRAM), as the plot draws them from the top.
  for (auto& [key, r] : memory) out.memory.push_back(std::move(r));
  std::stable_sort(out.memory.begin(), out.memory.end(), [](const auto& a, const auto& b) {
    return std::tie(a.device, b.per_second) < std::tie(b.device, a.per_second);
  });
  return out;
}

std::vector<OverviewBest> best_per_op(const std::vector<RooflinePlacement>& placements) {
  std::vector<OverviewBest> out;
  std::map<std::tuple<std::string, std::string, Device>, std::size_t> index;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const RooflinePlacement& p = placements[i];
    if (!p.placeable || p.complexity_fit) continue;
    auto [it, fresh] = index.try_emplace({table_op(p), p.dtype, p.device}, out.size());
    if (fresh) out.push_back({table_op(p), p.dtype, p.device, i, 0, 0, 0, ""});
    OverviewBest& b = out[it->second];
    ++b.cases;
    const RooflinePlacement& held = placements[b.placement];
    // The fastest, unless above its roof (a concern, not a best): the rate a user of the op
    // can have, with its share of its own roof beside it. Not the highest share, which an
    // unfused chain at the bandwidth roof would win over a faster fused kernel.
    const auto key = [](const RooflinePlacement& q) {
      return std::make_pair(!q.above_roof, q.achieved);
    };
    if (!fresh && key(p) > key(held)) b.placement = i;
  }
  for (auto& b : out) {
    const RooflinePlacement& p = placements[b.placement];
    b.achieved = p.achieved;
    b.efficiency = p.attainable > 0 ? p.efficiency : 0;
    b.bound = p.attainable > 0 ? to_string(p.bound) : "";
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tie(a.device, a.op) < std::tie(b.device, b.op);
  });
  return out;
}

std::vector<OverviewGap> vendor_gaps(const std::vector<RooflinePlacement>& placements) {
  using Problem = std::tuple<std::string, std::string, std::string, std::string, std::string, int,
                             Device, CacheState>;
  struct Pair {
    std::optional<std::size_t> ours, vendor;
  };
  std::map<Problem, Pair> problems;
  std::vector<Problem> order;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const RooflinePlacement& p = placements[i];
    // Ours are the ladder's rungs and the fused kernels; an unfused chain is a baseline (on
    // a GPU, cuBLAS and two small kernels), not a contender.
    const bool vendor = p.role == KernelRole::vendor;
    if (!p.placeable || p.foreign || !(p.seconds > 0) ||
        (!vendor && p.role != KernelRole::ladder && p.role != KernelRole::fused))
      continue;
    const Problem key{p.op, p.params, p.dtype, p.pattern, p.fp_env, p.threads, p.device, p.cache};
    auto [it, fresh] = problems.try_emplace(key);
    if (fresh) order.push_back(key);
    auto& slot = vendor ? it->second.vendor : it->second.ours;
    if (!slot || placements[*slot].seconds > p.seconds) slot = i;
  }
  std::vector<OverviewGap> out;
  for (const auto& key : order) {
    const Pair& pair = problems[key];
    if (!pair.ours || !pair.vendor) continue;
    // Times, not rates: the same problem, whatever each side's FLOPs were known from.
    out.push_back({problem_label(placements[*pair.ours]) + ", " +
                       where_ran(placements[*pair.ours].device, placements[*pair.ours].threads),
                   *pair.ours, *pair.vendor,
                   placements[*pair.vendor].seconds / placements[*pair.ours].seconds});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.ratio < b.ratio; });
  return out;
}

std::string first_noise(const RooflinePlacement& p) {
  for (const auto& n : p.notes)
    if (n.kind == NoteKind::noise) return n.text;
  return "";
}

std::vector<OverviewConcern> concerns_of(const std::vector<RooflinePlacement>& placements,
                                         const RunContext& context) {
  std::map<ConcernKind, OverviewConcern> by_kind;
  // Each case by what sets it apart in the whole run (a concern of one case still says which).
  std::vector<std::string> names;
  for (const auto& p : placements) names.push_back(p.name);
  const std::vector<std::string> compact = compact_case_names(names);
  auto add = [&](ConcernKind kind, std::size_t i, const std::string& why) {
    OverviewConcern& c = by_kind[kind];
    c.kind = kind;
    if (c.why.empty()) c.why = why;
    c.what.push_back(compact[i]);
    c.placements.push_back(i);
  };
  double highest = 0;  // the highest share of a roof above it
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const RooflinePlacement& p = placements[i];
    if (p.above_roof) {
      add(ConcernKind::above_roof, i, "");
      highest = std::max(highest, p.efficiency);
    }
    switch (p.disposition) {
      case Disposition::incorrect:
      case Disposition::crashed:
      case Disposition::timed_out:
      case Disposition::error:
        add(ConcernKind::failed, i, p.reason);  // "incorrect: max rel err ..."
        break;
      case Disposition::not_supported:  // refused with its reason, as asked: nothing wrong
      case Disposition::skipped:
        break;
      default:  // ran (passed, or not verified: foreign, no reference) but not on the roofline
        if (!p.placeable && !p.complexity_fit) add(ConcernKind::not_placeable, i, p.reason);
    }
    if (p.noisy) add(ConcernKind::noisy, i, first_noise(p));
    if (p.throttled) add(ConcernKind::throttled, i, "the GPU held its clocks down while timed");
  }
  if (highest > 0)
    by_kind[ConcernKind::above_roof].why =
        fmt::format("up to {:.0f}% of the roof: bytes or FLOPs undercounted, or a ceiling too low",
                    100 * highest);
  for (const auto& c : context.collectors)
    if (!c.available && c.requested.value_or(false)) {  // the user asked for it
      OverviewConcern& o = by_kind[ConcernKind::collector_off];
      o.kind = ConcernKind::collector_off;
      if (o.why.empty()) o.why = c.reason;
      o.what.push_back(c.name);
    }
  std::vector<OverviewConcern> out;
  for (auto& [kind, c] : by_kind) out.push_back(std::move(c));
  return out;
}

std::vector<OverviewFusion> fusion_wins(const FusionAnalysis& fusion) {
  std::vector<OverviewFusion> out;
  for (std::size_t i = 0; i < fusion.pairs.size(); ++i) {
    const FusionPair& f = fusion.pairs[i];
    if (!(f.speedup > 0)) continue;
    std::string what = fmt::format("{} {} {}, {}, {}", f.op, f.dtype, f.params,
                                   where_ran(f.device, f.threads), f.fused.backend);
    if (!f.pattern.empty() && f.pattern != "normal") what += ", pattern=" + f.pattern;
    out.push_back({i, std::move(what), f.speedup, f.byte_ratio,
                   f.unfused.analytic.value - f.fused.analytic.value});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.speedup > b.speedup; });
  return out;
}

}  // namespace

constexpr Spelling<ConcernKind> kConcernSpellings[] = {
    {ConcernKind::above_roof, "above its roof", ""},
    {ConcernKind::failed, "failed", ""},
    {ConcernKind::not_placeable, "not placeable", ""},
    {ConcernKind::noisy, "noisy timing", ""},
    {ConcernKind::throttled, "GPU throttled", ""},
    {ConcernKind::collector_off, "collector did not run", ""}};
static_assert(spelled_in_order(kConcernSpellings, ConcernKind::collector_off));

std::string_view to_string(ConcernKind kind) {
  return spelling_of(kConcernSpellings, kind).json;
}

std::string table_op(const RooflinePlacement& p) {
  return !p.op.empty() || !p.foreign ? p.op : p.name.substr(0, p.name.find('/'));
}

Overview make_overview(const std::vector<RooflinePlacement>& placements,
                       const MachineModel* machine, const FusionAnalysis& fusion,
                       const RunContext& context) {
  return {placements.size(),       machine_block(machine),           best_per_op(placements),
          vendor_gaps(placements), concerns_of(placements, context), fusion_wins(fusion)};
}

}  // namespace ridgeline
