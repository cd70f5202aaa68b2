// The fusion analysis on Runs built by hand: which cases pair, the ratios, what is left
// unpaired and why, the eltwise chain's ridge, and the roofline scene's arrows.
#include "ridgeline/analysis/fusion.hpp"

#include <gtest/gtest.h>

#include "fusion_runs.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "scene_checks.hpp"

namespace ridgeline {

namespace {

using fusion_runs::make_case;

FusionAnalysis analyse(const Run& run, const MachineModel* machine) {
  return fusion_analysis(run, place_results(run, machine), machine);
}

Run two_cases(CaseResult a, CaseResult b) {
  ridgeline::Run run;
  run.benchmarks = {std::move(a), std::move(b)};
  return run;
}

}  // namespace

TEST(FusionRole, IsTheRecordedRoleAndFamilyNotTheBackendsName) {
  CaseDetails d;
  d.backend = "cpu.confused";  // a name that says nothing: the role is what counts
  d.role = KernelRole::fused;
  d.family = "cpu.avx2";
  ASSERT_TRUE(fusion_role(d));
  EXPECT_EQ(fusion_role(d)->family, "cpu.avx2");
  EXPECT_TRUE(fusion_role(d)->fused);
  d.role = KernelRole::unfused;
  EXPECT_FALSE(fusion_role(d)->fused);
  d.backend = "cpu.fused";
  for (KernelRole other : {KernelRole::ladder, KernelRole::vendor}) {
    d.role = other;
    EXPECT_FALSE(fusion_role(d));
  }
}

TEST(FusionPairs, RatiosOfAHandBuiltPair) {
  const MachineModel m = fusion_runs::machine();
  const ridgeline::Run run =
      two_cases(make_case("cpu.unfused", "softmax", "rows=4096,cols=4096", 1, 40),
                make_case("cpu.fused", "softmax", "rows=4096,cols=4096", 1, 10));
  const FusionAnalysis f = analyse(run, &m);
  ASSERT_EQ(f.pairs.size(), 1u);
  EXPECT_TRUE(f.unpaired.empty());
  const FusionPair& p = f.pairs[0];
  EXPECT_EQ(p.op, "softmax");
  EXPECT_EQ(p.params, "rows=4096,cols=4096");
  EXPECT_EQ(p.dtype, "f32");
  EXPECT_EQ(p.pattern, "normal");
  EXPECT_EQ(p.threads, 1);
  EXPECT_EQ(p.family, "cpu");
  EXPECT_EQ(p.unfused.placement, 0u);
  EXPECT_EQ(p.fused.placement, 1u);
  // Fused: one read and one write of 4096 x 4096 floats. Unfused: max, subtract, exp, sum,
  // divide as passes, (8 rows cols + 4 rows) floats.
  EXPECT_DOUBLE_EQ(p.fused.analytic.value, 2.0 * 4096 * 4096 * 4);
  EXPECT_DOUBLE_EQ(p.unfused.analytic.value, (8.0 * 4096 * 4096 + 4 * 4096) * 4);
  EXPECT_EQ(p.fused.analytic.source, MetricSource::analytic);
  EXPECT_EQ(p.fused.counted.value, 0);
  EXPECT_DOUBLE_EQ(p.byte_ratio, 4 + 2.0 / 4096);
  EXPECT_EQ(p.counted_byte_ratio, 0);
  EXPECT_DOUBLE_EQ(p.speedup, 4);
  EXPECT_DOUBLE_EQ(p.time_over_bytes, 4 / (4 + 2.0 / 4096));
  // Bytes per second over the 20 GB/s DRAM roof.
  EXPECT_NEAR(p.fused.memory_roof, 2.0 * 4096 * 4096 * 4 / 0.010 / 20e9, 1e-9);
  EXPECT_NEAR(p.unfused.memory_roof, (8.0 * 4096 * 4096 + 4 * 4096) * 4 / 0.040 / 20e9, 1e-9);
  EXPECT_EQ(p.fused.roof_level, "DRAM");
  EXPECT_EQ(p.level, "DRAM");
  EXPECT_TRUE(p.notes.empty()) << p.notes.front();
}

// Energy per call: each side's energy readings summed over its repetitions, over their
// iterations; the ratio from the domain both sides read (RAPL's package before its others).
TEST(FusionPairs, EnergyPerCallIsTheSumOverRepetitionsOverTheirIterations) {
  CaseResult unfused = make_case("cpu.unfused", "softmax", "rows=4096,cols=4096", 1, 40);
  CaseResult fused = make_case("cpu.fused", "softmax", "rows=4096,cols=4096", 1, 10);
  ridgeline::Run run;
  for (double joules : {3.0, 5.0}) {  // two repetitions of 10 calls: 8 J / 20 calls
    CaseResult r = unfused;
    r.ridgeline->metrics.push_back({"energy.dram-0", 1.0, "J", MetricSource::counted});
    r.ridgeline->metrics.push_back({"energy.package-0", joules, "J", MetricSource::counted});
    run.benchmarks.push_back(r);
  }
  CaseResult f = fused;
  f.iterations = 40;
  f.ridgeline->metrics.push_back({"energy.package-0", 4.0, "J", MetricSource::counted});
  run.benchmarks.push_back(f);
  const MachineModel m = fusion_runs::machine();
  const FusionAnalysis a = analyse(run, &m);
  ASSERT_EQ(a.pairs.size(), 1u);
  const FusionPair& p = a.pairs[0];
  EXPECT_EQ(p.energy_domain, "package-0");
  EXPECT_DOUBLE_EQ(p.unfused.joules, 0.4);
  EXPECT_DOUBLE_EQ(p.fused.joules, 0.1);
  EXPECT_DOUBLE_EQ(p.energy_ratio, 4.0);
  // Two sockets: package-0 is read, whatever other package domains follow it by name.
  for (auto& r : run.benchmarks)
    r.ridgeline->metrics.push_back({"energy.package-1", 100.0, "J", MetricSource::counted});
  EXPECT_EQ(analyse(run, &m).pairs.at(0).energy_domain, "package-0");
  // A side that read no energy leaves the pair without one: no ratio of one side alone.
  run.benchmarks.back().ridgeline->metrics.clear();
  const FusionPair q = analyse(run, &m).pairs.at(0);
  EXPECT_EQ(q.energy_ratio, 0);
  EXPECT_EQ(q.unfused.joules, 0);
  EXPECT_TRUE(q.energy_domain.empty());
}

TEST(FusionPairs, CountedBytesAreShownBesideTheModelAndTheirRatioIsTheOneTimeIsHeldTo) {
  CaseResult u = make_case("cpu.unfused", "rmsnorm", "rows=1024,cols=1024", 2, 4);
  CaseResult f = make_case("cpu.fused", "rmsnorm", "rows=1024,cols=1024", 2, 1);
  // Counters total the timed loop (10 iterations): 30 MB and 10 MB per call.
  u.ridgeline->metrics.push_back({"bytes.dram", 10 * 30e6, "B", MetricSource::counted});
  f.ridgeline->metrics.push_back({"bytes.dram", 10 * 10e6, "B", MetricSource::counted});
  const MachineModel m = fusion_runs::machine();
  const FusionAnalysis a = analyse(two_cases(u, f), &m);
  ASSERT_EQ(a.pairs.size(), 1u);
  const FusionPair& p = a.pairs[0];
  EXPECT_DOUBLE_EQ(p.unfused.counted.value, 30e6);
  EXPECT_DOUBLE_EQ(p.fused.counted.value, 10e6);
  EXPECT_EQ(p.fused.counted.source, MetricSource::counted);
  EXPECT_GT(p.fused.analytic.value, 0);  // the model stays beside the counters
  EXPECT_DOUBLE_EQ(p.counted_byte_ratio, 3);
  EXPECT_DOUBLE_EQ(p.speedup, 4);
  EXPECT_DOUBLE_EQ(p.time_over_bytes, 4.0 / 3);
}

TEST(FusionPairs, BothFormsAreComparedWithTheLevelTheirWorkingSetFitsNotTheirTraffic) {
  MachineModel m = fusion_runs::machine();
  m.l3_bytes = 256 << 20;  // the 128 MiB of x and y fit; the unfused passes move 512 MiB
  fusion_runs::add_l3_ceiling(m, 60e9);
  const ridgeline::Run run =
      two_cases(make_case("cpu.unfused", "softmax", "rows=4096,cols=4096", 1, 40),
                make_case("cpu.fused", "softmax", "rows=4096,cols=4096", 1, 10));
  const auto placements = place_results(run, &m);
  ASSERT_EQ(placements[0].intensity.count("L3"), 1u);
  ASSERT_EQ(placements[1].intensity.count("L3"), 1u);
  EXPECT_NE(join_notes(placements[0].notes)
                .find("analytic bytes (512.1 MiB per call); the "
                      "128.0 MiB working set fits L3"),
            std::string::npos)
      << join_notes(placements[0].notes);
  const FusionAnalysis f = fusion_analysis(run, placements, &m);
  ASSERT_EQ(f.pairs.size(), 1u);
  EXPECT_EQ(f.pairs[0].level, "L3");
  EXPECT_EQ(f.pairs[0].fused.roof_level, "L3");
  EXPECT_EQ(f.pairs[0].unfused.roof_level, "L3");
  EXPECT_TRUE(f.pairs[0].notes.empty());
}

TEST(FusionPairs, AFusedCaseWithoutItsTwinIsReportedUnpaired) {
  ridgeline::Run run;
  run.benchmarks.push_back(make_case("cpu.fused", "layernorm", "rows=64,cols=64", 1, 1));
  const FusionAnalysis f = analyse(run, nullptr);
  EXPECT_TRUE(f.pairs.empty());
  ASSERT_EQ(f.unpaired.size(), 1u);
  EXPECT_EQ(f.unpaired[0].placement, 0u);
  EXPECT_TRUE(f.unpaired[0].fused);
  EXPECT_EQ(f.unpaired[0].op, "layernorm");
  EXPECT_EQ(
      f.unpaired[0].reason,
      "no unfused case of family cpu with the same op, params, dtype, pattern, threads and device");
}

TEST(FusionPairs, DifferentThreadsOrPatternsDoNotPair) {
  const FusionAnalysis threads =
      analyse(two_cases(make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1),
                        make_case("cpu.unfused", "softmax", "rows=64,cols=64", 2, 2)),
              nullptr);
  EXPECT_TRUE(threads.pairs.empty());
  ASSERT_EQ(threads.unpaired.size(), 2u);
  EXPECT_NE(
      threads.unpaired[0].reason.find("(the unfused case of family cpu ran it with 2 threads)"),
      std::string::npos)
      << threads.unpaired[0].reason;
  EXPECT_NE(threads.unpaired[1].reason.find("(the fused case of family cpu ran it with 1 thread)"),
            std::string::npos)
      << threads.unpaired[1].reason;
  const FusionAnalysis pattern =
      analyse(two_cases(make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1),
                        make_case("cpu.unfused", "softmax", "rows=64,cols=64", 1, 2, "zeros")),
              nullptr);
  EXPECT_TRUE(pattern.pairs.empty());
  EXPECT_EQ(pattern.unpaired.size(), 2u);
  const FusionAnalysis params =
      analyse(two_cases(make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1),
                        make_case("cpu.unfused", "softmax", "rows=64,cols=128", 1, 2)),
              nullptr);
  EXPECT_TRUE(params.pairs.empty());
  EXPECT_EQ(params.unpaired.size(), 2u);
}

