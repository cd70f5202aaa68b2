// The first screen's tables and lines (overview.hpp): the analysis model's numbers in the
// report's units, nothing recomputed.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ridgeline/analysis/where_ran.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/overview.hpp"
#include "table_cells.hpp"

namespace ridgeline {

using namespace reports;

namespace {

// "a, b, c and 4 more": a concern names a few of its cases, the tables name them all.
std::string first_few(const std::vector<std::string>& names, std::size_t shown) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > shown) s += fmt::format(" and {} more", names.size() - shown);
  return s;
}

}  // namespace

Table overview_roofs_table(const Overview& o) {
  Table t{{"roof", "on", "threads", "peak", "source"}, {}};
  auto threads = [](const OverviewRoof& r) {
    return r.device == Device::gpu ? text("GPU") : number(r.threads, std::to_string(r.threads));
  };
  // "vector units, avx512_bf16"; a memory roof's kernel and instructions, "copy, avx512".
  auto on = [](const std::string& first, const std::string& isa) {
    return text(isa.empty() || isa == first ? first : first.empty() ? isa : first + ", " + isa);
  };
  for (const auto& r : o.machine.compute) {
    const std::string unit = r.rate_unit == "OP/s" ? "GOP/s" : "GFLOP/s";
    t.rows.push_back({text(r.what), on(r.unit, r.instructions), threads(r),
                      number(r.per_second / 1e9, gflops(r.per_second) + " " + unit),
                      text(std::string(to_string(r.source)))});
  }
  for (const auto& r : o.machine.memory)
    t.rows.push_back({text(r.what), on(r.method, r.instructions), threads(r),
                      number(r.per_second / 1e9, gbytes(r.per_second) + " GB/s"),
                      text(std::string(to_string(r.source)))});
  return t;
}

Table overview_best_table(const Overview& o, const std::vector<RooflinePlacement>& placements) {
  Table t{{"op", "dtype", "fastest kernel", "problem", "GFLOP/s", "of roof", "bound"}, {}};
  for (const auto& b : o.best) {
    const RooflinePlacement& p = placements.at(b.placement);
    TableCell share = b.efficiency > 0 ? number(b.efficiency, percent(b.efficiency)) : none();
    t.rows.push_back({text(b.op), text(b.dtype), text(p.backend),
                      text(p.params.empty() ? where_ran(p.device, p.threads)
                                            : p.params + ", " + where_ran(p.device, p.threads)),
                      number(b.achieved / 1e9, gflops(b.achieved)), share,
                      text(b.bound.empty() ? "—" : b.bound)});
  }
  return t;
}

Table overview_gaps_table(const Overview& o, const std::vector<RooflinePlacement>& placements,
                          std::size_t limit) {
  // The ratio is of times (the vendor's over ours), so a rate known two ways compares alike.
  Table t{{"problem", "ours", "best vendor", "speed, ours ÷ vendor"}, {}};
  for (std::size_t i = 0; i < o.gaps.size() && i < limit; ++i) {
    const OverviewGap& g = o.gaps[i];
    const RooflinePlacement &ours = placements.at(g.ours), &vendor = placements.at(g.vendor);
    TableCell ratio = number(g.ratio, times(g.ratio));
    ratio.alarm = g.ratio < 0.5;
    t.rows.push_back({text(g.problem),
                      text(ours.backend + " " + gflops(ours.achieved) + " GFLOP/s"),
                      text(vendor.backend + " " + gflops(vendor.achieved) + " GFLOP/s"), ratio});
  }
  return t;
}

std::vector<std::string> overview_concern_lines(const Overview& o) {
  std::vector<std::string> out;
  for (const auto& c : o.concerns) {
    const bool collectors = c.kind == ConcernKind::collector_off;
    const std::string count = fmt::format(
        "{} {}{}", c.what.size(), collectors ? "collector" : "case", c.what.size() == 1 ? "" : "s");
    out.push_back(fmt::format("{}: {} ({}){}", to_string(c.kind), count, first_few(c.what, 3),
                              c.why.empty() ? "" : " — " + c.why));
  }
  return out;
}

std::vector<std::string> overview_fusion_lines(const Overview& o) {
  std::vector<std::string> out;
  for (const auto& f : o.fusion) {
    std::string bytes;  // in the page's units; none where fusing saves no traffic
    if (f.byte_ratio > 0 && std::fabs(f.byte_ratio - 1) > 0.01)
      bytes = fmt::format(
          ", {} {} bytes ({} a call)", times(std::max(f.byte_ratio, 1 / f.byte_ratio)),
          f.byte_ratio > 1 ? "fewer" : "more",
          si_rate(std::fabs(f.bytes_saved), "B") + (f.bytes_saved >= 0 ? " saved" : " added"));
    out.push_back(fmt::format("{}: fused {} {}{}", f.what,
                              times(f.speedup >= 1 ? f.speedup : 1 / f.speedup),
                              f.speedup >= 1 ? "faster" : "slower", bytes));
  }
  return out;
}

std::string overview_machine_line(const Overview& o) {
  if (!o.machine.known) return o.machine.absent;
  std::string s = o.machine.cpu;
  if (!o.machine.clock.empty()) s += ", " + o.machine.clock;
  for (const auto& g : o.machine.gpus) s += "; GPU " + g;
  if (!o.machine.emulated.empty()) s += "; " + o.machine.emulated;
  return s;
}

}  // namespace ridgeline
