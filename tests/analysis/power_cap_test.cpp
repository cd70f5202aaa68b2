// What a GPU sustains at its power cap per dtype and input pattern (analysis/power_cap.hpp):
// from the pattern cases where NVML saw the cap hold the clocks, and noted on each GPU case
// that the cap, not the nominal roof, bounds on such inputs.
#include "ridgeline/analysis/power_cap.hpp"

#include <gtest/gtest.h>

#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline {
namespace {

// One repetition of a bf16 GEMM on `pattern` (on the GPU unless `device` says otherwise).
CaseResult repetition(const std::string& backend, const std::string& pattern, double rate,
                      bool capped, Device device = Device::gpu, bool thermal = false) {
  CaseResult r;
  r.run_type = "iteration";
  CaseDetails d;
  d.backend = backend;
  d.device = device;
  d.problem = gemm_problem(Shape{8192, 8192, 8192, 1}, Layout::NN, DType::bf16, pattern);
  d.metrics = {{"flop_rate", rate, "FLOP/s", MetricSource::derived},
               {"power.gpu.avg", 699, "W", MetricSource::sampled},
               {"flop_per_joule.gpu", rate / 699, "FLOP/J", MetricSource::derived},
               {"gpu.throttled", capped || thermal ? 1.0 : 0.0, "bool", MetricSource::sampled},
               {"gpu.power_capped", capped ? 1.0 : 0.0, "bool", MetricSource::sampled}};
  r.ridgeline = d;
  r.run_name = r.name = backend + "/" + pattern;
  return r;
}

TEST(PowerCap, ARoofPerDtypeAndPatternFromTheCappedRepetitionsOnly) {
  ridgeline::Run run;
  for (double rate : {7.9e14, 8.0e14})
    run.benchmarks.push_back(repetition("cuda.cublas", "zeros", rate, true));
  for (double rate : {6.5e14, 6.4e14, 6.6e14})
    run.benchmarks.push_back(repetition("cuda.cublas", "normal", rate, true));
  // Held by heat, not by the cap: no power-cap roof for it.
  run.benchmarks.push_back(repetition("cuda.cublas", "uniform", 6e14, false, Device::gpu, true));
  // A slower kernel on the same patterns: the fastest case sets the roof.
  for (const char* pattern : {"zeros", "normal"})
    run.benchmarks.push_back(repetition("cuda.mma_128x256x64", pattern, 3e14, true));
  // The CPU has no power cap of this kind.
  for (const char* pattern : {"zeros", "normal"})
    run.benchmarks.push_back(repetition("cpu.packed", pattern, 1e12, true, Device::cpu));

  const std::vector<PowerCapRoof> roofs = power_cap_roofs(pattern_effects(run));
  ASSERT_EQ(roofs.size(), 2u);
  EXPECT_EQ(roofs[0].dtype, "bf16");
  EXPECT_EQ(roofs[0].pattern, "zeros");
  EXPECT_DOUBLE_EQ(roofs[0].flop_rate, 7.95e14);  // the median of the two repetitions
  EXPECT_EQ(roofs[1].pattern, "normal");
  EXPECT_DOUBLE_EQ(roofs[1].flop_rate, 6.5e14);
  EXPECT_DOUBLE_EQ(*roofs[1].power_w, 699);
  EXPECT_NEAR(*roofs[1].flop_per_joule, 6.5e14 / 699, 1e6);
  EXPECT_NE(roofs[1].case_name.find("cuda.cublas"), std::string::npos);
}

TEST(PowerCap, AComputeBoundGpuCaseOnThosePatternsIsToldTheCapsRoof) {
  const std::vector<PowerCapRoof> roofs{{"bf16", "normal", 6.5e14, 699.0, 9.3e11, "gemm/cublas"}};
  RooflinePlacement gpu;
  gpu.placeable = true;
  gpu.device = Device::gpu;
  gpu.dtype = "bf16";
  gpu.pattern = "normal";
  gpu.bound = Bound::compute();
  gpu.attainable = 9.89e14;
  gpu.achieved = 5.2e14;
  RooflinePlacement zeros = gpu, memory = gpu, cpu = gpu, f16 = gpu;
  zeros.pattern = "zeros";
  memory.bound = Bound::memory("HBM");
  cpu.device = Device::cpu;
  f16.dtype = "f16";
  std::vector<RooflinePlacement> placements{gpu, zeros, memory, cpu, f16};
  note_power_caps(placements, roofs);
  ASSERT_EQ(placements[0].notes.size(), 1u);
  EXPECT_EQ(placements[0].notes[0].kind, NoteKind::power_cap);
  EXPECT_EQ(placements[0].notes[0].text,
            "at the power cap on normal inputs the GPU sustains 650 TFLOP/s in bf16 (66% of the "
            "compute roof; measured by gemm/cublas): this case reached 80% of it");
  for (std::size_t i = 1; i < placements.size(); ++i)
    EXPECT_TRUE(placements[i].notes.empty()) << i;  // another pattern, bound, device or dtype

  // A cap above the compute roof (the GEMM never reached it) says nothing of the roof.
  std::vector<RooflinePlacement> above{gpu};
  note_power_caps(above, {{"bf16", "normal", 1.2e15, std::nullopt, std::nullopt, "x"}});
  EXPECT_TRUE(above[0].notes.empty());
}

}  // namespace
}  // namespace ridgeline
