// The style sheet and script every HTML page Ridgeline writes shares (html_page.hpp).
#include "html_page.hpp"

#include <fmt/format.h>

#include <set>

#include "html_cells.hpp"

namespace ridgeline::reports {

const char* const kReportStyle = R"(
body{font-family:system-ui,sans-serif;margin:24px;color:#212529;max-width:1320px}
h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #dee2e6}
.meta{color:#495057;font-size:13px}
table{border-collapse:collapse;font-size:13px;margin-top:8px}
th,td{border:1px solid #dee2e6;padding:3px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
table.results td:first-child{overflow-wrap:anywhere;max-width:460px}
table.results .folded{display:none}
table.results.show-identity .g-identity,table.results.show-time .g-time,
table.results.show-rate .g-rate,table.results.show-provenance .g-provenance{display:table-cell}
table.sortable th{cursor:pointer;background:#f1f3f5}
th[data-order=asc]::after{content:" \25B2"}th[data-order=desc]::after{content:" \25BC"}
.legend span{display:inline-block;margin-right:14px;font-size:13px}
.swatch{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:middle}
.above{color:#e03131;font-weight:600}.bad{color:#e03131}
td.notes{min-width:320px;font-size:12px;color:#495057}
td.marked{font-weight:600;white-space:nowrap}
#overview h2{margin-top:12px}
.ov{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:4px 20px}
.ov-box{min-width:0}.ov-box h3{font-size:14px;margin:6px 0 2px}
.ov-box table{font-size:12px;margin-top:2px;width:100%}.ov-box th,.ov-box td{padding:1px 5px}
.ov-box td{overflow-wrap:break-word}.ov-box td.n{white-space:nowrap}.ov-box ul{margin:2px 0;padding-left:18px;font-size:12.5px}
#ov-attention{grid-column:1/3}
)";

// Click a header to sort by that column (numbers by data-v when present).
const char* const kSortScript = R"(
document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var asc = th.getAttribute('data-order') !== 'asc';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('data-order'); });
      th.setAttribute('data-order', asc ? 'asc' : 'desc');
      rows.sort(function (a, b) {
        var x = a.cells[col].getAttribute('data-v'), y = b.cells[col].getAttribute('data-v');
        var c = (x !== null && y !== null) ? parseFloat(x) - parseFloat(y)
                                           : a.cells[col].textContent.localeCompare(b.cells[col].textContent);
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
// A results column group's checkbox shows its folded columns in every results table.
document.querySelectorAll('.column-switches input').forEach(function (box) {
  box.addEventListener('change', function () {
    document.querySelectorAll('table.results').forEach(function (t) {
      t.classList.toggle('show-' + box.getAttribute('data-group'), box.checked);
    });
  });
});
document.body.setAttribute('data-report-ready', '1');
)";

// What the plot shows and what it leaves out: its caption, the roof labels that found no
// room on it, and every result or roof left off with the reason.
std::string plot_notes(const RooflineScene& scene) {
  std::string s = "<p class=\"meta\" id=\"caption\">";
  for (const auto& line : scene.caption) s += escape_html(line) + " ";
  s += "</p>";
  if (!scene.key.empty()) {
    s += "<p class=\"meta\">Roofs whose labels found no room on the plot: ";
    for (std::size_t i = 0; i < scene.key.size(); ++i) {
      if (i > 0) s += "; ";
      s += escape_html(scene.key[i]);
    }
    s += ".</p>";
  }
  if (!scene.omitted.empty()) {
    s += "<h3>Not on the plot</h3><table id=\"off-plot\"><thead><tr><th>what</th><th>why</th>"
         "</tr></thead><tbody>";
    for (const auto& o : scene.omitted) s += "<tr>" + cell(o.what) + cell(o.reason) + "</tr>";
    s += "</tbody></table>";
  }
  return s;
}

std::string roofline_legend(const std::vector<RooflinePlacement>& placements,
                            const BackendColours& colours, const std::string& extra) {
  std::string s = "<div class=\"legend\">";
  std::set<std::string> seen;
  bool throttled = false;
  for (const auto& p : placements) {
    throttled |= p.placeable && p.throttled;
    if (!p.placeable || !seen.insert(p.backend).second) continue;
    s += fmt::format(R"(<span><i class="swatch" style="background:{}"></i>{}</span>)",
                     colours.at(p.backend), escape_html(p.backend));
  }
  return s +
         "<span>● f32 &nbsp; ■ f64 &nbsp; ▲ other</span><span>solid: 1 thread, dashed: more</span>"
         "<span style=\"color:#2b8a3e\">L1</span><span style=\"color:#1971c2\">L2</span>"
         "<span style=\"color:#e67700\">L3</span><span style=\"color:#c92a2a\">DRAM / HBM</span>"
         "<span style=\"color:#868e96\">PCIe</span><span>GPU: dashed</span>" +
         (throttled ? fmt::format(R"(<span style="color:{}">orange outline: GPU throttled</span>)",
                                  kThrottledStroke)
                    : std::string()) +
         extra + "</div>";
}

}  // namespace ridgeline::reports
