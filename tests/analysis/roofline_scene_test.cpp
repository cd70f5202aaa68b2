// The roofline scene: labels never collide, everything drawn stays on the canvas, axes
// stay bounded whatever the numbers, and the caption tells what the points are.
#include "ridgeline/analysis/roofline_scene.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "ridgeline/analysis/scene_geometry.hpp"
#include "ridgeline/core/run_json.hpp"
#include "scene_checks.hpp"

namespace ridgeline {

namespace {

ComputeCeiling peak(const std::string& dtype, double per_second, int threads) {
  ComputeCeiling c;
  c.name = dtype + ".avx512.fma";
  c.dtype = dtype;
  c.isa = "avx512";
  c.per_second = per_second;
  c.threads = threads;
  return c;
}

MemoryCeiling bandwidth(const std::string& level, double bytes_per_s, int threads) {
  MemoryCeiling m;
  m.level = level;
  m.kernel = "copy";
  m.bytes_per_s = bytes_per_s;
  m.threads = threads;
  return m;
}

RooflinePlacement point(const std::string& name, double intensity, double achieved,
                        const std::string& dtype = "f64", int threads = 1) {
  RooflinePlacement p;
  p.name = name;
  p.backend = "cpu.test";
  p.dtype = dtype;
  p.threads = threads;
  p.placeable = true;
  p.achieved = achieved;
  p.intensity["DRAM"] = intensity;
  return p;
}

}  // namespace

TEST(SceneLabels, L3AndDramRoofsWithCloseBandwidthsDoNotOverprint) {
  // The Zen 5 VM's machine: L3 and DRAM within 1.3x of each other, at 1 and 2 threads.
  MachineModel m;
  for (int t : {1, 2}) {
    m.compute.push_back(peak("f64", 114e9 * t, t));
    m.compute.push_back(peak("f32", 228e9 * t, t));
    m.memory.push_back(bandwidth("L1", 400e9 * t, t));
    m.memory.push_back(bandwidth("L2", 150e9 * t, t));
    m.memory.push_back(bandwidth("L3", 52e9 * t, t));
    m.memory.push_back(bandwidth("DRAM", 40e9 * t, t));
  }
  const RooflineScene s = roofline_scene({point("a", 4, 30e9), point("b", 0.2, 5e9, "f32", 2)}, &m);
  scene_checks::expect_sound_scene(s, "close L3 and DRAM");
  EXPECT_GE(s.lines.size(), 10u);
  std::size_t l3_dram = 0;
  for (const auto& l : s.labels)
    l3_dram += l.text.rfind("L3 ", 0) == 0 || l.text.rfind("DRAM ", 0) == 0;
  EXPECT_EQ(l3_dram, 4u) << "L3 and DRAM at 1 and 2 threads: all four labelled on the plot";
}

// A crowded real run (#66): `ridgeline profile` on the Intel AMX VM, f32, f64, bf16 and i8 on
// 1 and 2 threads, vector units and the matrix engine, four memory levels: 84 points and 18
// roofs. At the HTML report's canvas, the dashboard's at its window's default size and its
// smallest, no label overlaps another or covers a point.
TEST(SceneLabels, ACrowdedRealRunAtEveryCanvasSize) {
  const ridgeline::Run run =
      read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-profile-amx-vm.json");
  ASSERT_TRUE(run.context.machine);
  const std::vector<RooflinePlacement> placements = place_results(run, &*run.context.machine);
  for (const auto& [w, h] : {std::pair{960.0, 600.0}, {900.0, 520.0}, {480.0, 320.0}}) {
    SceneCanvas canvas;
    canvas.width = w;
    canvas.height = h;
    const RooflineScene s = roofline_scene(placements, &*run.context.machine, canvas);
    const std::string context = fmt::format("{}x{}", w, h);
    EXPECT_GE(s.points.size(), 80u) << context;
    EXPECT_GE(s.lines.size(), 16u) << context;
    if (w >= 900) {  // the smallest canvas may send most labels to the key
      EXPECT_GE(s.labels.size(), s.lines.size() / 2) << context << ": most roofs on the plot";
    }
    scene_checks::expect_sound_scene(s, context);
  }
}

TEST(SceneLabels, NoTwoLabelsOverlapOnRandomMachines) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> log_peak(9, 13), log_ratio(0, 2.5), log_ai(-3, 3);
  for (int trial = 0; trial < 150; ++trial) {
    MachineModel m;
    std::vector<RooflinePlacement> points;
    for (int t : {1, 4}) {
      const double p64 = std::pow(10.0, log_peak(rng));
      m.compute.push_back(peak("f64", p64, t));
      m.compute.push_back(peak("f32", p64 * 2, t));
      double bw = p64 / std::pow(10.0, log_ratio(rng) - 2);
      for (const char* level : {"L1", "L2", "L3", "DRAM"}) {
        m.memory.push_back(bandwidth(level, bw, t));
        bw /= std::pow(10.0, log_ratio(rng) / 3);
      }
      std::string name = "p";  // not "p" + ...: GCC 12 warns (-Wrestrict) wrongly there
      name += std::to_string(t);
      points.push_back(
          point(name, std::pow(10.0, log_ai(rng)), p64 / 10, trial % 2 ? "f32" : "f64", t));
    }
    scene_checks::expect_sound_scene(roofline_scene(points, &m), "trial " + std::to_string(trial));
    if (HasFailure()) break;
  }
}