TEST(FusionPairs, ASecondFusedCaseOfTheSameProblemIsUnpairedNotDropped) {
  ridgeline::Run run = two_cases(make_case("cpu.unfused", "softmax", "rows=64,cols=64", 1, 2),
                                 make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1));
  run.benchmarks.push_back(make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1));
  run.benchmarks.back().run_name += "/again";
  const FusionAnalysis f = analyse(run, nullptr);
  EXPECT_EQ(f.pairs.size(), 1u);
  ASSERT_EQ(f.unpaired.size(), 1u);
  EXPECT_EQ(f.unpaired[0].placement, 2u);
  EXPECT_NE(f.unpaired[0].reason.find("already paired"), std::string::npos);
}

TEST(FusionPairs, AFailedSideKeepsThePairWithoutRatiosAndSaysWhy) {
  CaseResult u = make_case("cpu.unfused", "softmax", "rows=64,cols=64", 1, 2);
  u.ridgeline->validation.disposition = Disposition::incorrect;
  u.ridgeline->validation.message = "max error 1 above tolerance";
  const FusionAnalysis f =
      analyse(two_cases(u, make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1)), nullptr);
  ASSERT_EQ(f.pairs.size(), 1u);
  EXPECT_EQ(f.pairs[0].speedup, 0);
  EXPECT_EQ(f.pairs[0].time_over_bytes, 0);
  EXPECT_GT(f.pairs[0].byte_ratio, 1);  // the model's bytes need no measurement
  ASSERT_FALSE(f.pairs[0].notes.empty());
  EXPECT_NE(f.pairs[0].notes[0].find("the unfused case is not placeable: incorrect"),
            std::string::npos)
      << f.pairs[0].notes[0];
}

