// The analysis model's pattern effects and ladder rows: what reports print about input
// patterns and the GEMM ladder, built once from placements.
#include <gtest/gtest.h>

#include "ridgeline/analysis/ladder_comparison.hpp"
#include "ridgeline/analysis/pattern_effect.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline {

TEST(PatternEffect, TheSameCaseOnSeveralPatternsWithPowerAndClock) {
  ridgeline::Run run;
  const auto add = [&](const std::string& pattern, double rate, double power, double clock) {
    CaseResult r;
    r.run_type = "iteration";
    CaseDetails d;
    d.backend = "cuda.cublas";
    d.device = Device::gpu;
    d.problem = gemm_problem(Shape{8192, 8192, 8192, 1}, Layout::NN, DType::bf16, pattern);
    d.metrics = {{"flop_rate", rate, "FLOP/s", MetricSource::derived},
                 {"power.gpu.avg", power, "W", MetricSource::sampled},
                 {"clock.sm.avg", clock, "Hz", MetricSource::sampled}};
    r.ridgeline = d;
    r.run_name = r.name = pattern;
    run.benchmarks.push_back(r);
  };
  add("zeros", 9e14, 400, 1.98e9);
  add("zeros", 8e14, 420, 1.98e9);  // two repetitions: the median
  add("normal", 7e14, 690, 1.75e9);
  CaseResult alone;  // a case on one pattern only is no comparison
  alone.ridgeline = CaseDetails{};
  alone.ridgeline->backend = "cpu.naive";
  alone.ridgeline->metrics = {{"flop_rate", 1e9, "FLOP/s", MetricSource::derived}};
  run.benchmarks.push_back(alone);

  const auto effects = pattern_effects(run);
  ASSERT_EQ(effects.size(), 1u);
  ASSERT_EQ(effects[0].points.size(), 2u);
  EXPECT_EQ(effects[0].points[0].pattern, "zeros");
  EXPECT_DOUBLE_EQ(effects[0].points[0].flop_rate, 8.5e14);
  EXPECT_DOUBLE_EQ(*effects[0].points[0].power_w, 410);
  EXPECT_DOUBLE_EQ(*effects[0].points[1].sm_clock_hz, 1.75e9);
  EXPECT_FALSE(effects[0].points[1].flop_per_joule.has_value());
  EXPECT_EQ(effects[0].case_name.find("normal"), std::string::npos);
}

}  // namespace ridgeline

namespace ridgeline {

TEST(PatternEffect, SubnormalsWithAndWithoutFtzDazAreTwoEffects) {
  ridgeline::Run run;
  const auto add = [&](const std::string& pattern, FpEnv env, double rate) {
    CaseResult r;
    r.run_type = "iteration";
    CaseDetails d;
    d.backend = "cpu.packed_avx512";
    d.problem = gemm_problem(Shape{1024, 1024, 1024, 1}, Layout::NN, DType::f32, pattern);
    d.fp_env = env;
    d.metrics = {{"flop_rate", rate, "FLOP/s", MetricSource::derived}};
    r.ridgeline = d;
    r.run_name = r.name = pattern;
    run.benchmarks.push_back(r);
  };
  add("normal", FpEnv::ieee, 100e9);
  add("subnormal", FpEnv::ieee, 20e9);
  add("normal", FpEnv::ftz_daz, 100e9);
  add("subnormal", FpEnv::ftz_daz, 100e9);
  const auto effects = pattern_effects(run);
  ASSERT_EQ(effects.size(), 2u);
  EXPECT_EQ(effects[0].case_name.find("fp="), std::string::npos);
  EXPECT_DOUBLE_EQ(effects[0].points[1].vs_first, 0.2);
  EXPECT_NE(effects[1].case_name.find("/fp=ftz_daz/"), std::string::npos);
  EXPECT_DOUBLE_EQ(effects[1].points[1].vs_first, 1.0);
}

}  // namespace ridgeline

namespace ridgeline {

TEST(LadderComparison, RowsKeepPatternAndFpEnvironmentApart) {
  const auto placement = [](const std::string& backend, const std::string& pattern,
                            const std::string& fp_env, double rate) {
    RooflinePlacement p;
    p.op = "gemm";
    p.dtype = "f32";
    p.params = "m=64,n=64,k=64/layout=NN";
    p.backend = backend;
    p.role = inferred_role(backend);  // as the kernels of these names declare
    p.family = inferred_family(backend);
    p.pattern = pattern;
    p.fp_env = fp_env;
    p.achieved = rate;
    return p;
  };
  const auto rows = ladder_against_best_blas({placement("cpu.naive", "normal", "ieee", 1e9),
                                              placement("blas.openblas", "normal", "ieee", 4e9),
                                              placement("cpu.naive", "zeros", "ieee", 2e9),
                                              placement("blas.openblas", "zeros", "ieee", 8e9),
                                              placement("cpu.naive", "zeros", "ftz_daz", 3e9)});
  ASSERT_EQ(rows.size(), 2u);  // the ftz_daz problem ran on no BLAS: no row
  EXPECT_DOUBLE_EQ(rows[1].rates[0].vs_best, 0.25);
  EXPECT_EQ(problem_label(rows[0]), "gemm f32 m=64,n=64,k=64/layout=NN");
  EXPECT_EQ(problem_label(rows[1]), "gemm f32 m=64,n=64,k=64/layout=NN pattern=zeros");
}

}  // namespace ridgeline
