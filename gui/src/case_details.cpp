#include "ridgeline/gui/case_details.hpp"

#include <fmt/format.h>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline::gui {

namespace {

using namespace reports;

// The row of the run that holds the case's details: its median repetition where there are
// several (the one placed), else its first row.
const CaseResult* case_row(const Run& run, const RooflinePlacement& p) {
  const CaseResult* first = nullptr;
  for (const auto& r : run.benchmarks) {
    if (r.run_name != p.name && r.name != p.name) continue;
    if (r.run_type == "aggregate" && r.aggregate_name == "median" && r.ridgeline) return &r;
    if (!first) first = &r;
  }
  return first;
}

std::string number(double v, const std::string& unit) {
  if (unit == "FLOP/s" || unit == "B/s" || unit == "OP/s") return si_rate(v, unit);
  if (unit == "s") return duration(v);
  return fmt::format("{:.6g} {}", v, unit);
}

DetailSection position(const RooflinePlacement& p) {
  DetailSection s{"Position", {}};
  s.rows.push_back({"rate", gflops(p.achieved) + " GFLOP/s", "derived"});
  s.rows.push_back(
      {"FLOPs per call", fmt::format("{:.6g}", p.flops), std::string(to_string(p.flops_source))});
  for (const auto& [level, bytes] : p.bytes)
    s.rows.push_back({"bytes per call (" + level + ")", fmt::format("{:.6g}", bytes),
                      std::string(to_string(p.bytes_source))});
  for (const auto& [level, ai] : p.intensity)
    s.rows.push_back({"intensity (" + level + ")", intensity(ai) + " FLOP/B", "derived"});
  s.rows.push_back({"drawn at", p.level, ""});
  if (p.attainable > 0) {
    s.rows.push_back({"attainable", gflops(p.attainable) + " GFLOP/s", "derived"});
    s.rows.push_back({"efficiency",
                      percent(p.efficiency) + (p.above_roof ? ", above the roof" : ""), "derived"});
    s.rows.push_back({"bound", to_string(p.bound), ""});
  }
  return s;
}

DetailSection timing(const RooflinePlacement& p) {
  DetailSection s{"Timing", {}};
  s.rows.push_back({"time per call", duration(p.seconds), "timed"});
  const RepetitionSamples& r = p.repetitions;
  s.rows.push_back({"repetitions", spread(r), r.seconds.empty() ? "" : "timed"});
  if (p.cpu_share > 0)
    s.rows.push_back({"on a CPU (worst repetition)", percent(p.cpu_share), "counted"});
  s.rows.push_back(
      {"threads",
       p.device == Device::gpu ? std::string(display_name(p.device)) : std::to_string(p.threads),
       ""});
  return s;
}

// The ceilings placement used for the point: the same roof_for, so a thread count the
// model lacks shows the nearest below, with the note that says so.
DetailSection ceilings(const ReportInput& in, const RooflinePlacement& p) {
  DetailSection s{"Ceilings used", {}};
  if (!in.machine) {
    s.rows.push_back({"none", in.machine_origin, ""});
    return s;
  }
  const Roof roof = roof_for(*in.machine, p.dtype, p.threads, p.device, p.compute_unit);
  if (roof.compute)
    s.rows.push_back({roof.compute->name, si_rate(roof.compute->per_second, roof.compute->unit),
                      std::string(to_string(roof.compute->source))});
  if (p.faster_unit)  // the dtype's highest roof, on another unit than the point's
    s.rows.push_back({fmt::format("{} (faster unit: {})", p.faster_unit->name,
                                  display_name(p.faster_unit->compute_unit)),
                      si_rate(p.faster_unit->per_second, p.faster_unit->unit),
                      std::string(to_string(p.faster_unit->source))});
  if (const auto m = roof.memory.find(p.level); m != roof.memory.end())
    s.rows.push_back({m->second.level + " " + m->second.kernel,
                      si_rate(m->second.bytes_per_s, "B/s"),
                      std::string(to_string(m->second.source))});
  for (const auto& n : roof.notes) s.rows.push_back({"note", n.text, ""});
  s.rows.push_back({"from", in.machine_origin, ""});
  return s;
}

// The unfused chain's passes: the report's pass table, one row per pass.
DetailSection passes(const UnfusedChain& c) {
  DetailSection s{"Passes (" + unfused_chain_summary(c) + ")", {}};
  const Table t = unfused_pass_table(c);
  for (const auto& row : t.rows) {
    std::vector<std::string> parts;
    for (std::size_t i = 1; i < row.size(); ++i)
      if (!row[i].text.empty()) parts.push_back(t.headers[i] + ": " + row[i].text);
    s.rows.push_back({row[0].text, fmt::format("{}", fmt::join(parts, ", ")), "timed"});
  }
  for (const auto& n : c.notes) s.rows.push_back({"note", n, ""});
  return s;
}

}  // namespace

