// Markdown (fit for a CI job summary) and CSV: the same numbers as the HTML report.
#include <fmt/format.h>

#include "fusion_sections.hpp"
#include "markdown_table.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {

using namespace reports;

std::string markdown_report(const ReportInput& in) {
  auto md = [](const std::string& s) { return escape_markdown_cell(s); };
  std::string s = "# Ridgeline report\n\n";
  s += fmt::format("{} — {} on {}{}\n\n", md(in.run_origin), md(in.run.context.date),
                   md(in.run.context.host_name),
                   in.run.context.interrupted ? " — **the run was interrupted**" : "");
  for (const auto& note : in.run.notes) s += "Reading the input: " + md(note) + "\n\n";
  if (!in.load_warning.empty()) s += "**The machine was busy:** " + md(in.load_warning) + ".\n\n";
  if (in.machine) {
    const MachineModel& m = *in.machine;
    s += fmt::format("Machine: {}, {} cores, {} MHz measured (ceilings from {}).\n\n",
                     md(m.cpu_model), m.cores, fixed(m.measured_clock_hz / 1e6, 0),
                     md(in.machine_origin));
    for (const auto& g : m.gpus)
      s += fmt::format("GPU {}: {}, sm_{}, {} SMs.\n\n", g.index, md(g.name), g.compute_capability,
                       g.multiprocessors);
    s += "| compute ceiling | threads | measured | theoretical |\n|---|---:|---:|---:|\n";
    for (const auto& c : m.compute)
      s += fmt::format(
          "| {} | {} | {} | {} |\n", md(c.name),
          c.device == Device::gpu ? std::string(display_name(c.device)) : std::to_string(c.threads),
          si_rate(c.per_second, c.unit),
          c.theoretical_per_second > 0 ? si_rate(c.theoretical_per_second, c.unit) : "—");
    s += "\n| memory ceiling | kernel | instructions | threads | bandwidth |\n"
         "|---|---|---|---:|---:|\n";
    for (const auto& c : m.memory)
      s += fmt::format(
          "| {} | {} | {} | {} | {} |\n", md(c.level), md(c.kernel),
          md(c.device == Device::gpu ? c.method : c.isa),
          c.device == Device::gpu ? std::string(display_name(c.device)) : std::to_string(c.threads),
          si_rate(c.bytes_per_s, "B/s"));
    if (!m.levels.empty()) s.append("\n").append(markdown_table(measured_levels_table(m)));
    s += "\n";
  } else {
    s += "No machine model: " + md(in.machine_origin) + "\n\n";
  }
  s += "## Results\n\n| case | GFLOP/s | time per call | repetitions | intensity (FLOP/B) | "
       "level | attainable GFLOP/s | efficiency | bound | sources | notes | guidance |\n"
       "|---|---:|---:|---|---:|---|---:|---:|---|---|---|---|\n";
  for (const auto& p : in.placements) {
    if (!p.placeable) continue;
    const std::string& level = p.level;
    const double ai = p.level_intensity;
    s += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {}{} | {} | {}, {} | {} | {} |\n",
                     md(p.throttled ? p.name + " (GPU throttled)" : p.name), gflops(p.achieved),
                     duration(p.seconds), md(spread(p.repetitions) + (p.noisy ? ", noisy" : "")),
                     intensity(ai), md(level), p.attainable > 0 ? gflops(p.attainable) : "—",
                     p.attainable > 0 ? percent(p.efficiency) : "—",
                     p.above_roof ? " **above roof**" : "", md(p.bound), to_string(p.flops_source),
                     to_string(p.bytes_source), md(join_notes(p.notes)), md(p.guidance));
  }
  s += reports::fusion_markdown(in);
  const auto& rows = in.ladder;
  if (!rows.empty()) {
    s += "\n## Ladder against the best BLAS\n\n| problem | threads | backend | GFLOP/s | × best "
         "BLAS |\n|---|---:|---|---:|---:|\n";
    for (const auto& r : rows)
      for (const auto& b : r.rates)
        s += fmt::format("| {} | {} | {} | {} | {}× |\n", md(problem_label(r)), r.threads,
                         md(b.backend), gflops(b.rate), fixed(b.vs_best, 2));
  }
  if (const auto& effects = in.patterns; !effects.empty()) {
    s += "\n## Input data\n\n| case | pattern | GFLOP/s | × first | power (W) | SM clock (MHz) "
         "|\n|---|---|---:|---:|---:|---:|\n";
    for (const auto& e : effects)
      for (const auto& p : e.points)
        s += fmt::format(
            "| {} | {}{}{} | {} | {} | {} | {} |\n", md(e.case_name), md(p.pattern),
            p.throttled ? " (GPU throttled)" : "", p.note.empty() ? "" : " — " + md(p.note),
            p.flop_rate > 0 ? gflops(p.flop_rate) : "—",
            p.vs_first > 0 ? fixed(p.vs_first, 3) : "—", p.power_w ? fixed(*p.power_w, 1) : "—",
            p.sm_clock_hz ? fixed(*p.sm_clock_hz / 1e6, 0) : "—");
  }
  std::string unplaced;
  for (const auto& p : in.placements)
    if (!p.placeable)
      unplaced +=
          fmt::format("| {} | {} | {} |\n", md(p.name), md(p.reason), md(join_notes(p.notes)));
  if (!unplaced.empty())
    s += "\n## Not placeable\n\n| case | why | notes |\n|---|---|---|\n" + unplaced;
  if (!in.run.context.collectors.empty()) {
    s += "\n## Collectors\n\n| collector | status | validation | reason |\n|---|---|---|---|\n";
    for (const auto& c : in.run.context.collectors)
      s += fmt::format(
          "| {} | {} | {} | {} |\n", md(c.name), c.available ? "available" : "unavailable",
          c.trust.empty() ? "not validated" : md(c.trust + ": " + c.validation), md(c.reason));
  }
  return s + "\n" + md(version_line(in)) + "\n";
}

