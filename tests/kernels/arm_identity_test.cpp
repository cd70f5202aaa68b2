// AArch64's identification and theoretical peaks, from recordings others published of Arm
// servers (tests/fixtures/arm/README.md says where), on any machine; and on an AArch64 one
// (qemu-user in CI) the features, peak chains and bandwidth loops of this process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ceilings/stream_sweeps.hpp"
#include "ridgeline/kernels/amx.hpp"
#include "ridgeline/kernels/ceilings.hpp"

namespace ridgeline {
namespace {

CpuIdentity recorded(const std::string& name) {
  std::ifstream in(std::string(RIDGELINE_FIXTURES) + "/arm/" + name);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return cpu_identity_from_text(text.str());
}

void expect_identity(const CpuIdentity& id, int part, int variant, int revision,
                     const std::string& design, const std::string& name) {
  EXPECT_EQ(id.vendor, "ARM") << name;
  EXPECT_EQ(id.implementer, 0x41) << name;
  EXPECT_EQ(id.family, 0) << name;
  EXPECT_EQ(id.model, part) << name;
  EXPECT_EQ(id.variant, variant) << name;
  EXPECT_EQ(id.revision, revision) << name;
  EXPECT_FALSE(id.amx_bf16) << name;
  EXPECT_EQ(core_design_name(id), design) << name;
}

// /proc/cpuinfo gives the MIDR's fields; lscpu names the part ("Neoverse-V2") and prints the
// variant and revision as "Stepping: r0p0" (its "Model" is the revision, not the part).
TEST(ArmIdentity, EachRecordedServerIsItsNeoverseDesign) {
  expect_identity(recorded("graviton3-cpuinfo.txt"), 0xd40, 1, 1, "Arm Neoverse V1",
                  "Graviton3 cpuinfo");
  expect_identity(recorded("grace-cpuinfo.txt"), 0xd4f, 0, 0, "Arm Neoverse V2", "Grace cpuinfo");
  expect_identity(recorded("grace-lscpu.txt"), 0xd4f, 0, 0, "Arm Neoverse V2", "Grace lscpu");
  expect_identity(recorded("cobalt100-cpuinfo.txt"), 0xd49, 0, 0, "Arm Neoverse N2",
                  "Cobalt 100 cpuinfo");
  expect_identity(recorded("cobalt100-lscpu.txt"), 0xd49, 0, 0, "Arm Neoverse N2",
                  "Cobalt 100 lscpu");
}

// An lscpu that names no part ("Model: 1" is the revision) is not taken for part 1, nor for
// anything else: not identified, and said so.
TEST(ArmIdentity, AnLscpuWithoutAPartNameIsNotGuessed) {
  const CpuIdentity id = recorded("graviton3-lscpu-no-model-name.txt");
  expect_identity(id, 0, 1, 1, "", "Graviton3 lscpu without a model name");
  std::string why;
  const PeakSpec scalar{"f64.scalar.fma", "f64", "scalar", "FLOP/s", 2, nullptr, nullptr, 20};
  EXPECT_FALSE(design_ops_per_cycle(id, scalar, why));
  EXPECT_NE(why.find("ARM part 0x0 (MIDR implementer 0x41) is not in the design table"),
            std::string::npos)
      << why;
}

// The classes as AArch64's peak_specs() has them (checked against that table on AArch64,
// below); `vl` is the SVE vector length they ran at.
std::vector<PeakSpec> arm_specs(int vl) {
  return {{"f64.scalar.fma", "f64", "scalar", "FLOP/s", 2, nullptr, nullptr, 20},
          {"f32.scalar.fma", "f32", "scalar", "FLOP/s", 2, nullptr, nullptr, 20},
          {"f64.neon.fma", "f64", "neon", "FLOP/s", 4, nullptr, nullptr, 20},
          {"f32.neon.fma", "f32", "neon", "FLOP/s", 8, nullptr, nullptr, 20},
          {"f16.neon.fma", "f16", "neon_fp16", "FLOP/s", 16, nullptr, nullptr, 20},
          {"bf16.neon.bfdot", "bf16", "neon_bf16", "FLOP/s", 16, nullptr, nullptr, 20},
          {"bf16.neon.bfmmla", "bf16", "neon_bf16", "FLOP/s", 32, nullptr, nullptr, 20},
          {"i8.neon.sdot", "i8", "neon_dot", "OP/s", 32, nullptr, nullptr, 20},
          {"i8.neon.smmla", "i8", "neon_i8mm", "OP/s", 64, nullptr, nullptr, 20},
          {"f64.sve.fma", "f64", "sve", "FLOP/s", 2.0 * vl / 64, nullptr, nullptr, 20},
          {"f32.sve.fma", "f32", "sve", "FLOP/s", 2.0 * vl / 32, nullptr, nullptr, 20},
          {"f16.sve.fma", "f16", "sve", "FLOP/s", 2.0 * vl / 16, nullptr, nullptr, 20},
          // BFDOT: VL/32 lanes of two bf16 products; BFMMLA: 16 products per 128-bit segment.
          {"bf16.sve.bfdot", "bf16", "sve_bf16", "FLOP/s", vl / 8.0, nullptr, nullptr, 20},
          {"bf16.sve.bfmmla", "bf16", "sve_bf16", "FLOP/s", vl / 4.0, nullptr, nullptr, 20},
          // SDOT: VL/32 lanes of four int8 products; SMMLA: 32 products per 128-bit segment.
          {"i8.sve.sdot", "i8", "sve", "OP/s", vl / 4.0, nullptr, nullptr, 20},
          {"i8.sve.smmla", "i8", "sve_i8mm", "OP/s", vl / 2.0, nullptr, nullptr, 20}};
}

double per_cycle(const CpuIdentity& cpu, const std::string& name, int vl = 128) {
  for (const PeakSpec& s : arm_specs(vl))
    if (s.name == name) {
      std::string why;
      const auto v = design_ops_per_cycle(cpu, s, why);
      EXPECT_EQ(v.has_value(), why.empty()) << why;
      return v.value_or(-1);
    }
  ADD_FAILURE() << "no spec " << name;
  return -1;
}

// FMA FLOPs a cycle per core from the Neoverse optimisation guides (core_designs.cpp): N2 two
// 128-bit pipes for everything; V2 four; V1 four 128-bit pipes for scalar and ASIMD, two
// 256-bit ones for SVE (the same FLOPs a cycle at its 256-bit vector length).
TEST(ArmIdentity, FmaFlopsPerCycleOfEachNeoverseDesign) {
  const CpuIdentity n2 = recorded("cobalt100-cpuinfo.txt"), v1 = recorded("graviton3-cpuinfo.txt"),
                    v2 = recorded("grace-cpuinfo.txt");
  EXPECT_EQ(per_cycle(n2, "f64.scalar.fma"), 4);
  EXPECT_EQ(per_cycle(n2, "f32.scalar.fma"), 4);
  EXPECT_EQ(per_cycle(n2, "f64.neon.fma"), 8);
  EXPECT_EQ(per_cycle(n2, "f32.neon.fma"), 16);
  EXPECT_EQ(per_cycle(n2, "f16.neon.fma"), 32);
  EXPECT_EQ(per_cycle(n2, "f64.sve.fma", 128), 8);
  EXPECT_EQ(per_cycle(n2, "f32.sve.fma", 128), 16);
  for (const CpuIdentity& four_pipes : {v1, v2}) {
    EXPECT_EQ(per_cycle(four_pipes, "f64.scalar.fma"), 8) << four_pipes.model;
    EXPECT_EQ(per_cycle(four_pipes, "f64.neon.fma"), 16) << four_pipes.model;
    EXPECT_EQ(per_cycle(four_pipes, "f32.neon.fma"), 32) << four_pipes.model;
    EXPECT_EQ(per_cycle(four_pipes, "f16.neon.fma"), 64) << four_pipes.model;
  }
  EXPECT_EQ(per_cycle(v1, "f64.sve.fma", 256), 16);
  EXPECT_EQ(per_cycle(v1, "f32.sve.fma", 256), 32);
  EXPECT_EQ(per_cycle(v1, "f16.sve.fma", 256), 64);  // as NEON's FMLA .8h on four pipes
  EXPECT_EQ(per_cycle(v2, "f64.sve.fma", 128), 16);
  EXPECT_EQ(per_cycle(v2, "f32.sve.fma", 128), 32);
  EXPECT_EQ(per_cycle(v2, "f16.sve.fma", 128), 64);
  EXPECT_EQ(per_cycle(n2, "f16.sve.fma", 128), 32);
}

// SVE is claimed only at the design's own vector length; the dot-product and matrix classes,
// and the other architecture's classes, are not claimed at all.
TEST(ArmIdentity, WhatNoGuideGivesIsNotClaimed) {
  const CpuIdentity v1 = recorded("graviton3-cpuinfo.txt"), v2 = recorded("grace-lscpu.txt");
  std::string why;
  const std::vector<PeakSpec> at128 = arm_specs(128), at256 = arm_specs(256);
  const auto spec = [](const std::vector<PeakSpec>& specs, const std::string& name) {
    return *std::find_if(specs.begin(), specs.end(),
                         [&](const PeakSpec& s) { return s.name == name; });
  };
  EXPECT_FALSE(design_ops_per_cycle(v1, spec(at128, "f64.sve.fma"), why));
  EXPECT_NE(why.find("at 128-bit vectors on Arm Neoverse V1 is not in the table (its SVE is "
                     "256 bits wide)"),
            std::string::npos)
      << why;
  why.clear();
  EXPECT_FALSE(design_ops_per_cycle(v2, spec(at256, "f32.sve.fma"), why));
  EXPECT_NE(why.find("(its SVE is 128 bits wide)"), std::string::npos) << why;
  for (const char* name : {"bf16.neon.bfdot", "bf16.neon.bfmmla", "i8.neon.sdot", "i8.neon.smmla",
                           "bf16.sve.bfdot", "bf16.sve.bfmmla", "i8.sve.sdot", "i8.sve.smmla"}) {
    why.clear();
    EXPECT_FALSE(design_ops_per_cycle(v1, spec(at256, name), why)) << name;
    EXPECT_NE(why.find("is not in the table"), std::string::npos) << why;
  }
  // Neither architecture's vector classes on the other's designs.
  const PeakSpec avx2{"f64.avx2.fma", "f64", "avx2", "FLOP/s", 8, nullptr, nullptr, 12};
  const CpuIdentity zen5{"AuthenticAMD", 0x1a, 0x02};
  why.clear();
  EXPECT_FALSE(design_ops_per_cycle(v1, avx2, why));
  why.clear();
  EXPECT_FALSE(design_ops_per_cycle(zen5, spec(at128, "f64.neon.fma"), why));
  why.clear();
  EXPECT_FALSE(design_ops_per_cycle(zen5, spec(at256, "f64.sve.fma"), why));
}

#if defined(__aarch64__)

// The table above is AArch64's peak_specs(): the same classes, dtypes, units and operations
// an instruction, SVE's at this process's vector length.
TEST(ArmPeak, TheTestsClassesAreThePeakTables) {
  const CpuFeatures& f = cpu_features();
  const std::vector<PeakSpec> mine = arm_specs(f.sve_bits);
  ASSERT_EQ(peak_specs().size(), mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const PeakSpec& s = peak_specs()[i];
    EXPECT_EQ(s.name, mine[i].name);
    EXPECT_EQ(s.dtype, mine[i].dtype) << s.name;
    EXPECT_EQ(s.isa, mine[i].isa) << s.name;
    EXPECT_EQ(s.unit, mine[i].unit) << s.name;
    EXPECT_EQ(s.ops_per_instruction, mine[i].ops_per_instruction) << s.name;
    EXPECT_GE(s.instructions_per_iteration, 16) << s.name;  // 4 pipes x 4 cycles in flight
  }
}

// HWCAP read back as features; SVE's length from this process (qemu: sve128=on, sve256=on).
TEST(ArmPeak, FeaturesAndIdentityOfThisProcess) {
  const CpuFeatures& f = cpu_features();
  EXPECT_TRUE(f.neon);
  EXPECT_FALSE(f.amd);
  EXPECT_EQ(f.family, 0);
  EXPECT_EQ(f.sve, f.sve_bits > 0);
  if (f.sve) {
    EXPECT_EQ(f.sve_bits % 128, 0) << f.sve_bits;
    const auto isa = f.isa_list();
    EXPECT_NE(std::find(isa.begin(), isa.end(), "sve" + std::to_string(f.sve_bits)), isa.end());
  }
  EXPECT_NE(f.model.find("MIDR implementer"), std::string::npos) << f.model;
  const CpuIdentity id = cpu_identity();
  EXPECT_GE(id.implementer, 0);  // sysfs, /proc/cpuinfo or MIDR_EL1 itself
  EXPECT_GE(id.variant, 0);
  EXPECT_GE(id.revision, 0);
  EXPECT_EQ(amx_support().reason, "AMX is an x86 (Intel) feature; this is AArch64");
  EXPECT_FALSE(amx_support().usable());
}

// Every class runs where HWCAP has it, and says which bit is missing where not.
TEST(ArmPeak, EverySpecRunsOrSaysWhichHwcapIsMissing) {
  const CpuFeatures& f = cpu_features();
  for (const PeakSpec& s : peak_specs()) {
    const std::string why = s.absent(f);
    const bool has = s.isa == "sve"         ? f.sve
                     : s.isa == "sve_bf16"  ? f.sve && f.sve_bf16
                     : s.isa == "sve_i8mm"  ? f.sve && f.sve_i8mm
                     : s.isa == "neon_fp16" ? f.neon_fp16
                     : s.isa == "neon_dot"  ? f.neon_dot
                     : s.isa == "neon_bf16" ? f.neon_bf16
                     : s.isa == "neon_i8mm" ? f.neon_i8mm
                                            : f.neon;
    EXPECT_EQ(why.empty(), has) << s.name << ": " << why;
    if (!why.empty()) {
      EXPECT_NE(why.find("HWCAP"), std::string::npos) << why;
      continue;
    }
    EXPECT_TRUE(std::isfinite(s.run(1000))) << s.name;
  }
  // One timed through measure_peak (its first run alone is 10^5 iterations: seconds each under
  // qemu), and the add chain's clock.
  const PeakMeasurement p = measure_peak(peak_specs()[2], 1, 0.002, 1);
  EXPECT_TRUE(std::isfinite(p.per_second) && p.per_second > 0) << peak_specs()[2].name;
  EXPECT_GT(p.clock_hz, 0);
  EXPECT_GT(measure_clock_hz(1), 0);
}

// The Arm widths are this CPU's; the x86 ones are not built (each width's loops are checked
// element by element by bandwidth_test.cpp, over stream_isas()).
TEST(ArmBandwidth, TheWidthsAreNeonAndSveWhereHwcapHasIt) {
  const auto widths = stream_isas(cpu_features());
  EXPECT_NE(std::find(widths.begin(), widths.end(), StreamIsa::neon), widths.end());
  EXPECT_EQ(std::find(widths.begin(), widths.end(), StreamIsa::sve) != widths.end(),
            cpu_features().sve);
  EXPECT_THROW(ceilings::sweeps_for(StreamIsa::avx2), std::invalid_argument);
}

#endif

}  // namespace
}  // namespace ridgeline
