// An einsum contraction's lowerings side by side, defined once as its columns
// (table_columns.hpp): the table the HTML and Markdown reports, the terminal and the dashboard
// show (einsum_table), and every field of einsum.csv (docs/einsum.md).
#include <fmt/format.h>

#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/table_columns.hpp"
#include "table_cells.hpp"

namespace ridgeline {

namespace {

using namespace reports;
using ER = const EinsumRow&;

TableCell lowering_bytes_cell(double bytes) {
  return bytes > 0 ? number(bytes, si_rate(bytes, "B")) : number(0, "0");
}

// The vocabulary's spelling of the bound, or a dash for none.
std::string lowering_bound_text(const EinsumLowering& l) {
  const std::string bound = to_string(l.bound);
  return bound.empty() ? "—" : bound;
}

// A lowering's cell where it ran, a dash where it did not.
std::function<TableCell(ER)> if_ran(TableCell (*cell)(const EinsumLowering&)) {
  return [cell](ER r) { return r.lowering->ran ? cell(*r.lowering) : none(); };
}

std::string yes_no_word(bool b) {
  return b ? "yes" : "no";
}

}  // namespace

const std::vector<Column<EinsumRow>>& einsum_columns() {
  using L = const EinsumLowering&;
  static const std::vector<Column<EinsumRow>> columns{
      {"equation", [](ER r) { return r.contraction->equation; }},
      {"extents", [](ER r) { return r.contraction->extents; }},
      {"dtype", [](ER r) { return r.contraction->dtype; }},
      {"threads", [](ER r) { return std::to_string(r.contraction->threads); }},
      {"device", [](ER r) { return std::string(to_string(r.contraction->device)); }},
      {"lowering", [](ER r) { return r.lowering->backend; }, "lowering",
       [](ER r) { return text(r.lowering->backend); }},
      {"ran", [](ER r) { return yes_no_word(r.lowering->ran); }},
      {"seconds_per_call", [](ER r) { return csv_number(r.lowering->seconds); }, "time per call",
       if_ran([](L l) { return number(l.seconds, duration(l.seconds)); })},
      {"flop_per_s", [](ER r) { return csv_number(r.lowering->achieved); }, "GFLOP/s",
       if_ran([](L l) { return number(l.achieved, gflops(l.achieved)); })},
      {"compulsory_bytes", [](ER r) { return csv_number(r.lowering->compulsory_bytes); },
       "compulsory bytes", [](ER r) { return lowering_bytes_cell(r.lowering->compulsory_bytes); }},
      // 0 is a value here: the bytes a lowering adds to the compulsory ones.
      {"added_bytes", [](ER r) { return fmt::format("{:.6g}", r.lowering->added_bytes); },
       "added bytes", [](ER r) { return lowering_bytes_cell(r.lowering->added_bytes); }},
      {"of_roof", [](ER r) { return csv_number(r.lowering->efficiency); }, "of roof",
       [](ER r) {
         const EinsumLowering& l = *r.lowering;
         return l.ran && l.efficiency > 0 ? number(l.efficiency, percent(l.efficiency)) : none();
       }},
      {"bound", [](ER r) { return r.lowering->ran ? to_string(r.lowering->bound) : ""; }, "bound",
       [](ER r) { return text(r.lowering->ran ? lowering_bound_text(*r.lowering) : "—"); }},
      {"over_best", [](ER r) { return csv_number(r.lowering->vs_best); }, "× best",
       if_ran([](L l) { return number(l.vs_best, times(l.vs_best)); })},
      {"best", [](ER r) { return yes_no_word(r.lowering->backend == r.contraction->best); }},
      {"reason", [](ER r) { return r.lowering->reason; }},
      {"how", [](ER r) { return fmt::format("{}", fmt::join(r.lowering->steps, "; ")); }, "how",
       [](ER r) {
         const EinsumLowering& l = *r.lowering;
         return text(l.ran ? fmt::format("{}", fmt::join(l.steps, "; ")) : l.reason);
       }},
      {"best_over_framework", [](ER r) { return csv_number(r.contraction->lead_over_framework); }},
      {"best_over_slowest", [](ER r) { return csv_number(r.contraction->lead_over_worst); }},
      {"notation_hides", [](ER r) { return r.contraction->hides; }}};
  return columns;
}

}  // namespace ridgeline