std::string csv_report(const ReportInput& in) {
  std::string s =
      "case,backend,op,dtype,params,threads,disposition,placeable,seconds_per_call,flops_per_call,"
      "gflops_per_s,"
      "flops_source,bytes_source,level,intensity_flop_per_byte,attainable_gflops_per_s,efficiency,"
      "bound,above_roof,"
      "reason,notes,repetitions,seconds_min,seconds_max,seconds_cv,guidance\n";
  // A number cell holds a usable number or nothing: a rejected value is named in the
  // reason, never written where a spreadsheet would compute with it.
  const auto number = [](double v) { return usable(v) ? fmt::format("{:.6g}", v) : ""; };
  for (const auto& p : in.placements) {
    const std::string& level = p.level;
    const double ai = p.level_intensity;
    auto f = [](const std::string& x) { return escape_csv_field(x); };
    const RepetitionSamples& reps = p.repetitions;
    s += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        f(p.name), f(p.backend), f(p.op), f(p.dtype), f(p.params), p.threads,
        to_string(p.disposition), p.placeable ? "yes" : "no", number(p.seconds), number(p.flops),
        p.placeable ? gflops(p.achieved) : "", to_string(p.flops_source), to_string(p.bytes_source),
        f(level), number(ai), p.attainable > 0 ? gflops(p.attainable) : "",
        p.attainable > 0 ? fixed(p.efficiency, 4) : "", f(p.bound), p.above_roof ? "yes" : "no",
        f(p.reason), f(join_notes(p.notes)),
        reps.seconds.empty() ? "" : std::to_string(reps.seconds.size()), number(reps.min),
        number(reps.max), reps.seconds.size() > 1 ? fmt::format("{:.6g}", reps.cv) : "",
        f(p.guidance));
  }
  return s;
}

}  // namespace ridgeline