TEST(FusionPairs, WithoutCeilingsThereIsNoMemoryRoofButTheRatiosStand) {
  const FusionAnalysis f =
      analyse(two_cases(make_case("cpu.unfused", "softmax", "rows=64,cols=64", 1, 3),
                        make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1)),
              nullptr);
  ASSERT_EQ(f.pairs.size(), 1u);
  EXPECT_DOUBLE_EQ(f.pairs[0].speedup, 3);
  EXPECT_EQ(f.pairs[0].fused.memory_roof, 0);
  EXPECT_EQ(f.pairs[0].fused.roof_level, "");
}

TEST(EltwiseSweep, TheFusedChainReachesTheRidgeWhereItsIntensityCrossesIt) {
  const MachineModel m = fusion_runs::machine();
  const FusionAnalysis f = analyse(fusion_runs::fusion_run(), &m);
  ASSERT_EQ(f.eltwise_sweeps.size(), 2u);
  const EltwiseSweep& unfused = f.eltwise_sweeps[0];
  const EltwiseSweep& fused = f.eltwise_sweeps[1];
  EXPECT_EQ(fused.backend, "cpu.fused");
  EXPECT_TRUE(fused.fused);
  EXPECT_FALSE(unfused.fused);
  EXPECT_EQ(fused.params, "n=33554432");
  EXPECT_EQ(fused.level, "DRAM");
  ASSERT_EQ(fused.points.size(), 6u);
  EXPECT_EQ(fused.points.front().length, 1);
  EXPECT_EQ(fused.points.back().length, 32);
  // FLOPs per element 2, 3, 6, 12, 24, 48 over 8 B: 0.25 ... 6 FLOP/B; the ridge is at
  // 100 GFLOP/s / 20 GB/s = 5 FLOP/B, crossed between L = 16 (3) and 32 (6).
  EXPECT_DOUBLE_EQ(fused.points[3].intensity, 12.0 / 8);
  EXPECT_DOUBLE_EQ(fused.ridge_intensity, 5);
  EXPECT_NEAR(fused.ridge_length, 16 + 16 * 2.0 / 3, 1e-9);
  EXPECT_FALSE(fused.ridge_extrapolated);
  EXPECT_DOUBLE_EQ(fused.points[0].seconds, 0.015);
  // Unfused, each op its own pass: the intensity stays flat and never reaches it.
  EXPECT_EQ(unfused.ridge_length, 0);
  EXPECT_NE(unfused.ridge_note.find("does not reach the DRAM ridge"), std::string::npos)
      << unfused.ridge_note;
}