TEST(SceneLabels, ALabelWithNoRoomGoesToTheKeyNotOntoAnother) {
  MachineModel m;
  m.compute.push_back(peak("f64", 1e11, 1));
  for (int i = 0; i < 8; ++i)  // eight levels 1% apart: not all labels fit on the lines
    m.memory.push_back(
        bandwidth("a level with a long name " + std::to_string(i), 5e10 * (1 + 0.01 * i), 1));
  const RooflineScene s = roofline_scene({point("a", 1, 1e10)}, &m);
  scene_checks::expect_sound_scene(s, "eight close levels");
  EXPECT_FALSE(s.key.empty());
}

TEST(SceneAxes, ExtremePointsAreLeftOffWithTheReasonAndTheAxesStayBounded) {
  MachineModel m;
  m.compute.push_back(peak("f64", 5e10, 1));
  m.memory.push_back(bandwidth("DRAM", 2e10, 1));
  const std::vector<RooflinePlacement> points{point("sane", 2, 1e10), point("tiny", 1e-300, 1e-290),
                                              point("huge", 1e300, 1e300)};
  const RooflineScene s = roofline_scene(points, &m);
  scene_checks::expect_sound_scene(s, "extreme points");
  ASSERT_EQ(s.points.size(), 1u);
  EXPECT_EQ(s.points[0].placement, 0u);
  std::size_t off = 0;
  for (const auto& o : s.omitted)
    if (o.result) {
      ++off;
      EXPECT_NE(o.reason.find("outside the plotted range"), std::string::npos) << o.reason;
    }
  EXPECT_EQ(off, 2u);
  EXPECT_LE(std::log10(s.x.hi / s.x.lo), 14.0);
  EXPECT_LE(std::log10(s.y.hi / s.y.lo), 14.0);
}

TEST(SceneAxes, NoCeilingsAndNoPointsGiveADefaultPlot) {
  const RooflineScene s = roofline_scene({}, nullptr);
  scene_checks::expect_sound_scene(s, "empty");
  EXPECT_TRUE(s.lines.empty());
  EXPECT_DOUBLE_EQ(s.x.lo, 0.1);
}

TEST(SceneRoofs, UnusableCeilingsAreLeftOutWithTheReason) {
  MachineModel m;
  m.compute.push_back(peak("f64", 0, 1));
  m.memory.push_back(bandwidth("DRAM", std::nan(""), 1));
  m.memory.push_back(bandwidth("L2", 1e11, 1));
  const RooflineScene s = roofline_scene({point("a", 1, 1e9)}, &m);
  scene_checks::expect_sound_scene(s, "unusable ceilings");
  std::string omitted;
  for (const auto& o : s.omitted) omitted += o.what + ": " + o.reason + "\n";
  EXPECT_NE(omitted.find("compute ceiling f64.avx512.fma left out: its value is 0"),
            std::string::npos)
      << omitted;
  EXPECT_NE(omitted.find("memory ceiling DRAM copy left out: its value is NaN"), std::string::npos)
      << omitted;
  EXPECT_NE(omitted.find("no usable compute peak"), std::string::npos) << omitted;
  ASSERT_EQ(s.lines.size(), 1u);  // L2 alone, up to the top of the plot
  EXPECT_EQ(s.lines[0].level, "L2");
}

