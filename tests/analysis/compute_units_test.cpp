// Placement by compute unit (#63 item 4): a kernel is placed under the roof of the unit its
// arithmetic ran on, the dtype's fastest unit beside it, and the guidance names the faster
// unit with what was measured on it. The machine is the Emerald Rapids VM's shape: bf16 on
// the vector units (vdpbf16ps below the f32 FMA rate) and on AMX, 20x above.
#include <gtest/gtest.h>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {
namespace {

ComputeCeiling peak(const char* name, const char* dtype, double rate, ComputeUnit unit) {
  ComputeCeiling c;
  c.name = name;
  c.dtype = dtype;
  c.per_second = rate;
  c.compute_unit = unit;
  return c;
}

MachineModel amx_machine() {
  MachineModel m;
  m.compute = {peak("f32.avx512.fma", "f32", 160e9, ComputeUnit::vector),
               peak("bf16.avx512.dpbf16", "bf16", 110e9, ComputeUnit::vector),
               peak("bf16.amx", "bf16", 2.2e12, ComputeUnit::matrix),
               peak("i8.amx", "i8", 4.4e12, ComputeUnit::matrix)};
  MemoryCeiling dram;
  dram.level = "DRAM";
  dram.kernel = "read";
  dram.bytes_per_s = 20e9;
  m.memory.push_back(dram);
  return m;
}

CaseResult gemm_case(const char* backend, ComputeUnit unit, double gflops, int n = 2048) {
  CaseResult r;
  CaseDetails d;
  d.backend = backend;
  d.compute_unit = unit;
  d.problem = gemm_problem(Shape{n, n, n, 1}, Layout::NN, DType::bf16, "normal");
  d.work = op_work(d.problem);
  d.validation.disposition = Disposition::passed;
  r.name = r.run_name = std::string("gemm/") + backend + "/bf16";
  r.iterations = 10;
  r.real_time = r.cpu_time = d.work.flops / (gflops * 1e9) * 1e3;
  r.time_unit = "ms";
  r.ridgeline = d;
  return r;
}

TEST(ComputeUnits, EachUnitHasItsOwnRoofAndBf16WidensToF32OnTheVectorUnits) {
  const MachineModel m = amx_machine();
  const Roof vector = roof_for(m, "bf16", 1, Device::cpu, ComputeUnit::vector);
  ASSERT_TRUE(vector.compute);
  // bf16 widened to f32 runs at the FMA rate, above vdpbf16ps's: that is the vector roof.
  EXPECT_EQ(vector.compute->name, "f32.avx512.fma");
  EXPECT_NE(join_notes(vector.notes).find("widens to f32 exactly"), std::string::npos);
  EXPECT_EQ(roof_for(m, "bf16", 1, Device::cpu, ComputeUnit::matrix).compute->name, "bf16.amx");
  EXPECT_EQ(roof_for(m, "bf16", 1, Device::cpu).compute->name, "bf16.amx");  // the fastest
  // A unit with no ceiling of the dtype: the fastest unit's, with the note that says so.
  const Roof i8 = roof_for(m, "i8", 1, Device::cpu, ComputeUnit::vector);
  ASSERT_TRUE(i8.compute);
  EXPECT_EQ(i8.compute->name, "i8.amx");
  EXPECT_NE(join_notes(i8.notes).find("no i8 ceiling on the vector units"), std::string::npos);
  // f32 never takes a 16-bit ceiling.
  EXPECT_EQ(roof_for(m, "f32", 1).compute->name, "f32.avx512.fma");
}

TEST(ComputeUnits, APointIsPlacedUnderItsUnitAndTheGuidanceNamesTheFasterOne) {
  const MachineModel m = amx_machine();
  ridgeline::Run run;
  run.benchmarks = {gemm_case("cpu.packed_avx512", ComputeUnit::vector, 150),
                    gemm_case("vendor.onednn", ComputeUnit::matrix, 1377),
                    gemm_case("cpu.packed_amx", ComputeUnit::matrix, 1100)};
  const auto placements = place_results(run, &m);
  ASSERT_EQ(placements.size(), 3u);
  const RooflinePlacement& vec = placements[0];
  ASSERT_TRUE(vec.placeable) << vec.reason;
  EXPECT_EQ(vec.compute_unit, ComputeUnit::vector);
  EXPECT_DOUBLE_EQ(vec.attainable, 160e9);  // its own unit's roof: not above it
  EXPECT_FALSE(vec.above_roof);
  ASSERT_TRUE(vec.faster_unit);
  EXPECT_EQ(vec.faster_unit->name, "bf16.amx");
  EXPECT_EQ(vec.faster_case_backend, "vendor.onednn");  // the fastest case on AMX
  EXPECT_DOUBLE_EQ(vec.faster_case_rate, 1377e9);
  EXPECT_NE(vec.guidance.find("compute-bound at 94% of the bf16 peak of the vector units"),
            std::string::npos)
      << vec.guidance;
  EXPECT_NE(vec.guidance.find("matrix engine reaches 2.20 TFLOP/s bf16 (bf16.amx, timed), "
                              "13.8x this unit's peak"),
            std::string::npos)
      << vec.guidance;
  EXPECT_NE(vec.guidance.find("vendor.onednn ran at 1.38 TFLOP/s on it here"), std::string::npos)
      << vec.guidance;
  EXPECT_EQ(vec.guidance.find("only a cheaper algorithm"), std::string::npos) << vec.guidance;
  // On AMX: its share of the tiles' roof, no faster unit to name.
  const RooflinePlacement& amx = placements[2];
  EXPECT_DOUBLE_EQ(amx.attainable, 2.2e12);
  EXPECT_NEAR(amx.efficiency, 0.5, 1e-9);
  EXPECT_FALSE(amx.faster_unit);
}

TEST(ComputeUnits, AboveItsUnitsRoofTheGuidanceAsksWhetherItRanOnTheFasterUnit) {
  const MachineModel m = amx_machine();
  ridgeline::Run run;
  // A library's bf16 GEMM recorded on the vector units that ran at AMX rates.
  run.benchmarks = {gemm_case("blas.mkl", ComputeUnit::vector, 900)};
  const RooflinePlacement p = place_results(run, &m)[0];
  EXPECT_TRUE(p.above_roof);
  EXPECT_NE(p.guidance.find("above the roof of the vector units"), std::string::npos) << p.guidance;
  EXPECT_NE(p.guidance.find("or it ran on the matrix engine"), std::string::npos) << p.guidance;
}

TEST(ComputeUnits, AreRecordedInTheMachineModelAndTheRunAndInferredForOlderFiles) {
  MachineModel m = amx_machine();
  const MachineModel back = machine_from_json(to_json(m), "machine.json", "");
  ASSERT_EQ(back.compute.size(), m.compute.size());
  for (std::size_t i = 0; i < m.compute.size(); ++i)
    EXPECT_EQ(back.compute[i].compute_unit, m.compute[i].compute_unit) << m.compute[i].name;
  // A machine file from before the field: the unit from the ceiling's name.
  auto j = to_json(m);
  for (auto& c : j["compute"]) c.erase("compute_unit");
  const MachineModel old = machine_from_json(j, "old.json", "");
  EXPECT_EQ(old.compute[2].compute_unit, ComputeUnit::matrix);  // bf16.amx
  EXPECT_EQ(old.compute[1].compute_unit, ComputeUnit::vector);  // bf16.avx512.dpbf16
  EXPECT_EQ(inferred_ceiling_unit("gpu.bf16.mma_sync", "bf16", Device::gpu), ComputeUnit::tensor);
  EXPECT_EQ(inferred_ceiling_unit("gpu.f32.fma", "f32", Device::gpu), ComputeUnit::simt);
  // A case's unit survives the Run's JSON.
  ridgeline::Run run;
  run.benchmarks = {gemm_case("cpu.packed_amx", ComputeUnit::matrix, 1000)};
  const ridgeline::Run again = run_from_json(to_json(run), "run.json");
  EXPECT_EQ(again.benchmarks[0].ridgeline->compute_unit, ComputeUnit::matrix);
}

}  // namespace
}  // namespace ridgeline