TEST(EltwiseSweep, BeyondTheLongestChainTheRidgeIsExtrapolatedAndSaysSo) {
  ridgeline::Run run;
  for (int length : {4, 8, 16})
    run.benchmarks.push_back(
        make_case("cpu.fused", "eltwise_chain", fmt::format("n=33554432,L={}", length), 1, 15));
  const MachineModel m = fusion_runs::machine();
  const FusionAnalysis f = analyse(run, &m);
  ASSERT_EQ(f.eltwise_sweeps.size(), 1u);
  const EltwiseSweep& s = f.eltwise_sweeps[0];
  EXPECT_NEAR(s.ridge_length, 16 + 16 * 2.0 / 3, 1e-9);  // intensity linear in L past 4
  EXPECT_TRUE(s.ridge_extrapolated);
  EXPECT_NE(s.ridge_note.find("extrapolated"), std::string::npos);
  // No machine: no ridge, said so.
  const FusionAnalysis none = analyse(run, nullptr);
  EXPECT_EQ(none.eltwise_sweeps[0].ridge_length, 0);
  EXPECT_EQ(none.eltwise_sweeps[0].ridge_note, "no machine model: no ridge");
}

TEST(EltwiseSweep, OneLengthIsNoSweepAndOtherThreadCountsAreTheirOwn) {
  ridgeline::Run run;
  run.benchmarks.push_back(make_case("cpu.fused", "eltwise_chain", "n=4096,L=4", 1, 1));
  run.benchmarks.push_back(make_case("cpu.fused", "eltwise_chain", "n=4096,L=8", 2, 1));
  EXPECT_TRUE(analyse(run, nullptr).eltwise_sweeps.empty());
}