TEST(SceneCaption, ForeignPointsAreSaidNotToBeValidatedByRidgeline) {
  const ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/gbench-foreign.json");
  const MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  const auto placed = place_results(run, &m);
  const RooflineScene s = roofline_scene(placed, &m);
  std::string caption;
  for (const auto& c : s.caption) caption += c + " ";
  EXPECT_NE(caption.find("1 result from a foreign Google Benchmark file: not validated by "
                         "Ridgeline"),
            std::string::npos)
      << caption;
  EXPECT_NE(caption.find("level is unknown"), std::string::npos) << caption;
  EXPECT_NE(caption.find("dtype is unknown"), std::string::npos) << caption;
  EXPECT_EQ(caption.find("validated against its reference"), std::string::npos)
      << "no Ridgeline result in this file: " << caption;
  const ridgeline::Run ours = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  std::string ours_caption;
  for (const auto& c : roofline_scene(place_results(ours, &m), &m).caption) ours_caption += c;
  EXPECT_NE(ours_caption.find("validated against its reference"), std::string::npos);
  EXPECT_EQ(ours_caption.find("foreign"), std::string::npos);
}

TEST(SceneGeometry, OverlapOfRotatedBoxes) {
  using namespace scene;
  const Quad a = text_box({100, 100}, 0, 50, 10);
  EXPECT_TRUE(overlap(a, text_box({120, 105}, 0, 50, 10)));
  EXPECT_FALSE(overlap(a, text_box({100, 120}, 0, 50, 10)));
  // Two parallel diagonal labels one above the other: apart, then touching.
  EXPECT_FALSE(overlap(text_box({100, 100}, -45, 80, 10), text_box({100, 120}, -45, 80, 10)));
  EXPECT_TRUE(overlap(text_box({100, 100}, -45, 80, 10), text_box({105, 105}, -45, 80, 10)));
  // Their axis-aligned bounding boxes would overlap; the boxes themselves do not.
  EXPECT_FALSE(overlap(text_box({100, 200}, -45, 100, 10), text_box({130, 200}, -45, 100, 10)));
  EXPECT_GT(text_width("WWW", 10), text_width("iii", 10));
  EXPECT_DOUBLE_EQ(text_width("\xE2\x80\xAE", 10), 10);  // one code point, three bytes
}

TEST(OverlayScene, EachMachinesRunsUnderItsOwnRoofs) {
  // Two machines: the second with twice the DRAM bandwidth and a higher f64 peak, each with a
  // run of its own; a third run carries no model.
  MachineModel a, b;
  a.host = "zen4-vm";
  a.compute.push_back(peak("f64", 100e9, 1));
  a.memory.push_back(bandwidth("DRAM", 40e9, 1));
  b.host = "zen5-vm";
  b.compute.push_back(peak("f64", 130e9, 1));
  b.compute.push_back(peak("f32", 260e9, 2));  // no placement under it: not drawn
  b.memory.push_back(bandwidth("DRAM", 80e9, 1));
  const std::vector<RooflinePlacement> placements{point("on a", 1, 30e9), point("on b", 1, 60e9),
                                                  point("on b too", 8, 120e9),
                                                  point("no model", 2, 10e9)};
  const std::vector<std::size_t> machine_of{0, 1, 1, 2};
  const RooflineScene s =
      overlay_scene(placements, machine_of, {{&a, "zen4-vm"}, {&b, "zen5-vm"}, {nullptr, "none"}});
  scene_checks::expect_sound_scene(s, "overlay");
  EXPECT_EQ(s.points.size(), 4u);  // every run's points, the one without roofs too
  std::map<std::size_t, std::vector<double>> values;  // machine -> its roofs' values
  for (const auto& l : s.lines) values[l.machine].push_back(l.value);
  EXPECT_EQ(values[0], (std::vector<double>{40e9, 100e9}));  // DRAM then the peak
  EXPECT_EQ(values[1], (std::vector<double>{80e9, 130e9}));
  EXPECT_EQ(values.count(2), 0u);
  std::size_t named = 0;  // each label says whose roof it is
  for (const auto& l : s.labels)
    named +=
        l.text.find("zen4-vm") != std::string::npos || l.text.find("zen5-vm") != std::string::npos;
  EXPECT_EQ(named + s.key.size(), 4u);

  // All under one machine: one set of roofs, labelled as in the report.
  const RooflineScene one = overlay_scene(placements, {0, 0, 0, 0}, {{&a, "zen4-vm"}});
  for (const auto& l : one.lines) EXPECT_EQ(l.machine, 0u);
  for (const auto& l : one.labels) EXPECT_EQ(l.text.find("zen4-vm"), std::string::npos) << l.text;
  EXPECT_EQ(one.lines.size(), roofline_scene(placements, &a).lines.size());

  EXPECT_THROW(overlay_scene(placements, {0, 1}, {{&a, "a"}, {&b, "b"}}), std::invalid_argument);
  EXPECT_THROW(overlay_scene(placements, {0, 1, 1, 3}, {{&a, "a"}, {&b, "b"}}),
               std::invalid_argument);
}

}  // namespace ridgeline

