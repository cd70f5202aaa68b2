// The fleet as one self-contained HTML page (fleet.hpp): the heading, a member × case heatmap
// of time ratios (members out of family first, as the model orders them), and the tables.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "html_cells.hpp"
#include "html_page.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/fleet.hpp"
#include "roofline_svg.hpp"

namespace ridgeline {

using namespace reports;

namespace {

constexpr const char* kFleetStyle = R"(
svg.heatmap text{font:11px sans-serif}
svg.heatmap rect.found{stroke:#000;stroke-width:1.5}
.out{color:#b00;font-weight:bold}
)";

// Slower red, faster blue, by the log of the ratio, full at ±4 margins; grey: untested.
std::string heat_colour(const FleetCell& c, double margin) {
  if (c.verdict == FleetVerdict::untested) return "#ccc";
  const double full = std::log1p(4 * margin);
  const double t = std::clamp(std::log(c.ratio) / full, -1.0, 1.0);
  const auto mix = [&](int to) {
    return static_cast<int>(std::lround(255 + (to - 255) * std::abs(t)));
  };
  return t >= 0 ? fmt::format("#ff{:02x}{:02x}", mix(40), mix(40))
                : fmt::format("#{:02x}{:02x}ff", mix(40), mix(40));
}

std::string heat_tooltip(const Fleet& f, const FleetNode& n, std::size_t c) {
  const FleetCell& cell = n.cells[c];
  if (cell.verdict == FleetVerdict::untested)
    return fmt::format("{} · {}: untested ({})", n.name, f.cases[c].name, cell.reason);
  return fmt::format(
      "{} · {}: {} ({:+.1f}%, {:+.1f} … {:+.1f}%), p {:.2g} after Holm, {} "
      "repetitions against {}",
      n.name, f.cases[c].name, to_string(cell.verdict), (cell.ratio - 1) * 100,
      (cell.low - 1) * 100, (cell.high - 1) * 100, cell.p_holm, cell.repetitions, cell.rest);
}

// Cells of at least 3 px, at most 24; labels where there is room for them.
std::string heatmap(const Fleet& f) {
  if (f.cases.empty() || f.nodes.empty()) return "";
  const double cw = std::clamp(900.0 / static_cast<double>(f.cases.size()), 3.0, 24.0);
  const double ch = f.nodes.size() > 200 ? 3.0 : 14.0;
  const double left = ch >= 14 ? 160 : 10, top = 10;
  const double width = left + cw * static_cast<double>(f.cases.size()) + 10;
  const double height = top + ch * static_cast<double>(f.nodes.size()) + 10;
  std::string s = fmt::format(
      R"(<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" role="img" aria-label="time of each {} in each case over the other {}s'">)",
      width, height, f.member_kind, f.member_kind);
  for (std::size_t r = 0; r < f.nodes.size(); ++r) {
    const FleetNode& n = f.nodes[r];
    const double y = top + ch * static_cast<double>(r);
    if (ch >= 14)
      s += fmt::format(R"(<text x="{:.0f}" y="{:.1f}" text-anchor="end"{}>{}</text>)", left - 4,
                       y + ch - 3, n.out_of_family ? R"( class="out" fill="#b00")" : "",
                       escape_html(n.name));
    for (std::size_t c = 0; c < f.cases.size(); ++c) {
      const FleetCell& cell = n.cells[c];
      const bool found =
          cell.verdict == FleetVerdict::slower || cell.verdict == FleetVerdict::faster;
      s += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"{}><title>{}</title></rect>)",
          left + cw * static_cast<double>(c), y, cw, ch, heat_colour(cell, f.settings.margin),
          found ? R"( class="found")" : "", escape_html(heat_tooltip(f, n, c)));
    }
  }
  return s + "</svg>";
}

// The roofs of the members out of family (at most four, the farthest first) beside those of
// the first member in family, on one roofline: where a node's ceilings differ, its roofs do.
std::string roofs_overlay(const FleetView& view) {
  std::vector<SceneMachine> machines;
  std::vector<const MachineModel*> models;
  const FleetMember* reference = nullptr;
  for (const FleetNode& n : view.fleet.nodes) {
    if (reference && (models.size() == 4 || !n.out_of_family)) break;
    if (const FleetMember* m = view.member(n.name); m && m->machine) {
      if (n.out_of_family && models.size() < 4) {
        models.push_back(&*m->machine);
      } else if (!n.out_of_family && !reference) {
        reference = m;
      }
    }
  }
  if (reference) models.push_back(&*reference->machine);
  if (models.size() < 2) return "";
  const std::vector<std::string> names = machine_names(models);
  for (std::size_t i = 0; i < models.size(); ++i) machines.push_back({models[i], names[i]});
  const std::vector<RooflinePlacement> none;
  const RooflineScene scene = overlay_scene(none, {}, machines);
  const BackendColours colours;
  return "<h2>Roofs</h2><p>Each " + view.fleet.member_kind +
         " out of family (solid: the first, dotted: the others) beside the first in family: "
         "where its ceilings differ, its roofs do.</p>" +
         roofline_svg(scene, {none, colours, 0, {}, {}, {}});
}

}  // namespace

std::string fleet_html(const FleetView& view) {
  const Fleet& f = view.fleet;
  std::string s =
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ridgeline fleet: " +
      escape_html(
          fmt::format("{} {}s, {} out of family", f.nodes.size(), f.member_kind, f.out_of_family)) +
      "</title><style>" + kReportStyle + kFleetStyle + "</style></head><body>";
  s += "<h1>Ridgeline fleet</h1>";
  s += fmt::format(
      "<p id=\"summary\"><span class=\"{}\">{} of {} {}s out of family</span>: each {}'s "
      "repetitions of each case against every other {}'s pooled (Mann–Whitney U, Hodges–Lehmann "
      "ratio), Holm over {} tests at {:g}, a margin of ±{:g}%; probed ceilings against the "
      "fleet's median (±{:g}%).</p>",
      f.out_of_family ? "out" : "", f.out_of_family, f.nodes.size(), f.member_kind, f.member_kind,
      f.member_kind, f.tested, f.settings.alpha, f.settings.margin * 100,
      f.settings.ceiling_margin * 100);
  s += "<p>From " +
       escape_html(view.files.size() <= 10 ? fmt::format("{}", fmt::join(view.files, ", "))
                                           : fmt::format("{} files ({} … {})", view.files.size(),
                                                         view.files.front(), view.files.back())) +
       ".</p>";
  for (const auto& note : f.notes) s += "<p class=\"note\">" + escape_html(note) + "</p>";
  s += "<h2>Time over the rest, per " + f.member_kind +
       " and case</h2><p>Red: slower than the other " + f.member_kind +
       "s, blue: faster (full colour at four margins); outlined where the test found it; grey: "
       "untested. Hover a cell for its ratio, interval and p.</p>" +
       heatmap(f);
  s += roofs_overlay(view);
  s += "<h2>" + escape_html(f.member_kind) + "s</h2>" +
       html_table(fleet_member_table(f), "<table class=\"sortable\" id=\"members\">");
  s +=
      "<h2>Cases</h2>" + html_table(fleet_case_table(f), "<table class=\"sortable\" id=\"cases\">");
  if (!f.ceilings.empty())
    s += "<h2>Probed ceilings</h2>" +
         html_table(fleet_ceiling_table(f), "<table class=\"sortable\" id=\"ceilings\">");
  return s + "<script>" + kSortScript + "</script></body></html>\n";
}

}  // namespace ridgeline