CaseDescription describe_case(const ReportInput& in, std::size_t index) {
  CaseDescription d;
  if (index >= in.placements.size()) return d;
  const RooflinePlacement& p = in.placements[index];
  d.title = p.name;
  d.guidance = p.guidance;
  if (p.placeable) d.sections.push_back(position(p));
  d.sections.push_back(timing(p));
  const CaseResult* row = case_row(in.run, p);
  if (row && row->ridgeline) {
    const CaseDetails& c = *row->ridgeline;
    DetailSection metrics{"Metrics", {}};
    for (const auto& m : c.metrics)
      metrics.rows.push_back({m.name, number(m.value, m.unit), std::string(to_string(m.source))});
    d.sections.push_back(metrics);
    const Validation& v = c.validation;
    DetailSection validation{"Validation",
                             {{"outcome", std::string(to_string(v.disposition)), ""}}};
    if (!v.method.empty()) validation.rows.push_back({"method", v.method, ""});
    if (v.tolerance > 0)
      validation.rows.push_back(
          {"largest error", fmt::format("{:.3g} (tolerance {:.3g})", v.max_rel_err, v.tolerance),
           ""});
    if (!v.message.empty()) validation.rows.push_back({"message", v.message, ""});
    d.sections.push_back(validation);
    if (!c.kernel_notes.empty()) {
      DetailSection kernel{"Kernel", {}};
      for (const auto& [k, v2] : c.kernel_notes) kernel.rows.push_back({k, v2, ""});
      d.sections.push_back(kernel);
    }
  } else if (row) {
    DetailSection foreign{"Google Benchmark", {{"validation", "not validated by Ridgeline", ""}}};
    for (const auto& [k, v] : row->counters)
      foreign.rows.push_back({k, fmt::format("{:.6g}", v), "counted"});
    if (row->error_occurred) foreign.rows.push_back({"error", row->error_message, ""});
    d.sections.push_back(foreign);
  }
  for (const auto& chain : in.fusion.chains)
    if (chain.placement == index) d.sections.push_back(passes(chain));
  if (!p.notes.empty()) {
    DetailSection notes{"How it was placed", {}};
    for (const auto& n : p.notes)
      notes.rows.push_back({std::string(to_string(n.kind)), n.text, ""});
    d.sections.push_back(notes);
  }
  d.sections.push_back(ceilings(in, p));
  if (!in.run.context.collectors.empty()) {
    DetailSection collectors{"Collectors of the run", {}};
    for (const auto& c : in.run.context.collectors)
      collectors.rows.push_back(
          {c.name,
           (c.available ? std::string("available") : "unavailable: " + c.reason) +
               (c.trust.empty()
                    ? ""
                    : "; " + c.trust + (c.validation.empty() ? "" : ": " + c.validation)),
           ""});
    d.sections.push_back(collectors);
  }
  return d;
}

std::string details_html(const CaseDescription& d) {
  if (d.title.empty()) return "<p>Select a case in the table or a point on the chart.</p>";
  std::string s =
      "<h3>" + escape_html(d.title) + "</h3><p><b>" + escape_html(d.guidance) + "</b></p>";
  for (const auto& section : d.sections) {
    s += "<h4>" + escape_html(section.title) + "</h4><table cellspacing=\"0\" cellpadding=\"2\">";
    for (const auto& r : section.rows)
      s += "<tr><td>" + escape_html(r.label) + "</td><td>" + escape_html(r.value) + "</td><td><i>" +
           escape_html(r.source) + "</i></td></tr>";
    s += "</table>";
  }
  return s;
}

}  // namespace ridgeline::gui