namespace ridgeline {

// The GPU's roof at its power cap is drawn beside the nominal one, dotted, for the dtype and
// pattern of a placed GPU case, and only where it lies below the nominal roof.
TEST(SceneRoofs, APowerCapBelowTheGpuRoofIsDrawnForThePlacedPattern) {
  MachineModel m;
  ComputeCeiling tensor = peak("bf16", 7.5e14, 1);
  tensor.name = "gpu.bf16.cublaslt";
  tensor.device = Device::gpu;
  m.compute.push_back(tensor);
  MemoryCeiling hbm = bandwidth("HBM", 3e12, 1);
  hbm.device = Device::gpu;
  m.memory.push_back(hbm);
  RooflinePlacement gemm = point("gemm", 2000, 6e14, "bf16");
  gemm.device = Device::gpu;
  gemm.pattern = "normal";
  gemm.intensity = {{"HBM", 2000}};
  const std::vector<PowerCapRoof> caps{
      {"bf16", "normal", 6.5e14, 699.0, std::nullopt, "gemm/cuda.cublas"},
      {"bf16", "zeros", 6.9e14, std::nullopt, std::nullopt, "x"},  // no case on zeros
      {"bf16", "uniform", 8e14, std::nullopt, std::nullopt, "x"},  // above the roof
      {"f16", "normal", 6e14, std::nullopt, std::nullopt, "x"}};   // no f16 case
  const RooflineScene s = roofline_scene({gemm}, &m, {}, {}, caps);
  scene_checks::expect_sound_scene(s, "power cap");
  std::vector<const SceneLine*> capped;
  for (const auto& l : s.lines)
    if (l.power_cap) capped.push_back(&l);
  ASSERT_EQ(capped.size(), 1u);
  EXPECT_DOUBLE_EQ(capped[0]->value, 6.5e14);
  EXPECT_EQ(capped[0]->ceiling, "normal");
  EXPECT_EQ(capped[0]->kind, SceneLine::Kind::compute);
  bool labelled = false;
  for (const auto& l : s.labels)
    labelled |= l.text.find("at the power cap (normal inputs)") != std::string::npos;
  for (const auto& k : s.key)
    labelled |= k.find("at the power cap (normal inputs)") != std::string::npos;
  EXPECT_TRUE(labelled);
  // Many patterns at the cap: the fastest and the slowest drawn first, at most three, the
  // rest omitted with the reason.
  std::vector<RooflinePlacement> many;
  std::vector<PowerCapRoof> many_caps;
  for (int i = 0; i < 5; ++i) {
    RooflinePlacement p = gemm;
    p.pattern = "p" + std::to_string(i);
    many.push_back(p);
    many_caps.push_back(
        {"bf16", p.pattern, (6.0 + 0.2 * i) * 1e14, std::nullopt, std::nullopt, "x"});
  }
  const RooflineScene crowded = roofline_scene(many, &m, {}, {}, many_caps);
  std::vector<double> drawn;
  for (const auto& l : crowded.lines)
    if (l.power_cap) drawn.push_back(l.value);
  EXPECT_EQ(drawn, (std::vector<double>{6.8e14, 6.0e14, 6.6e14}));
  int omitted = 0;
  for (const auto& o : crowded.omitted) omitted += o.what.rfind("power-cap roof bf16", 0) == 0;
  EXPECT_EQ(omitted, 2);
  // Without the caps, the nominal roof alone.
  for (const auto& l : roofline_scene({gemm}, &m).lines) EXPECT_FALSE(l.power_cap);
}

}  // namespace ridgeline
