// read -> analyse -> every report writer. Inputs the Run reader refuses (in any way: its
// own fuzzer judges that) end here; every Run it accepts is placed under its embedded
// machine model (and under none), drawn, and written as HTML, Markdown, CSV (with the
// fusion CSVs) and the terminal table. Any exception from there on is a finding, and so is
// output that breaks the promises of analysis and the scene: a placed result with an
// unusable number, or neither drawn nor listed as off the plot; a coordinate off the
// canvas (a fusion arrow's too), overlapping labels, a roof without its label; output out
// of proportion to the input.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "fuzz_input_file.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/analysis/scene_geometry.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/reports/report.hpp"

namespace {

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "ridgeline fuzz_report: %s\n", what);
  std::abort();
}

bool inside(double v, double lo, double hi) {
  return std::isfinite(v) && v >= lo - 1e-6 && v <= hi + 1e-6;
}

void check_scene(const ridgeline::RooflineScene& s) {
  using namespace ridgeline::scene;
  const auto& c = s.canvas;
  for (const auto& l : s.lines)
    if (!inside(l.x0, c.plot_left(), c.plot_right()) ||
        !inside(l.x1, c.plot_left(), c.plot_right()) ||
        !inside(l.y0, c.plot_top(), c.plot_bottom()) ||
        !inside(l.y1, c.plot_top(), c.plot_bottom()))
      finding("a roof line leaves the plot");
  for (const auto& p : s.points)
    if (!inside(p.x, c.plot_left(), c.plot_right()) || !inside(p.y, c.plot_top(), c.plot_bottom()))
      finding("a point leaves the plot");
  if (s.x.ticks.size() > 15 || s.y.ticks.size() > 15) finding("an axis with too many decades");
  for (std::size_t i = 0; i < s.labels.size(); ++i)
    for (std::size_t j = i + 1; j < s.labels.size(); ++j) {
      const auto& a = s.labels[i];
      const auto& b = s.labels[j];
      if (overlap(text_box({a.x, a.y}, a.angle, a.width, c.label_px),
                  text_box({b.x, b.y}, b.angle, b.width, c.label_px)))
        finding("two roof labels overlap");
    }
  if (s.labels.size() + s.key.size() != s.lines.size()) finding("a roof without its label");
  for (const auto& a : s.arrows)
    for (const auto& q : {a.from, a.to, a.head[0], a.head[1], a.head[2]})
      if (!inside(q.x, 0, c.width) || !inside(q.y, 0, c.height))
        finding("a fusion arrow leaves the canvas");
}

// Every placed result is drawn or listed as off the plot; every number of it is usable.
void check_placements(const ridgeline::ReportInput& in, const ridgeline::RooflineScene& s) {
  std::set<std::size_t> drawn;
  for (const auto& pt : s.points) drawn.insert(pt.placement);
  std::set<std::string> off;
  for (const auto& o : s.omitted)
    if (o.result) off.insert(o.what);
  for (std::size_t i = 0; i < in.placements.size(); ++i) {
    const auto& p = in.placements[i];
    if (!p.placeable) {
      if (p.reason.empty()) finding("a result not placeable without a reason");
      continue;
    }
    if (!ridgeline::usable(p.flops) || !ridgeline::usable(p.seconds) ||
        !ridgeline::usable(p.achieved) || p.intensity.empty())
      finding("a placed result with a number that is not usable");
    if (p.attainable != 0 && (!ridgeline::usable(p.attainable) || !ridgeline::usable(p.efficiency)))
      finding("an attainable rate or efficiency that is not usable");
    if (!drawn.count(i) && !off.count(p.name)) finding("a placed result neither drawn nor listed");
  }
}

void report_all(const ridgeline::Run& run, const std::optional<ridgeline::MachineModel>& machine,
                std::size_t input_size) {
  const ridgeline::ReportInput in = ridgeline::make_report_input(run, "fuzz.json", machine, "fuzz");
  const ridgeline::RooflineScene scene = ridgeline::roofline_scene(
      in.placements, in.machine ? &*in.machine : nullptr, {}, in.fusion.pairs);
  check_scene(scene);
  check_placements(in, scene);
  const std::size_t limit = (std::size_t{1} << 20) + 400 * input_size;
  if (ridgeline::html_report(in).size() > limit) finding("HTML out of proportion to the input");
  if (ridgeline::markdown_report(in).size() > limit) finding("Markdown out of proportion");
  if (ridgeline::csv_report(in).size() > limit) finding("CSV out of proportion");
  if (ridgeline::terminal_summary(in).size() > limit) finding("terminal table out of proportion");
  if (ridgeline::fusion_csv(in).size() + ridgeline::sweep_csv(in).size() > limit)
    finding("fusion CSV out of proportion");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ridgeline::fuzz::InputFile file;
  ridgeline::Run run;
  try {
    run = ridgeline::read_run_file(file.write(data, size));
  } catch (...) {
    return -1;  // refused by the reader: not added to the corpus
  }
  report_all(run, run.context.machine, size);
  if (run.context.machine) report_all(run, std::nullopt, size);
  return 0;
}
