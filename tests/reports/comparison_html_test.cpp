// `ridgeline report BASE NEW`: two runs built by hand on one roofline (the scene's arrows,
// one per compared case that moved far enough) and the page around it (markers per run,
// arrows coloured by verdict, the verdict table, names escaped).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "compared_runs.hpp"
#include "fusion_runs.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/reports/comparison.hpp"
#include "ridgeline/reports/roofline_style.hpp"
#include "text_checks.hpp"

namespace ridgeline {
namespace {

using compared_runs::add_case;

std::vector<double> around(double ms) {
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back(ms * (1 + 0.001 * i));
  return v;
}

// cpu.slower takes twice as long in the new run, cpu.same as long, cpu.crashes crashes there;
// cpu.gone is only in the base run, cpu.new only in the new one. Both on fusion_runs' machine.
struct TwoRuns {
  ReportInput base, head;
  RunComparison cmp;
  std::vector<RooflinePlacement> placements;  // the base run's, then the new run's
};

TwoRuns two_runs(const std::string& odd_backend = "cpu.same") {
  Run base, head;
  for (Run* r : {&base, &head}) {
    r->context.has_ridgeline = true;
    r->context.machine = fusion_runs::machine();
  }
  add_case(base, "cpu.slower", around(1.0));
  add_case(head, "cpu.slower", around(2.0));
  add_case(base, odd_backend, around(1.0));
  add_case(head, odd_backend, around(1.0));
  add_case(base, "cpu.crashes", around(1.0));
  add_case(head, "cpu.crashes", {}, Disposition::crashed);
  add_case(base, "cpu.gone", around(1.0));
  add_case(head, "cpu.new", around(1.0));
  TwoRuns t{make_report_input(base, "base.json", base.context.machine, "the base run"),
            make_report_input(head, "new.json", head.context.machine, "the new run"),
            compare_runs(base, head, {}),
            {}};
  t.placements = t.base.placements;
  t.placements.insert(t.placements.end(), t.head.placements.begin(), t.head.placements.end());
  return t;
}

std::size_t case_index(const RunComparison& cmp, const std::string& backend) {
  for (std::size_t i = 0; i < cmp.cases.size(); ++i)
    if (cmp.cases[i].key.backend == backend) return i;
  throw std::logic_error("no case of " + backend);
}

using test::count;

TEST(ComparisonScene, AnArrowForEachCaseThatMovedAndWhyTheOthersHaveNone) {
  const TwoRuns t = two_runs();
  ASSERT_EQ(t.cmp.cases.size(), 3u);
  const MachineModel m = fusion_runs::machine();
  const RooflineScene scene =
      comparison_scene(t.placements, t.base.placements.size(), t.cmp.cases, &m);

  // One arrow: the case that slowed down, from its base point straight down to its new one.
  ASSERT_EQ(scene.arrows.size(), 1u);
  const SceneArrow& a = scene.arrows[0];
  EXPECT_EQ(a.kind, SceneArrow::Kind::comparison);
  EXPECT_EQ(a.pair, case_index(t.cmp, "cpu.slower"));
  const auto point_of = [&](std::size_t placement) {
    for (const auto& pt : scene.points)
      if (pt.placement == placement) return pt;
    throw std::logic_error("no point");
  };
  const auto where = case_placements(t.placements, t.base.placements.size(), t.cmp.cases);
  const auto& slower = where[a.pair];
  ASSERT_TRUE(slower.base && slower.head);
  EXPECT_LT(*slower.base, t.base.placements.size());
  EXPECT_GE(*slower.head, t.base.placements.size());
  const ScenePoint from = point_of(*slower.base), to = point_of(*slower.head);
  EXPECT_NEAR(a.from.x, from.x, 0.01);  // the same intensity: a vertical arrow
  EXPECT_NEAR(a.head[0].x, to.x, 0.01);
  EXPECT_GT(a.from.y, from.y);  // starts below the base marker, ends above the new one
  EXPECT_LT(a.head[0].y, to.y);
  EXPECT_GT(to.y, from.y);  // half the rate: lower on the plot
  EXPECT_NEAR(to.y - from.y, (scene.y.ticks[0].pixel - scene.y.ticks[1].pixel) * std::log10(2.0),
              0.5);

  // The unchanged case is counted in the caption, the crashed one listed with the reason.
  std::string caption;
  for (const auto& line : scene.caption) caption += line + " ";
  EXPECT_NE(caption.find("1 arrow from a case's base point to its new point"), std::string::npos)
      << caption;
  EXPECT_NE(caption.find("1 of the 3 compared cases moved too little to draw an arrow (1 same)"),
            std::string::npos)
      << caption;
  bool crashed_listed = false;
  for (const auto& o : scene.omitted)
    crashed_listed |= o.what.find("cpu.crashes") != std::string::npos &&
                      o.what.find("(broken)") != std::string::npos &&
                      o.reason == "the new case is not placeable";
  EXPECT_TRUE(crashed_listed);
}

TEST(ComparisonHtml, BothRunsOneRoofArrowsByVerdictAndTheTable) {
  const TwoRuns t = two_runs();
  const std::string html =
      comparison_html(t.base, t.head, {t.cmp, "base.json", "new.json", FailOn::regression});
  // Every placed point of each run drawn once, hollow (base) or filled (new).
  EXPECT_EQ(count(html, "<g class=\"point base\">"), 4u);  // slower, same, crashes, gone
  EXPECT_EQ(count(html, "<g class=\"point new\">"), 3u);   // slower, same, new
  EXPECT_EQ(count(html, "class=\"comparison-arrow\""), 1u);
  EXPECT_NE(html.find("class=\"comparison-arrow\" d=\"M"), std::string::npos);
  EXPECT_NE(html.find("stroke=\"#e03131\" stroke-width=\"1.5\" fill=\"#e03131\"><title>gemm/"
                      "cpu.slower"),
            std::string::npos);
  // The new point's tooltip carries its verdict.
  EXPECT_NE(html.find("verdict: regression\nnew ÷ base 2.0"), std::string::npos);
  for (const char* v : {"regression", "same", "broken"})
    EXPECT_EQ(count(html, fmt::format("<tr data-verdict=\"{}\">", v)), 1u) << v;
  EXPECT_NE(html.find("The gate fails"), std::string::npos);
  EXPECT_NE(html.find("1 regression, 1 same, 1 broken"), std::string::npos);
  EXPECT_NE(html.find("the new run (added)"), std::string::npos);
  EXPECT_NE(html.find("the base run (removed)"), std::string::npos);
  EXPECT_NE(html.find("Roofs: the new run's machine, the new run."), std::string::npos);
  // Rates of both runs side by side: 2 x 256^3 FLOPs in 1 ms, then in 2 ms.
  EXPECT_NE(html.find(">33.55</td><td class=\"n\" data-v=\"16777216000\">16.78</td>"),
            std::string::npos);
  EXPECT_EQ(html.find("NaN"), std::string::npos);

  // Improvements never fail the default gate: the same runs the other way round pass it.
  const TwoRuns flipped = two_runs();
  RunComparison better = compare_runs(flipped.head.run, flipped.base.run, {});
  better.cases.erase(better.cases.begin() +
                     static_cast<std::ptrdiff_t>(case_index(better, "cpu.crashes")));
  const std::string passed =
      comparison_html(flipped.head, flipped.base, {better, "new.json", "base.json"});
  EXPECT_NE(passed.find("The gate passes"), std::string::npos);
  EXPECT_NE(passed.find("stroke=\"#2f9e44\""), std::string::npos);  // the improvement's green
}

TEST(ComparisonHtml, RunsFromTwoMachinesEachUnderItsOwnRoofs) {
  // The same case on two machines (fingerprints differ): compare judges efficiency, and the
  // picture puts each run's point under its own machine's roofs, the base's dotted.
  MachineModel a = fusion_runs::machine(), b = a;
  a.host = "zen4-vm";
  b.host = "zen5-vm";
  b.fingerprint = "another machine";
  for (auto& m : b.memory) m.bytes_per_s *= 2;
  ridgeline::Run base, head;
  base.context.has_ridgeline = head.context.has_ridgeline = true;
  base.context.machine = a;
  head.context.machine = b;
  add_case(base, "cpu.same", around(1.0));
  add_case(head, "cpu.same", around(1.0));
  const ReportInput bi = make_report_input(base, "base.json", a, "the base run's model");
  const ReportInput hi = make_report_input(head, "new.json", b, "the new run's model");
  const RunComparison cmp = compare_runs(base, head, {});
  ASSERT_EQ(cmp.basis, "efficiency");

  std::vector<RooflinePlacement> placements = bi.placements;
  placements.insert(placements.end(), hi.placements.begin(), hi.placements.end());
  const RooflineScene scene =
      comparison_scene(placements, bi.placements.size(), cmp.cases, &b, {}, &a);
  std::map<std::size_t, std::set<double>> dram;  // machine -> its DRAM roofs
  for (const auto& l : scene.lines)
    if (l.level == "DRAM") dram[l.machine].insert(l.value);
  EXPECT_EQ(dram[0], (std::set<double>{b.memory[0].bytes_per_s}));  // the new run's, first
  EXPECT_EQ(dram[1], (std::set<double>{a.memory[0].bytes_per_s}));
  std::size_t named = 0;
  for (const auto& l : scene.labels)
    named +=
        l.text.find("zen4-vm") != std::string::npos || l.text.find("zen5-vm") != std::string::npos;
  EXPECT_EQ(named + scene.key.size(), scene.lines.size());
  // One machine: one set of roofs, as before.
  for (const auto& l : comparison_scene(placements, bi.placements.size(), cmp.cases, &b).lines)
    EXPECT_EQ(l.machine, 0u);

  const std::string html = comparison_html(bi, hi, {cmp, "base.json", "new.json"});
  EXPECT_NE(html.find("stroke-dasharray=\"2 3\""), std::string::npos);
  EXPECT_NE(html.find("Roofs: each run's own machine, the new run's solid (the new run&#39;s "
                      "model), the base run's dotted (the base run&#39;s model)."),
            std::string::npos)
      << html.substr(html.find("Roofs:"), 200);
}

TEST(ComparisonHtml, NamesFromTheRunsAreEscaped) {
  const TwoRuns t = two_runs("cpu.<script>x</script>&\"q\"");
  const std::string html = comparison_html(t.base, t.head, {t.cmp, "a<b>.json", "b.json"});
  EXPECT_EQ(html.find("<script>x"), std::string::npos);
  EXPECT_EQ(html.find("a<b>"), std::string::npos);
  EXPECT_NE(html.find("cpu.&lt;script&gt;x&lt;/script&gt;&amp;&quot;q&quot;"), std::string::npos);
}

TEST(RooflinePicture, AThrottledGpuPointIsOutlinedAndSaysSo) {
  RooflinePlacement p;
  p.name = "gemm/cuda.cublas/f32";
  p.backend = "cuda.cublas";
  p.dtype = "f32";
  p.device = Device::gpu;
  p.placeable = true;
  p.achieved = 5e13;
  p.intensity = {{"HBM", 100.0}};
  p.throttled = true;
  ReportInput in;
  in.placements = {p};
  const RooflineScene scene = roofline_scene(in.placements, nullptr);
  const std::string svg = roofline_picture_svg(scene, in);
  EXPECT_NE(svg.find(std::string("stroke=\"") + kThrottledStroke + "\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("GPU THROTTLED while timed"), std::string::npos);
  in.placements[0].throttled = false;
  EXPECT_EQ(roofline_picture_svg(scene, in).find(kThrottledStroke), std::string::npos);
}

}  // namespace
}  // namespace ridgeline
