// The first screen's model (overview.hpp): on a real crowded run and on made-up placements
// whose answers are known.
#include "ridgeline/analysis/overview.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "ridgeline/core/run_json.hpp"

namespace ridgeline {
namespace {

RooflinePlacement placed(std::string op, std::string backend, double achieved,
                         KernelRole role = KernelRole::ladder) {
  RooflinePlacement p;
  p.op = std::move(op);
  p.backend = std::move(backend);
  p.name = p.op + "/" + p.backend + "/f32/m=8/threads=1";
  p.dtype = "f32";
  p.params = "m=8";
  p.role = role;
  p.placeable = true;
  p.achieved = achieved;
  p.flops = 1e9;
  p.seconds = p.flops / achieved;
  p.attainable = 100e9;
  p.efficiency = achieved / p.attainable;
  p.above_roof = p.efficiency > 1.02;
  p.bound = Bound::compute();
  return p;
}

TEST(CompactCaseNames, KeepTheKernelAndWhatVaries) {
  EXPECT_EQ(compact_case_names({"gemm/cpu.naive/f32/m=512,n=512,k=512/layout=NN/threads=1",
                                "gemm/cpu.tiled/f32/m=512,n=512,k=512/layout=NN/threads=2"}),
            (std::vector<std::string>{"cpu.naive threads=1", "cpu.tiled threads=2"}));
  EXPECT_EQ(compact_case_names({"gemm/cpu.naive/f32/m=512,n=512,k=512/threads=1",
                                "gemm/cpu.naive/f64/m=1024,n=512,k=512/threads=1"}),
            (std::vector<std::string>{"cpu.naive f32 m=512", "cpu.naive f64 m=1024"}));
  // A value with commas of its own stays whole; one name alone is its kernel.
  EXPECT_EQ(
      compact_case_names({"einsum/cpu.ttgt/f32/equation=\"ij,jk->ik\"/extents=\"i=2,j=3\"",
                          "einsum/cpu.ttgt/f32/equation=\"ij,jk->ik\"/extents=\"i=4,j=3\""}),
      (std::vector<std::string>{"cpu.ttgt extents=\"i=2,j=3\"", "cpu.ttgt extents=\"i=4,j=3\""}));
  EXPECT_EQ(compact_case_names({"softmax/cpu.fused/f32/rows=8,cols=8"}),
            (std::vector<std::string>{"cpu.fused"}));
  // A foreign file's name of one part stays whole; its parts past the first are kept.
  EXPECT_EQ(compact_case_names({"BM_Error"}), (std::vector<std::string>{"BM_Error"}));
  EXPECT_EQ(compact_case_names({"BM_Sgemm/512", "BM_Sgemm/1024"}),
            (std::vector<std::string>{"512", "1024"}));
}

TEST(Overview, BestGapsAndConcernsOfKnownPlacements) {
  std::vector<RooflinePlacement> p{
      placed("gemm", "cpu.naive", 2e9), placed("gemm", "cpu.packed", 60e9),
      placed("gemm", "blas.mkl", 80e9, KernelRole::vendor), placed("gemm", "cpu.broken", 300e9)};
  p[3].above_roof = true;  // 300% of its roof: a concern, never the best
  p[3].efficiency = 3;
  p.push_back(placed("softmax", "cpu.fused", 5e9));
  p.back().disposition = Disposition::incorrect;
  p.back().placeable = false;
  p.back().reason = "incorrect: max rel err 1";  // as validation writes it
  p.push_back(placed("softmax", "cpu.unfused", 1e9, KernelRole::unfused));
  p.back().noisy = true;
  p.back().notes.push_back({NoteKind::noise, "cv 9% over 3 repetitions"});
  // An unfused chain faster than the vendor is a baseline, not "ours".
  p.push_back(placed("gemm", "cpu.unfused", 900e9, KernelRole::unfused));
  p.back().attainable = 1000e9;  // under its roof: the best of the op
  p.back().efficiency = 0.9;
  p.back().above_roof = false;
  // A foreign result without FLOPs: ran, never validated, not placeable.
  RooflinePlacement foreign;
  foreign.name = "BM_Copy/1024";
  foreign.foreign = true;
  foreign.disposition = Disposition::not_verified;
  foreign.reason = "no FLOP counter";
  p.push_back(foreign);
  RunContext context;
  context.collectors.push_back({"rapl", false, "no powercap here", "", "", true});
  context.collectors.push_back({"likwid", false, "not requested", "", "", false});
  context.collectors.push_back({"nvml", false, "no GPU", "", "", std::nullopt});  // older run
  const Overview o = make_overview(p, nullptr, {}, context);
  EXPECT_FALSE(o.machine.known);
  EXPECT_EQ(o.cases, p.size());
  ASSERT_EQ(o.best.size(), 2u);
  EXPECT_EQ(o.best[0].op, "gemm");
  EXPECT_EQ(o.best[0].placement, 6u) << "the fastest below its roof";
  EXPECT_EQ(o.best[0].cases, 5u);
  EXPECT_EQ(o.best[1].placement, 5u) << "the failed case is not placed";
  ASSERT_EQ(o.gaps.size(), 1u);
  EXPECT_EQ(o.gaps[0].vendor, 2u);
  EXPECT_EQ(o.gaps[0].ours, 3u) << "the fastest rung, whatever its roof; never the unfused";
  EXPECT_DOUBLE_EQ(o.gaps[0].ratio, 300.0 / 80) << "the vendor's time over ours";
  std::vector<ConcernKind> kinds;
  for (const auto& c : o.concerns) kinds.push_back(c.kind);
  EXPECT_EQ(kinds, (std::vector<ConcernKind>{ConcernKind::above_roof, ConcernKind::failed,
                                             ConcernKind::not_placeable, ConcernKind::noisy,
                                             ConcernKind::collector_off}));
  EXPECT_NE(o.concerns[0].why.find("up to 300% of the roof"), std::string::npos)
      << o.concerns[0].why;
  EXPECT_EQ(o.concerns[1].why, "incorrect: max rel err 1");
  EXPECT_EQ(o.concerns[2].what, (std::vector<std::string>{"BM_Copy 1024"}));
  EXPECT_EQ(o.concerns[3].why, "cv 9% over 3 repetitions");
  EXPECT_EQ(o.concerns[4].what, (std::vector<std::string>{"rapl"})) << "only what was asked for";
}

TEST(Overview, OfNoCaseSaysNothingIsWrongOfNothing) {
  const Overview o = make_overview({}, nullptr, {}, {});
  EXPECT_EQ(o.cases, 0u);
  EXPECT_TRUE(o.best.empty() && o.gaps.empty() && o.concerns.empty() && o.fusion.empty());
}

TEST(Overview, AForeignResultsTableIsItsBenchmarks) {
  RooflinePlacement p = placed("", "(google benchmark)", 1e9);
  p.name = "BM_Sgemm/512";
  p.foreign = true;
  EXPECT_EQ(table_op(p), "BM_Sgemm");
  const Overview o = make_overview({p}, nullptr, {}, {});
  ASSERT_EQ(o.best.size(), 1u);
  EXPECT_EQ(o.best[0].op, "BM_Sgemm");
}

// `ridgeline profile` on the Intel AMX VM (family 6 model 207): its roofs per dtype and unit,
// the best of each op, the vendor gaps smallest first, fusion's wins largest first.
TEST(Overview, OfACrowdedRealRun) {
  const ridgeline::Run run =
      read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-profile-amx-vm.json");
  ASSERT_TRUE(run.context.machine);
  const MachineModel& m = *run.context.machine;
  const auto placements = place_results(run, &m);
  const Overview o =
      make_overview(placements, &m, fusion_analysis(run, placements, &m), run.context);
  ASSERT_TRUE(o.machine.known);
  EXPECT_NE(o.machine.cpu.find("family 6 model 207"), std::string::npos) << o.machine.cpu;
  const auto has = [&](const std::string& dtype, const std::string& unit) {
    return std::any_of(o.machine.compute.begin(), o.machine.compute.end(),
                       [&](const OverviewRoof& r) { return r.what == dtype && r.unit == unit; });
  };
  EXPECT_TRUE(has("bf16", "matrix engine") && has("bf16", "vector units"));
  EXPECT_EQ(o.machine.memory.front().what, "L1");
  EXPECT_EQ(o.machine.memory.back().what, "DRAM");
  for (const auto& b : o.best) EXPECT_FALSE(placements[b.placement].above_roof) << b.op;
  EXPECT_FALSE(o.gaps.empty());
  EXPECT_TRUE(std::is_sorted(o.gaps.begin(), o.gaps.end(),
                             [](const auto& a, const auto& b) { return a.ratio < b.ratio; }));
  EXPECT_EQ(o.fusion.size(), 6u);
  EXPECT_TRUE(std::is_sorted(o.fusion.begin(), o.fusion.end(),
                             [](const auto& a, const auto& b) { return a.speedup > b.speedup; }));
}

}  // namespace
}  // namespace ridgeline
