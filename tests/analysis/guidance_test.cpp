// Each placement's guidance line (analysis/src/guidance.cpp): what it says for each position,
// and that every placement carries it.
#include <gtest/gtest.h>

#include <limits>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline {

TEST(Guidance, FollowsThePosition) {
  RooflinePlacement p;
  p.placeable = true;
  p.attainable = 100e9;
  p.bound = Bound::memory("DRAM");
  p.efficiency = 0.83;
  EXPECT_EQ(placement_guidance(p),
            "memory-bound at DRAM at 83% of the roof: raise intensity by fusion or reuse");
  p.efficiency = 0.2;
  EXPECT_NE(placement_guidance(p).find("do not reach the level's bandwidth"), std::string::npos);
  p.bound = Bound::compute();
  p.dtype = "f32";
  p.efficiency = 0.9;
  EXPECT_NE(placement_guidance(p).find("compute-bound at 90% of the f32 peak"), std::string::npos);
  p.above_roof = true;
  p.efficiency = 1.3;
  EXPECT_NE(placement_guidance(p).find("above the roof (130% of it)"), std::string::npos);
  p.attainable = 0;
  EXPECT_NE(placement_guidance(p).find("no ceilings"), std::string::npos);
  p.placeable = false;
  p.reason = "seconds: not a number";
  EXPECT_EQ(placement_guidance(p), "not on the roofline: seconds: not a number");
}

// Every placement carries its guidance, placed or not, so every format can show it.
TEST(Guidance, EveryPlacementCarriesIt) {
  ridgeline::Run run;
  CaseResult r;
  r.name = r.run_name = "gemm/cpu.naive/f64/m=64,n=64,k=64/layout=NN/pattern=normal/threads=1";
  r.iterations = 10;
  r.real_time = r.cpu_time = 0.5;
  r.time_unit = "ms";
  CaseDetails d;
  d.backend = "cpu.naive";
  d.problem = gemm_problem(Shape{64, 64, 64, 1}, Layout::NN, DType::f64, "normal");
  d.work = op_work(d.problem);
  d.validation.disposition = Disposition::passed;
  r.ridgeline = d;
  run.benchmarks.push_back(r);
  r.name = r.run_name = "broken";
  r.real_time = std::numeric_limits<double>::quiet_NaN();
  run.benchmarks.push_back(r);
  const auto placements = place_results(run, nullptr);
  ASSERT_EQ(placements.size(), 2u);
  EXPECT_EQ(placements[0].guidance, placement_guidance(placements[0]));
  EXPECT_NE(placements[0].guidance.find("no ceilings"), std::string::npos)
      << placements[0].guidance;
  EXPECT_EQ(placements[1].guidance.rfind("not on the roofline: ", 0), 0u) << placements[1].guidance;
}

}  // namespace ridgeline
