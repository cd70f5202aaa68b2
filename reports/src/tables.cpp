#include "ridgeline/reports/tables.hpp"

#include <fmt/format.h>

#include "ridgeline/analysis/where_ran.hpp"
#include "ridgeline/core/spelling.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/table_columns.hpp"
#include "table_cells.hpp"

namespace ridgeline {

namespace {

using namespace reports;

std::string kib(std::int64_t bytes) {
  return fmt::format("{} KiB", bytes / 1024);
}
TableCell threads(Device device, int n) {
  return device == Device::gpu ? text(std::string(display_name(device)))
                               : number(n, std::to_string(n));
}

}  // namespace

Table compute_ceilings_table(const MachineModel& m) {
  Table t{{"compute", "threads", "measured", "theoretical", "of theoretical", "source"}, {}};
  for (const auto& c : m.compute) {
    const bool theory = c.theoretical_per_second > 0;
    t.rows.push_back(
        {text(c.method.empty() ? c.name : c.name + " (" + c.method + ")"),
         threads(c.device, c.threads), number(c.per_second, si_rate(c.per_second, c.unit)),
         theory ? number(c.theoretical_per_second, si_rate(c.theoretical_per_second, c.unit))
                : text(c.theoretical_reason),
         theory ? number(c.per_second / c.theoretical_per_second,
                         percent(c.per_second / c.theoretical_per_second))
                : text(""),
         text(std::string(to_string(c.source)))});
  }
  return t;
}

Table memory_ceilings_table(const MachineModel& m) {
  Table t{
      {"memory level", "kernel", "instructions", "threads", "bandwidth", "working set", "source"},
      {}};
  for (const auto& c : m.memory)
    t.rows.push_back(
        {text(c.level), text(c.kernel), text(c.device == Device::gpu ? c.method : c.isa),
         threads(c.device, c.threads), number(c.bytes_per_s, si_rate(c.bytes_per_s, "B/s")),
         number(static_cast<double>(c.working_set_bytes), kib(c.working_set_bytes)),
         text(std::string(to_string(c.source)))});
  return t;
}

namespace {

// Which size a level is placed and blocked with, in a few words; the evidence says why.
constexpr Spelling<CacheSizeDecision> kSizesUsed[] = {
    {CacheSizeDecision::confirmed, {}, "hwloc's (confirmed)"},
    {CacheSizeDecision::inconclusive, {}, "hwloc's (inconclusive)"},
    {CacheSizeDecision::replaced, {}, "measured (replaces hwloc's)"},
    {CacheSizeDecision::extra, {}, "none (hwloc reports no such level)"},
    {CacheSizeDecision::memory, {}, ""},
};
static_assert(spelled_in_order(kSizesUsed, CacheSizeDecision::memory));

}  // namespace

Table measured_levels_table(const MachineModel& m) {
  Table t{{"level", "sweep", "threads", "plateau", "bandwidth", "steps down at", "hwloc",
           "size used", "evidence"},
          {}};
  for (const MeasuredLevel& l : m.levels)
    t.rows.push_back(
        {text(l.name), text(l.kernel), number(l.threads, std::to_string(l.threads)),
         text(kib(l.first_bytes) + " – " + kib(l.last_bytes)),
         number(l.bytes_per_s, si_rate(l.bytes_per_s, "B/s")),
         l.capacity_bytes > 0 ? number(static_cast<double>(l.capacity_bytes), kib(l.capacity_bytes))
                              : text("—"),
         l.reported_bytes > 0 ? number(static_cast<double>(l.reported_bytes), kib(l.reported_bytes))
                              : text("—"),
         text(std::string(spelling_of(kSizesUsed, l.decision).human)), text(l.why)});
  return t;
}

Table ladder_table(const ReportInput& in) {
  Table t{{"problem", "threads", "backend", "GFLOP/s", "× best BLAS", "best BLAS"}, {}};
  for (const auto& r : in.ladder)
    for (const auto& b : r.rates)
      t.rows.push_back({text(problem_label(r)), number(r.threads, std::to_string(r.threads)),
                        text(b.backend), number(b.rate, gflops(b.rate)),
                        number(b.vs_best, fixed(b.vs_best, 2) + "×"), text(r.best_blas)});
  return t;
}

Table collectors_table(const RunContext& c) {
  Table t{{"collector", "status", "validation", "reason"}, {}};
  for (const auto& col : c.collectors)
    t.rows.push_back({text(col.name), text(col.available ? "available" : "unavailable"),
                      text(col.trust.empty() ? "not validated" : col.trust + ": " + col.validation),
                      text(col.reason)});
  return t;
}

Table pattern_table(const ReportInput& in) {
  Table t{{"case", "pattern", "GFLOP/s", "× first", "power", "SM clock", "GFLOP/J"}, {}};
  const auto opt = [](const std::optional<double>& v, double scale, const char* unit) {
    return v ? number(*v / scale, fixed(*v / scale, 1) + " " + unit) : text("—");
  };
  for (const auto& e : in.patterns)
    for (const auto& p : e.points)
      t.rows.push_back({text(e.case_name),
                        text(p.pattern + (p.throttled ? " (GPU throttled)" : "") +
                             (p.note.empty() ? "" : " — " + p.note)),
                        p.flop_rate > 0 ? number(p.flop_rate, gflops(p.flop_rate)) : text("—"),
                        p.vs_first > 0 ? number(p.vs_first, fixed(p.vs_first, 3)) : text("—"),
                        opt(p.power_w, 1, "W"), opt(p.sm_clock_hz, 1e6, "MHz"),
                        opt(p.flop_per_joule, 1e9, "")});
  return t;
}

Table power_cap_table(const ReportInput& in) {
  Table t{{"dtype", "pattern", "GFLOP/s at the cap", "power", "GFLOP/J", "measured by"}, {}};
  for (const auto& r : in.power_caps)
    t.rows.push_back({text(r.dtype), text(r.pattern), number(r.flop_rate, gflops(r.flop_rate)),
                      r.power_w ? number(*r.power_w, fixed(*r.power_w, 1) + " W") : none(),
                      r.flop_per_joule
                          ? number(*r.flop_per_joule / 1e9, fixed(*r.flop_per_joule / 1e9, 1))
                          : none(),
                      text(r.case_name)});
  return t;
}

std::string cell_field(const TableCell& cell) {
  if (!std::isnan(cell.value)) return csv_number(cell.value);
  return cell.text == "—" ? std::string() : cell.text;
}

const std::vector<Column<PassRow>>& pass_columns() {
  using R = const PassRow&;
  // What the chain is, in the CSV only; then the pass table's columns, an untimed pass's
  // cells empty but its name's.
  const auto timed = [](std::function<TableCell(const PassPoint&)> cell) {
    return [cell](R r) { return r.pass->seconds > 0 ? cell(*r.pass) : text(""); };
  };
  static const std::vector<Column<PassRow>> columns{
      {"op", [](R r) { return r.chain->op; }},
      {"params", [](R r) { return r.chain->params; }},
      {"dtype", [](R r) { return r.chain->dtype; }},
      {"pattern", [](R r) { return r.chain->pattern; }},
      {"threads", [](R r) { return std::to_string(r.chain->threads); }},
      {"device", [](R r) { return std::string(to_string(r.chain->device)); }},
      {"backend", [](R r) { return r.chain->backend; }},
      {"case", [](R r) { return r.chain->name; }},
      {"level", [](R r) { return r.chain->level; }},
      shown_column<PassRow>("pass", [](R r) { return text(r.pass->name); }),
      shown_column<PassRow>("time",
                            [](R r) {
                              const PassPoint& p = *r.pass;
                              return p.seconds > 0 ? number(p.seconds, duration(p.seconds))
                                                   : text("not timed");
                            }),
      shown_column<PassRow>("of the chain", timed([](const PassPoint& p) {
                              return number(p.share, percent(p.share));
                            })),
      shown_column<PassRow>("bytes", timed([](const PassPoint& p) {
                              return number(p.bytes, si_rate(p.bytes, "B"));
                            })),
      shown_column<PassRow>("bandwidth", timed([](const PassPoint& p) {
                              return number(p.bandwidth, si_rate(p.bandwidth, "B/s"));
                            })),
      shown_column<PassRow>("intensity (FLOP/B)", timed([](const PassPoint& p) {
                              return p.flops > 0 ? number(p.intensity, intensity(p.intensity))
                                                 : text("no FLOPs");
                            })),
      shown_column<PassRow>("GFLOP/s", timed([](const PassPoint& p) {
                              return number(p.achieved / 1e9, gflops(p.achieved));
                            })),
      shown_column<PassRow>("bound", timed([](const PassPoint& p) {
                              return text(p.bound.empty() ? "—" : to_string(p.bound));
                            })),
      shown_column<PassRow>("of its roof", timed([](const PassPoint& p) {
                              return p.roof > 0 ? number(p.roof, fixed(p.roof, 2)) : text("—");
                            })),
      shown_column<PassRow>(
          fmt::format("below {:.1f}", kPassRoofFloor),
          timed([](const PassPoint& p) { return text(p.below_floor ? "yes: loses here" : ""); }))};
  return columns;
}

std::vector<PassRow> pass_rows(const UnfusedChain& c) {
  std::vector<PassRow> rows;
  for (const auto& p : c.passes) rows.push_back({&c, &p});
  return rows;
}

Table unfused_pass_table(const UnfusedChain& c) {
  return table_of(pass_columns(), pass_rows(c));
}

std::string unfused_chain_title(const UnfusedChain& c) {
  return fmt::format("{} {} {}, pattern {}, {}, {}", c.op, c.params, c.dtype, c.pattern,
                     where_ran(c.device, c.threads), c.backend);
}

std::string unfused_chain_summary(const UnfusedChain& c) {
  std::string s = fmt::format("passes together {} per call", duration(c.passes_seconds));
  if (c.case_seconds > 0) s += fmt::format(", the case {}", duration(c.case_seconds));
  if (c.placed)
    s += fmt::format("; {} of the passes' time in memory-bound passes (traffic)",
                     percent(c.memory_bound_share));
  return s;
}

}  // namespace ridgeline
