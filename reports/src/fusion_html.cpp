// The HTML report's fusion section: the pairs, the cases without a twin, and the eltwise
// chain's sweeps, each group with its plot.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "fusion_sections.hpp"
#include "html_cells.hpp"
#include "ridgeline/analysis/where_ran.hpp"
#include "ridgeline/reports/format.hpp"

namespace ridgeline::reports {

namespace {

// The pair table without its notes column, which would make each row a paragraph tall, and
// the notes under it, a pair's to a line (Markdown and CSV keep the column).
std::string pair_table_and_notes(const FusionAnalysis& f) {
  Table t = fusion_pair_table(f);
  const auto notes = std::find(t.headers.begin(), t.headers.end(), "notes");
  std::string list;
  if (notes != t.headers.end()) {
    const auto at = notes - t.headers.begin();
    t.headers.erase(notes);
    for (auto& row : t.rows) row.erase(row.begin() + at);
  }
  for (const auto& p : f.pairs)
    if (!p.notes.empty())
      list +=
          fmt::format("<li><b>{} {} {}, {}</b>: {}</li>", escape_html(p.op), escape_html(p.params),
                      escape_html(p.dtype), where_ran(p.device, p.threads),
                      escape_html(fmt::format("{}", fmt::join(p.notes, "; "))));
  return html_table(t, "<table class=\"sortable\" id=\"fusion-pairs\">") +
         (list.empty() ? "" : "<ul class=\"fusion-notes meta\">" + list + "</ul>");
}

}  // namespace

ArrowMark fusion_arrow_mark(const FusionPair& p) {
  ArrowMark mark{
      "#343a40",
      {fmt::format("fusion: {} {} {}, {}", p.op, p.params, p.dtype, where_ran(p.device, p.threads)),
       fmt::format("{} → {}", p.unfused.backend, p.fused.backend)}};
  if (p.speedup > 0) mark.tip.push_back("speedup " + times(p.speedup));
  if (p.byte_ratio > 0) mark.tip.push_back("bytes unfused ÷ fused " + times(p.byte_ratio));
  if (p.time_over_bytes > 0)
    mark.tip.push_back("speedup ÷ byte ratio " + fixed(p.time_over_bytes, 2));
  return mark;
}

std::string fusion_html(const ReportInput& in, const BackendColours& colours) {
  const FusionAnalysis& f = in.fusion;
  if (f.empty()) return "";
  std::string s =
      "<h2 id=\"fusion\">Fusion: unfused → fused</h2><p class=\"meta\">Each fused case beside "
      "its unfused twin (same op, params, dtype, pattern, threads). Bytes per call from the "
      "op's model (analytic) and from counters where a collector measured them; the speedup "
      "next to the byte ratio (1.00 in the ÷ column: the time saved is the traffic saved); "
      "% of the memory roof that binds each. On the roofline, an arrow goes from each "
      "unfused point to its fused point.</p>";
  if (!f.pairs.empty()) s += pair_table_and_notes(f);
  if (!f.unpaired.empty())
    s += "<h3>Without a twin</h3>" +
         html_table(fusion_unpaired_table(f), "<table id=\"fusion-unpaired\">");
  for (const auto& group : sweep_groups(f)) {
    s += "<h3 class=\"sweep-title\">" + escape_html(sweep_title(*group.front())) +
         "</h3><p class=\"meta\">Time and intensity against the chain length L. Fused, the "
         "intensity grows with L until it reaches the machine's ridge: past it the chain is "
         "compute-bound and fusing more ops no longer saves time.</p>";
    s += sweep_svg(group, colours);
    s += "<ul class=\"ridge\">";
    for (const EltwiseSweep* sw : group) s += "<li>" + escape_html(ridge_text(*sw)) + "</li>";
    s += "</ul>" + html_table(sweep_table(group), "<table class=\"sortable sweep-table\">");
  }
  if (!f.chains.empty())
    s += fmt::format(
        "<h3 id=\"unfused-passes\">The unfused chains pass by pass</h3><p class=\"meta\">Each "
        "pass of an eager chain timed on its own inside the timed call (the kernel's laps), "
        "its FLOPs and bytes from the op's pass model, placed on the roof of the case's "
        "level. A pass below {:.1f} of its roof is where the chain loses.</p>",
        kPassRoofFloor);
  for (const auto& c : f.chains) {
    s += "<h4>" + escape_html(unfused_chain_title(c)) + "</h4><p class=\"meta\">" +
         escape_html(unfused_chain_summary(c)) + "</p>";
    s += html_table(unfused_pass_table(c), "<table class=\"sortable pass-table\">");
    if (!c.notes.empty()) {
      s += "<ul class=\"pass-notes\">";
      for (const auto& n : c.notes) s += "<li>" + escape_html(n) + "</li>";
      s += "</ul>";
    }
  }
  return s;
}

}  // namespace ridgeline::reports
