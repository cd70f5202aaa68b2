// The fusion pair table and the eltwise chain's sweep table, each defined once as its columns
// (table_columns.hpp): what the HTML and Markdown reports and the dashboard show, and every
// field of fusion.csv and sweep.csv (docs/fusion-analysis.md).
#include <fmt/format.h>

#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/table_columns.hpp"
#include "table_cells.hpp"

namespace ridgeline {

namespace {

using namespace reports;
using FR = const FusionRow&;

TableCell side_bytes_cell(const FusionSide& s) {
  std::vector<std::string> parts;
  if (s.analytic.value > 0) parts.push_back(si_rate(s.analytic.value, "B") + " analytic");
  if (s.counted.value > 0)
    parts.push_back(
        fmt::format("{} {}", si_rate(s.counted.value, "B"), to_string(s.counted.source)));
  if (parts.empty()) return none();
  return number(s.analytic.value > 0 ? s.analytic.value : s.counted.value,
                fmt::format("{}", fmt::join(parts, "; ")));
}

TableCell side_time_cell(const FusionSide& s) {
  return s.seconds > 0 ? number(s.seconds, duration(s.seconds)) : none();
}

TableCell side_roof_cell(const FusionSide& s) {
  return s.memory_roof > 0 ? number(s.memory_roof, percent(s.memory_roof) + " of " + s.roof_level)
                           : none();
}

TableCell ratio_cell(double r) {
  return r > 0 ? number(r, times(r)) : none();
}

// "1.2 mJ → 0.41 mJ: 2.9× less (gpu)", sorted by the ratio.
TableCell energy_cell(const FusionPair& p) {
  if (p.energy_ratio <= 0) return none();
  return number(p.energy_ratio,
                fmt::format("{} → {}: {} {} ({})", energy(p.unfused.joules), energy(p.fused.joules),
                            times(p.energy_ratio >= 1 ? p.energy_ratio : 1 / p.energy_ratio),
                            p.energy_ratio >= 1 ? "less" : "more", p.energy_domain));
}

// What a pair and a case without a twin both have (op, params, ...).
template <typename Get>
std::function<std::string(FR)> either(Get get) {
  return [get](FR r) -> std::string { return r.pair ? get(*r.pair) : get(*r.unpaired); };
}

// A pair's field; empty for a case without a twin.
std::function<std::string(FR)> of_pair(std::string (*get)(const FusionPair&)) {
  return [get](FR r) { return r.pair ? get(*r.pair) : std::string(); };
}

// A field of a pair's unfused or fused side; empty for a case without a twin.
std::function<std::string(FR)> of_side(bool fused, std::string (*get)(const FusionSide&)) {
  return [fused, get](FR r) {
    return r.pair ? get(fused ? r.pair->fused : r.pair->unfused) : std::string();
  };
}

// A side's case name or backend: a pair's, or a case's without a twin on its own side.
std::function<std::string(FR)> side_case(bool fused, bool backend) {
  return [fused, backend](FR r) -> std::string {
    if (r.pair) {
      const FusionSide& s = fused ? r.pair->fused : r.pair->unfused;
      return backend ? s.backend : s.name;
    }
    if (r.unpaired->fused != fused) return "";
    return backend ? r.unpaired->backend : r.unpaired->name;
  };
}

// The pair table's cell of a pair (its rows are the pairs).
std::function<TableCell(FR)> pair_cell(TableCell (*cell)(const FusionPair&)) {
  return [cell](FR r) { return cell(*r.pair); };
}

std::string yes_or_no(bool b) {
  return b ? "yes" : "no";
}

// Energy per call, each field empty where a side read none.
std::function<std::string(FR)> energy_field(std::string (*get)(const FusionPair&)) {
  return [get](FR r) { return r.pair && r.pair->energy_ratio > 0 ? get(*r.pair) : std::string(); };
}

}  // namespace

const std::vector<Column<FusionRow>>& fusion_columns() {
  using P = const FusionPair&;
  using S = const FusionSide&;
  const auto analytic = [](S s) { return csv_number(s.analytic.value); };
  const auto counted = [](S s) { return csv_number(s.counted.value); };
  const auto counted_source = [](S s) {
    return s.counted.value > 0 ? std::string(to_string(s.counted.source)) : "";
  };
  const auto seconds = [](S s) { return csv_number(s.seconds); };
  const auto roof = [](S s) {
    return s.memory_roof > 0 ? fmt::format("{:.4f}", s.memory_roof) : "";
  };
  const auto roof_level = [](S s) { return s.roof_level; };
  static const std::vector<Column<FusionRow>> columns{
      {"op", either([](const auto& x) { return x.op; }), "problem",
       pair_cell([](P p) { return text(p.op + " " + p.params); })},
      {"params", either([](const auto& x) { return x.params; })},
      {"dtype", either([](const auto& x) { return x.dtype; }), "dtype",
       pair_cell([](P p) { return text(p.dtype); })},
      {"pattern", either([](const auto& x) { return x.pattern; }), "pattern",
       pair_cell([](P p) { return text(p.pattern); })},
      {"threads", either([](const auto& x) { return std::to_string(x.threads); }), "threads",
       pair_cell([](P p) {
         return p.device == Device::gpu ? text(std::string(display_name(p.device)))
                                        : number(p.threads, std::to_string(p.threads));
       })},
      {"device", either([](const auto& x) { return std::string(to_string(x.device)); })},
      {"paired", [](FR r) { return yes_or_no(r.pair != nullptr); }},
      {"unfused_case", side_case(false, false)},
      {"fused_case", side_case(true, false)},
      {"unfused_backend", side_case(false, true)},
      {"fused_backend", side_case(true, true)},
      {"unfused_bytes_analytic", of_side(false, analytic), "unfused bytes",
       pair_cell([](P p) { return side_bytes_cell(p.unfused); })},
      {"fused_bytes_analytic", of_side(true, analytic), "fused bytes",
       pair_cell([](P p) { return side_bytes_cell(p.fused); })},
      {"unfused_bytes_counted", of_side(false, counted)},
      {"fused_bytes_counted", of_side(true, counted)},
      {"unfused_bytes_counted_source", of_side(false, counted_source)},
      {"fused_bytes_counted_source", of_side(true, counted_source)},
      {"byte_ratio", of_pair([](P p) { return csv_number(p.byte_ratio); }), "bytes unfused ÷ fused",
       pair_cell([](P p) {
         TableCell bytes = ratio_cell(p.byte_ratio);
         if (p.counted_byte_ratio > 0)
           bytes.text += fmt::format(" ({} counted)", times(p.counted_byte_ratio));
         return bytes;
       })},
      {"counted_byte_ratio", of_pair([](P p) { return csv_number(p.counted_byte_ratio); })},
      {"unfused_seconds_per_call", of_side(false, seconds), "unfused time",
       pair_cell([](P p) { return side_time_cell(p.unfused); })},
      {"fused_seconds_per_call", of_side(true, seconds), "fused time",
       pair_cell([](P p) { return side_time_cell(p.fused); })},
      {"speedup", of_pair([](P p) { return csv_number(p.speedup); }),
       "speedup (time unfused ÷ fused)", pair_cell([](P p) { return ratio_cell(p.speedup); })},
      {"speedup_over_byte_ratio", of_pair([](P p) { return csv_number(p.time_over_bytes); }),
       "speedup ÷ byte ratio", pair_cell([](P p) {
         return p.time_over_bytes > 0 ? number(p.time_over_bytes, fixed(p.time_over_bytes, 2))
                                      : none();
       })},
      {"unfused_memory_roof", of_side(false, roof), "unfused: memory roof",
       pair_cell([](P p) { return side_roof_cell(p.unfused); })},
      {"fused_memory_roof", of_side(true, roof), "fused: memory roof",
       pair_cell([](P p) { return side_roof_cell(p.fused); })},
      {"unfused_roof_level", of_side(false, roof_level)},
      {"fused_roof_level", of_side(true, roof_level)},
      {"fused_over_chain_compute",
       of_pair([](P p) { return csv_number(p.fused_over_chain_compute); })},
      {"unfused_joules_per_call", energy_field([](P p) { return csv_number(p.unfused.joules); }),
       "energy per call (unfused → fused)", pair_cell(energy_cell)},
      {"fused_joules_per_call", energy_field([](P p) { return csv_number(p.fused.joules); })},
      {"energy_ratio", energy_field([](P p) { return csv_number(p.energy_ratio); })},
      {"energy_domain", energy_field([](P p) { return p.energy_domain; })},
      {"notes",
       [](FR r) {
         return r.pair ? fmt::format("{}", fmt::join(r.pair->notes, "; ")) : r.unpaired->reason;
       },
       "notes", pair_cell([](P p) { return text(fmt::format("{}", fmt::join(p.notes, "; "))); })}};
  return columns;
}

const std::vector<Column<SweepRow>>& sweep_columns() {
  using R = const SweepRow&;
  static const std::vector<Column<SweepRow>> columns{
      {"op", [](R) -> std::string { return "eltwise_chain"; }},
      {"params", [](R r) { return r.sweep->params; }},
      {"dtype", [](R r) { return r.sweep->dtype; }},
      {"pattern", [](R r) { return r.sweep->pattern; }},
      {"threads", [](R r) { return std::to_string(r.sweep->threads); }},
      {"device", [](R r) { return std::string(to_string(r.sweep->device)); }},
      {"backend", [](R r) { return r.sweep->backend; }, "backend",
       [](R r) { return text(r.sweep->backend); }},
      {"fused", [](R r) { return yes_or_no(r.sweep->fused); }},
      {"L", [](R r) { return std::to_string(r.point->length); }, "L",
       [](R r) { return number(r.point->length, std::to_string(r.point->length)); }},
      {"seconds_per_call", [](R r) { return csv_number(r.point->seconds); }, "time",
       [](R r) { return number(r.point->seconds, duration(r.point->seconds)); }},
      {"gflops_per_s", [](R r) { return csv_number(r.point->achieved / 1e9); }, "GFLOP/s",
       [](R r) { return number(r.point->achieved, gflops(r.point->achieved)); }},
      {"intensity_flop_per_byte", [](R r) { return csv_number(r.point->intensity); },
       "intensity (FLOP/B)",
       [](R r) { return number(r.point->intensity, intensity(r.point->intensity)); }},
      {"level", [](R r) { return r.sweep->level; }},
      {"ridge_intensity_flop_per_byte", [](R r) { return csv_number(r.sweep->ridge_intensity); }},
      {"ridge_L", [](R r) { return csv_number(r.sweep->ridge_length); }},
      {"ridge_L_extrapolated",
       [](R r) {
         return r.sweep->ridge_length > 0 ? yes_or_no(r.sweep->ridge_extrapolated) : std::string();
       }},
      {"ridge_note", [](R r) { return r.sweep->ridge_note; }}};
  return columns;
}

}  // namespace ridgeline
