#include "ridgeline/reports/results_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ridgeline/analysis/overview.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/spelling.hpp"
#include "ridgeline/reports/format.hpp"
#include "table_cells.hpp"

namespace ridgeline {

namespace {

using namespace reports;
using C = ResultColumn;
using G = ColumnGroup;

TableCell number_if(bool present, double v, std::string s) {
  return present ? number(v, std::move(s)) : text("");
}

TableCell notes_cell(const std::vector<Note>& notes) {
  TableCell c = text(join_notes(notes));
  for (const auto& n : notes) c.lines.push_back(fmt::format("{}: {}", to_string(n.kind), n.text));
  return c;
}

std::string yes_no(bool b) {
  return b ? "yes" : "no";
}

}  // namespace

const std::vector<ResultColumnSpec>& result_columns() {
  static const std::vector<ResultColumnSpec> columns{
      {C::case_name, "case", "the case's name: op, params, dtype, pattern, threads, backend",
       G::identity, false},
      {C::op, "op", "the operation", G::identity, true},
      {C::backend, "backend", "the kernel that ran it", G::identity, true},
      {C::device, "device", "where it ran, and so whose ceilings place it", G::identity, true},
      {C::unit, "unit",
       "the unit its arithmetic ran on (vector units, matrix engine, CUDA cores, tensor cores), "
       "whose roof places it",
       G::identity, true},
      {C::dtype, "dtype", "the element type", G::identity, true},
      {C::threads, "threads", "threads it ran on (GPU: the device)", G::identity, true},
      {C::gflops, "GFLOP/s", "FLOPs per call (counted or analytic) over the time per call", G::rate,
       false},
      {C::time, "time per call", "the median repetition's time per call (timed)", G::time, false},
      {C::min, "min", "the fastest repetition's time per call", G::time, true},
      {C::max, "max", "the slowest repetition's time per call", G::time, true},
      {C::cv, "cv", "the repetitions' coefficient of variation, and whether the timing was noisy",
       G::time, false},
      {C::repetitions, "repetitions", "timed repetitions", G::time, true},
      {C::intensity, "intensity (FLOP/B)", "FLOPs over the bytes of the level it is placed at",
       G::roofline, false},
      {C::level, "level", "the memory level it is placed at", G::roofline, false},
      {C::attainable, "attainable GFLOP/s", "the roof at its intensity (the machine's ceilings)",
       G::roofline, false},
      {C::efficiency, "efficiency", "achieved over attainable", G::roofline, false},
      {C::faster_unit, "faster unit",
       "another unit of the machine with a higher roof for the dtype: its measured peak, and "
       "how many times the point's own",
       G::rate, true},
      {C::energy, "GFLOP/J",
       "FLOPs per joule of the device's energy counter over the timed calls (NVML: the GPU; "
       "RAPL: package 0), derived",
       G::rate, true},
      {C::bound, "bound", "the roof that binds it: compute or a memory level", G::roofline, false},
      {C::sources, "sources (FLOPs, bytes)", "how the FLOPs and the bytes were known",
       G::provenance, true},
      {C::validation, "validation", "the result against the op's reference", G::provenance, true},
      {C::notes, "notes", "how it was placed: level, rate, dtype, threads, ceilings, origin",
       G::provenance, true},
      {C::guidance, "guidance", "where the point is and what would move it", G::provenance, true}};
  return columns;
}

constexpr Spelling<ColumnGroup> kGroupSpellings[] = {{ColumnGroup::identity, "identity", ""},
                                                     {ColumnGroup::time, "time", ""},
                                                     {ColumnGroup::rate, "rate", ""},
                                                     {ColumnGroup::roofline, "roofline", ""},
                                                     {ColumnGroup::provenance, "provenance", ""}};
static_assert(spelled_in_order(kGroupSpellings, ColumnGroup::provenance));

std::string_view to_string(ColumnGroup group) {
  return spelling_of(kGroupSpellings, group).json;
}

const ResultColumnSpec& result_column(ResultColumn column) {
  return result_columns()[static_cast<std::size_t>(column)];
}

TableCell result_cell(const RooflinePlacement& p, ResultColumn column) {
  const RepetitionSamples& r = p.repetitions;
  const bool placed = p.placeable;
  const bool roof = placed && p.attainable > 0;
  switch (column) {
    case C::case_name:
      return text(p.throttled ? p.name + " (GPU throttled)" : p.name);
    case C::op:
      return text(p.op);
    case C::backend:
      return text(p.backend);
    case C::device:
      return text(std::string(display_name(p.device)));
    case C::unit:
      return text(p.compute_unit ? std::string(display_name(*p.compute_unit)) : "");
    case C::dtype:
      return text(p.dtype);
    case C::threads:
      return p.device == Device::gpu ? text(std::string(display_name(p.device)))
                                     : number(p.threads, std::to_string(p.threads));
    case C::gflops:
      return number_if(placed, p.achieved, gflops(p.achieved));
    case C::time:
      return number_if(p.seconds > 0, p.seconds, duration(p.seconds));
    case C::min:
      return number_if(!r.seconds.empty(), r.min, duration(r.min));
    case C::max:
      return number_if(!r.seconds.empty(), r.max, duration(r.max));
    case C::cv:  // a single repetition can be noisy too (its notes say why)
      if (r.seconds.size() < 2) return text(p.noisy ? "noisy" : "");
      return number(r.cv, fmt::format("{:.1f}%{}", 100 * r.cv, p.noisy ? ", noisy" : ""));
    case C::repetitions:
      return number(static_cast<double>(r.seconds.size()), std::to_string(r.seconds.size()));
    case C::intensity:
      return number_if(placed, p.level_intensity, intensity(p.level_intensity));
    case C::level:
      return text(placed ? p.level : "");
    case C::attainable:
      return number_if(roof, p.attainable, gflops(p.attainable));
    case C::efficiency: {
      TableCell c = number_if(roof, p.efficiency,
                              percent(p.efficiency) + (p.above_roof ? " above roof" : ""));
      c.alarm = roof && p.above_roof;
      return c;
    }
    case C::faster_unit:
      if (!p.faster_unit || !roof) return text("");
      return number(
          p.faster_unit->per_second / 1e9,
          fmt::format("{}: {} ({:.1f}x)", display_name(p.faster_unit->compute_unit),
                      gflops(p.faster_unit->per_second), p.faster_unit->per_second / p.attainable));
    case C::energy:
      return number_if(p.flop_per_joule > 0, p.flop_per_joule / 1e9,
                       fmt::format("{:.4g} ({})", p.flop_per_joule / 1e9, p.energy_domain));
    case C::bound:
      return text(placed ? to_string(p.bound) : "");
    case C::sources:
      return text(fmt::format("{}, {}", to_string(p.flops_source), to_string(p.bytes_source)));
    case C::validation:
      return text(placed ? std::string(to_string(p.disposition))
                         : fmt::format("{}: {}", to_string(p.disposition), p.reason));
    case C::notes:
      return notes_cell(p.notes);
    case C::guidance:
      return text(p.guidance);
  }
  return text("");
}

std::vector<OpResults> results_by_op(const std::vector<RooflinePlacement>& placements) {
  std::vector<OpResults> out;
  std::vector<std::vector<std::string>> names;  // per op, its rows' full names
  for (const auto& p : placements) {
    if (!p.placeable) continue;
    const std::string op = table_op(p);  // a foreign benchmark's name where it has no op
    auto it = std::find_if(out.begin(), out.end(), [&](const OpResults& o) { return o.op == op; });
    if (it == out.end()) {
      it = out.insert(out.end(), {op, {}});
      for (const auto& c : result_columns()) it->table.headers.emplace_back(c.header);
      names.emplace_back();
    }
    auto& row = it->table.rows.emplace_back();
    for (const auto& c : result_columns()) row.push_back(result_cell(p, c.column));
    names[static_cast<std::size_t>(it - out.begin())].push_back(row.front().text);
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::vector<std::string> compact = compact_case_names(names[i]);
    for (std::size_t r = 0; r < compact.size(); ++r) {
      TableCell& name = out[i].table.rows[r].front();
      name.tooltip = name.text;
      name.text = compact[r];
    }
  }
  return out;
}

Table results_columns(const Table& table, bool folded) {
  const auto& columns = result_columns();
  Table t;
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (c == 0 || columns[c].folded == folded) t.headers.push_back(table.headers.at(c));
  for (const auto& row : table.rows) {
    auto& out = t.rows.emplace_back();
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (c == 0 || columns[c].folded == folded) out.push_back(row.at(c));
    if (folded && !out.front().tooltip.empty()) out.front().text = out.front().tooltip;
  }
  return t;
}

Table unplaced_table(const std::vector<RooflinePlacement>& placements) {
  Table t{{"case", "why", "notes"}, {}};
  for (const auto& p : placements)
    if (!p.placeable) t.rows.push_back({text(p.name), text(p.reason), notes_cell(p.notes)});
  return t;
}

const std::vector<ResultCsvField>& results_csv_fields() {
  using P = const RooflinePlacement&;
  static const std::vector<ResultCsvField> fields{
      {"case", C::case_name, [](P p) { return p.name; }},
      {"backend", C::backend, [](P p) { return p.backend; }},
      {"op", C::op, [](P p) { return p.op; }},
      {"dtype", C::dtype, [](P p) { return p.dtype; }},
      {"params", C::case_name, [](P p) { return p.params; }},
      {"threads", C::threads, [](P p) { return std::to_string(p.threads); }},
      {"disposition", C::validation, [](P p) { return std::string(to_string(p.disposition)); }},
      {"placeable", C::validation, [](P p) { return yes_no(p.placeable); }},
      {"seconds_per_call", C::time, [](P p) { return csv_number(p.seconds); }},
      {"flops_per_call", C::gflops, [](P p) { return csv_number(p.flops); }},
      {"gflops_per_s", C::gflops,
       [](P p) { return p.placeable ? gflops(p.achieved) : std::string(); }},
      {"flops_source", C::sources, [](P p) { return std::string(to_string(p.flops_source)); }},
      {"bytes_source", C::sources, [](P p) { return std::string(to_string(p.bytes_source)); }},
      {"level", C::level, [](P p) { return p.level; }},
      {"intensity_flop_per_byte", C::intensity, [](P p) { return csv_number(p.level_intensity); }},
      {"attainable_gflops_per_s", C::attainable,
       [](P p) { return p.attainable > 0 ? gflops(p.attainable) : std::string(); }},
      {"efficiency", C::efficiency,
       [](P p) { return p.attainable > 0 ? fixed(p.efficiency, 4) : std::string(); }},
      {"bound", C::bound, [](P p) { return to_string(p.bound); }},
      {"above_roof", C::efficiency, [](P p) { return yes_no(p.above_roof); }},
      {"reason", C::validation, [](P p) { return p.reason; }},
      {"notes", C::notes, [](P p) { return join_notes(p.notes); }},
      {"repetitions", C::repetitions,
       [](P p) {
         const auto n = p.repetitions.seconds.size();
         return n == 0 ? std::string() : std::to_string(n);
       }},
      {"seconds_min", C::min, [](P p) { return csv_number(p.repetitions.min); }},
      {"seconds_max", C::max, [](P p) { return csv_number(p.repetitions.max); }},
      {"seconds_cv", C::cv,
       [](P p) {
         return p.repetitions.seconds.size() > 1 ? fmt::format("{:.6g}", p.repetitions.cv)
                                                 : std::string();
       }},
      {"guidance", C::guidance, [](P p) { return p.guidance; }},
      {"device", C::device, [](P p) { return std::string(to_string(p.device)); }},
      {"flop_per_joule", C::energy, [](P p) { return csv_number(p.flop_per_joule); }},
      {"energy_domain", C::energy, [](P p) { return p.energy_domain; }},
      // Appended, so the columns before them keep their places for readers of older files.
      {"compute_unit", C::unit,
       [](P p) { return p.compute_unit ? std::string(to_string(*p.compute_unit)) : ""; }},
      {"faster_unit_ceiling", C::faster_unit,
       [](P p) { return p.faster_unit ? p.faster_unit->name : ""; }},
      {"faster_unit_gflops_per_s", C::faster_unit,
       [](P p) { return p.faster_unit ? gflops(p.faster_unit->per_second) : std::string(); }},
      {"faster_unit_case", C::faster_unit, [](P p) { return p.faster_case_backend; }},
      {"faster_unit_case_gflops_per_s", C::faster_unit,
       [](P p) { return p.faster_case_rate > 0 ? gflops(p.faster_case_rate) : std::string(); }}};
  return fields;
}

}  // namespace ridgeline