TEST(FusionScene, AnArrowGoesFromTheUnfusedPointRightToTheFusedPoint) {
  const MachineModel m = fusion_runs::machine();
  const ridgeline::Run run = fusion_runs::fusion_run();
  const auto placements = place_results(run, &m);
  const FusionAnalysis f = fusion_analysis(run, placements, &m);
  ASSERT_EQ(f.pairs.size(), 7u);  // softmax and six chain lengths
  const RooflineScene s = roofline_scene(placements, &m, {}, f.pairs);
  scene_checks::expect_sound_scene(s, "fusion");
  // At L = 1 the chain has nothing to fuse: both forms move the same bytes in the same
  // time, one point, no arrow, and the plot says so.
  ASSERT_EQ(s.arrows.size(), 6u);
  bool no_room = false;
  for (const auto& o : s.omitted)
    no_room |= o.what == "fusion arrow eltwise_chain n=33554432,L=1 f32 1 thread" &&
               o.reason == "the unfused and fused points are 0 px apart: no room for an arrow";
  EXPECT_TRUE(no_room);
  const SceneArrow& a = s.arrows[0];
  EXPECT_EQ(a.pair, 0u);
  const ScenePoint* from = nullptr;
  const ScenePoint* to = nullptr;
  for (const auto& pt : s.points) {
    if (pt.placement == f.pairs[0].unfused.placement) from = &pt;
    if (pt.placement == f.pairs[0].fused.placement) to = &pt;
  }
  ASSERT_TRUE(from && to);
  EXPECT_GT(to->x, from->x);  // fewer bytes: higher intensity
  EXPECT_LT(to->y, from->y);  // faster: higher up (pixels grow downwards)
  // The shaft leaves the unfused marker, the head's tip stops at the fused marker's edge.
  EXPECT_NEAR(std::hypot(a.from.x - from->x, a.from.y - from->y), 7, 1e-6);
  EXPECT_NEAR(std::hypot(a.head[0].x - to->x, a.head[0].y - to->y), 7, 1e-6);
  for (const auto& arrow : s.arrows)
    for (const SceneXY& q : {arrow.from, arrow.to, arrow.head[0], arrow.head[1], arrow.head[2]}) {
      EXPECT_TRUE(scene_checks::finite_inside(q.x, 0, s.canvas.width));
      EXPECT_TRUE(scene_checks::finite_inside(q.y, 0, s.canvas.height));
    }
  bool captioned = false;
  for (const auto& line : s.caption) captioned |= line.find("6 arrows") != std::string::npos;
  EXPECT_TRUE(captioned);
}

TEST(FusionScene, APairWhosePointIsMissingHasNoArrowAndIsListed) {
  CaseResult u = make_case("cpu.unfused", "softmax", "rows=64,cols=64", 1, 2);
  u.ridgeline->validation.disposition = Disposition::crashed;
  const ridgeline::Run run =
      two_cases(u, make_case("cpu.fused", "softmax", "rows=64,cols=64", 1, 1));
  const MachineModel m = fusion_runs::machine();
  const auto placements = place_results(run, &m);
  const FusionAnalysis f = fusion_analysis(run, placements, &m);
  const RooflineScene s = roofline_scene(placements, &m, {}, f.pairs);
  EXPECT_TRUE(s.arrows.empty());
  bool listed = false;
  for (const auto& o : s.omitted)
    listed |= o.what.rfind("fusion arrow softmax", 0) == 0 &&
              o.reason == "the unfused case is not placeable";
  EXPECT_TRUE(listed);
}

}  // namespace ridgeline
