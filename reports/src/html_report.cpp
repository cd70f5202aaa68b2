#include <fmt/format.h>

#include <set>

#include "einsum_sections.hpp"
#include "fusion_sections.hpp"
#include "html_cells.hpp"
#include "html_page.hpp"
#include "memory_sweep_svg.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/overview.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/results_table.hpp"
#include "roofline_svg.hpp"

namespace ridgeline {

using namespace reports;

namespace {

// The memory hierarchy as the probe measured it: the sweep plot and one row per level with
// hwloc's size beside the measured capacity.
std::string memory_levels_html(const MachineModel& m) {
  if (m.levels.empty() && m.sweeps.empty()) return "";
  return "<h3>Memory hierarchy (measured)</h3>" + memory_sweep_svg(m) +
         html_table(measured_levels_table(m), "<table class=\"sortable levels\">");
}

std::string machine_section(const ReportInput& in) {
  std::string s = "<h2>Machine</h2>";
  if (!in.machine) return s + "<p>" + escape_html(in.machine_origin) + "</p>";
  const MachineModel& m = *in.machine;
  s += "<p class=\"meta\">ceilings from " + escape_html(in.machine_origin) + "</p><table>";
  auto row = [&](const char* k, const std::string& v) {
    s += "<tr><th>" + std::string(k) + "</th>" + cell(v) + "</tr>";
  };
  row("CPU", m.cpu_model);
  row("vendor / family / model",
      fmt::format("{} / {:#x} / {:#x}", m.cpu_vendor, m.cpu_family, m.cpu_model_number));
  row("cores used", std::to_string(m.cores));
  row("clock (measured)", fixed(m.measured_clock_hz / 1e6, 0) + " MHz — " + m.clock_method);
  row("caches (hwloc)", fmt::format("L1d {} KiB, L2 {} KiB, L3 {} KiB", m.l1d_bytes / 1024,
                                    m.l2_bytes / 1024, m.l3_bytes / 1024));
  row("memory", fixed(static_cast<double>(m.memory_bytes) / (1 << 30), 1) + " GiB");
  std::string isa;
  for (const auto& i : m.isa) isa += (isa.empty() ? "" : " ") + i;
  row("ISA", isa);
  for (const auto& g : m.gpus)
    row("GPU",
        fmt::format("{}: {}, sm_{}, {} SMs, {} GiB, L2 {} MiB", g.index, g.name,
                    g.compute_capability, g.multiprocessors,
                    fixed(static_cast<double>(g.memory_bytes) / (1 << 30), 0), g.l2_bytes >> 20));
  if (m.gpus.empty() && !m.gpu_reason.empty()) row("GPU", "none: " + m.gpu_reason);
  row("host, probed", m.host + ", " + m.date);
  row("fingerprint", m.fingerprint);
  s += "</table>" + memory_levels_html(m) + "<h2>Ceilings</h2>" +
       html_table(compute_ceilings_table(m), "<table class=\"sortable\">") +
       html_table(memory_ceilings_table(m), "<table class=\"sortable\">");
  for (const auto& o : m.overhead)
    s += fmt::format("<p>overhead.{}: {} ns per call ({}{}{})</p>", escape_html(o.name),
                     fixed(o.seconds * 1e9, 2), to_string(o.source), o.method.empty() ? "" : ", ",
                     escape_html(o.method));
  s += "<p class=\"meta\">bytes: " + escape_html(m.byte_convention) + "</p>";
  return s;
}

std::string ladder_section(const ReportInput& in) {
  if (in.ladder.empty()) return "";
  return "<h2>Ladder against the best BLAS per problem</h2>" +
         html_table(ladder_table(in), "<table class=\"sortable\">");
}

std::string power_cap_section(const ReportInput& in) {
  if (in.power_caps.empty()) return "";
  return "<h3 id=\"power-cap\">Compute at the power cap</h3><p class=\"meta\">Where NVML saw "
         "the board's power cap hold the clocks, the rate the GPU sustained on each input "
         "pattern: the roof a compute-bound case of that dtype meets on such data (each such "
         "case notes it), below the nominal one that assumes the clock holds.</p>" +
         html_table(power_cap_table(in), "<table id=\"power-cap-table\">");
}

std::string pattern_section(const ReportInput& in) {
  if (in.patterns.empty()) return "";
  return "<h2>Input data</h2><p class=\"meta\">The same case on each input pattern: the data "
         "changes the switching activity, so power and clocks (and through them the rate).</p>" +
         html_table(pattern_table(in), "<table>") + power_cap_section(in);
}

}  // namespace

namespace {
// The picture in `colours` (the report's legend uses them too).
std::string picture_svg(const RooflineScene& scene, const ReportInput& in,
                        const BackendColours& colours) {
  SvgMarks marks{in.placements, colours, 0, {}, {}};
  marks.arrow = [&](const SceneArrow& a) { return fusion_arrow_mark(in.fusion.pairs.at(a.pair)); };
  return reports::roofline_svg(scene, marks);
}
}  // namespace

std::string roofline_picture_svg(const RooflineScene& scene, const ReportInput& in) {
  return picture_svg(scene, in, backend_colours(in.placements));
}

std::string roofline_section_html(const ReportInput& in) {
  const RooflineScene scene = roofline_scene(in.placements, in.machine ? &*in.machine : nullptr, {},
                                             in.fusion.pairs, in.power_caps);
  const BackendColours colours = backend_colours(in.placements);
  return picture_svg(scene, in, colours) +
         roofline_legend(in.placements, colours,
                         in.fusion.pairs.empty() ? "" : "<span>→ unfused to fused</span>") +
         plot_notes(scene);
}

std::string html_report(const ReportInput& in) {
  const RunContext& c = in.run.context;
  std::size_t placed = 0;
  for (const auto& p : in.placements) placed += p.placeable;
  std::string s =
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ridgeline report: " +
      escape_html(in.run_origin) + "</title><style>" + kReportStyle + "</style></head><body>";
  s += "<h1>Ridgeline roofline report</h1><p class=\"meta\">" + escape_html(in.run_origin) + " — " +
       escape_html(c.date) + " on " + escape_html(c.host_name) + " — " +
       fmt::format("{} cases, {} placed, {} not placeable", in.placements.size(), placed,
                   in.placements.size() - placed) +
       (c.interrupted ? " — <b>the run was interrupted</b>" : "") + "</p>";
  // What reading the input left out or assumed (a journal's line cut by a kill).
  for (const auto& note : in.run.notes)
    s += "<p class=\"meta input-note\">Reading the input: " + escape_html(note) + "</p>";
  if (!in.load_warning.empty())
    s += "<p class=\"meta\"><b>The machine was busy:</b> " + escape_html(in.load_warning) + ".</p>";
  const BackendColours colours = backend_colours(in.placements);
  s += overview_html(in) + "<h2>Roofline</h2>" + roofline_section_html(in);
  s += results_html(in.placements) + fusion_html(in, colours) + einsum_html(in, colours) +
       ladder_section(in) + pattern_section(in) + machine_section(in);
  if (!c.collectors.empty())
    s += "<h2>Collectors</h2>" + html_table(collectors_table(c), "<table>");
  s += "<p class=\"meta\" id=\"footer\">" + escape_html(version_line(in)) + "</p><script>" +
       kSortScript + "</script></body></html>\n";
  return s;
}

}  // namespace ridgeline
