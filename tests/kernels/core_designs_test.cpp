// The theoretical-peak table (kernels/src/ceilings/core_designs.cpp): what each design
// issues per cycle, what is not claimed, and the clock measured around the peak loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "ridgeline/kernels/ceilings.hpp"

namespace ridgeline {
namespace {

const PeakSpec& spec(const std::string& name) {
  for (const PeakSpec& s : peak_specs())
    if (s.name == name) return s;
  throw std::runtime_error("no spec " + name);
}

double per_cycle(const CpuIdentity& cpu, const std::string& name) {
  std::string why;
  const auto v = design_ops_per_cycle(cpu, spec(name), why);
  EXPECT_EQ(v.has_value(), why.empty()) << why;
  return v.value_or(-1);
}

TEST(CoreDesigns, FmaFlopsPerCycleFromTheVendorGuides) {
  const CpuIdentity zen4{"AuthenticAMD", 0x19, 0x11}, zen5{"AuthenticAMD", 0x1a, 0x02},
      zen3{"AuthenticAMD", 0x19, 0x01}, spr{"GenuineIntel", 6, 0x8f}, gnr{"GenuineIntel", 6, 0xad},
      icx{"GenuineIntel", 6, 0x6a}, emr{"GenuineIntel", 6, 0xcf};
  // Zen 4 runs a 512-bit FMA as two halves: its AVX-512 peak is its AVX2 peak.
  EXPECT_EQ(per_cycle(zen4, "f64.avx512.fma"), 16);
  EXPECT_EQ(per_cycle(zen4, "f64.avx2.fma"), 16);
  EXPECT_EQ(per_cycle(zen4, "f32.avx512.fma"), 32);
  // Zen 5: two full-width 512-bit pipes.
  EXPECT_EQ(per_cycle(zen5, "f64.avx512.fma"), 32);
  EXPECT_EQ(per_cycle(zen5, "f32.avx512.fma"), 64);
  EXPECT_EQ(per_cycle(zen5, "f64.avx2.fma"), 16);
  EXPECT_EQ(per_cycle(zen5, "f64.scalar.fma"), 4);
  for (const CpuIdentity& intel : {icx, spr, emr, gnr}) {
    EXPECT_EQ(per_cycle(intel, "f64.avx512.fma"), 32) << intel.model;
    EXPECT_EQ(per_cycle(intel, "f32.avx512.fma"), 64) << intel.model;
  }
  EXPECT_EQ(core_design_name(zen5), "AMD Zen 5");
  EXPECT_EQ(core_design_name(gnr), "Intel Granite Rapids");
  // Zen 3 has no AVX-512: not claimed, and said why.
  std::string why;
  EXPECT_FALSE(design_ops_per_cycle(zen3, spec("f64.avx512.fma"), why));
  EXPECT_NE(why.find("not in the table"), std::string::npos);
}

TEST(CoreDesigns, ArmRowsAndUnknownDesignsAndUnclaimedClasses) {
  const CpuIdentity n2{"ARM", 0, 0xd49}, v1{"ARM", 0, 0xd40}, v2{"ARM", 0, 0xd4f};
  EXPECT_EQ(core_design_name(n2), "Arm Neoverse N2");
  EXPECT_EQ(per_cycle(n2, "f64.scalar.fma"), 4);  // two FP pipes
  EXPECT_EQ(per_cycle(v2, "f64.scalar.fma"), 8);  // four
  EXPECT_EQ(core_design_name(v1), "Arm Neoverse V1");
  std::string why;
  EXPECT_FALSE(design_ops_per_cycle(n2, spec("f64.avx2.fma"), why));  // no AVX on Arm
  why.clear();
  EXPECT_FALSE(design_ops_per_cycle({"AuthenticAMD", 0x1a, 0x02}, spec("bf16.avx512.dpbf16"), why));
  EXPECT_NE(why.find("bf16.avx512.dpbf16 on AMD Zen 5 is not in the table"), std::string::npos);
  why.clear();
  EXPECT_FALSE(design_ops_per_cycle({"HygonGenuine", 0x18, 0}, spec("f64.scalar.fma"), why));
  EXPECT_NE(why.find("HygonGenuine family 0x18 model 0x0 is not in the design table"),
            std::string::npos)
      << why;
  EXPECT_EQ(core_design_name({"HygonGenuine", 0x18, 0}), "");
}

// The clock around the loop is this machine's (a sanity range, not a benchmark), and the
// measured peak is never far above what that clock allows where the design is known.
TEST(CoreDesigns, PeakCarriesTheClockMeasuredAroundItsLoop) {
  const PeakMeasurement p = measure_peak(spec("f64.scalar.fma"), 1, 0.02, 2);
  EXPECT_GT(p.per_second, 0);
  EXPECT_GT(p.clock_hz, 5e8);
  EXPECT_LT(p.clock_hz, 1e10);
  EXPECT_GT(measure_clock_on_threads(2), 5e8);
  std::string why;
  const auto design = design_ops_per_cycle(cpu_identity(), spec("f64.scalar.fma"), why);
  if (!design) GTEST_SKIP() << why;
  // 10% above the theoretical peak at the measured clock would be a wrong table row or clock.
  // A VM that takes the CPU away while the clock is read shows a slow clock once (seen in
  // CI: 7.65 GFLOP/s against 1.1 x 5.98 at the clock read); a wrong row or clock shows it
  // every time, so the best of three measurements must hold.
  double ratio = p.per_second / (*design * p.clock_hz);
  for (int attempt = 1; attempt < 3 && ratio >= 1.1; ++attempt) {
    const PeakMeasurement again = measure_peak(spec("f64.scalar.fma"), 1, 0.02, 2);
    ratio = std::min(ratio, again.per_second / (*design * again.clock_hz));
  }
  EXPECT_LT(ratio, 1.1);
}

}  // namespace
}  // namespace ridgeline
