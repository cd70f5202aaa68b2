// The cache sizes the kernels block for (runner's cache_sizes_for_kernels): hwloc's, with a
// level the probe's sweeps replaced on repeated evidence replaced, on recorded machine models.
#include <gtest/gtest.h>

#include "byte_sizes.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline {
namespace {

using test::KiB;
using test::MiB;

CacheSizes as_hwloc_reports(const MachineModel& m) {
  return {m.l1d_bytes, m.l2_bytes, m.l3_bytes, 2, "hwloc"};
}

TEST(MeasuredCaches, AZen5VmsL3IsTheMeasuredOneAndTheSourceSaysSo) {
  // Recorded on the Zen 5 VM: hwloc reports the host's 508 MiB L3.
  const MachineModel zen5 = read_machine_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  const CacheSizes reported = as_hwloc_reports(zen5);
  ASSERT_EQ(reported.l3, 508 * MiB);
  const CacheSizes used = cache_sizes_for_kernels(zen5, reported);
  EXPECT_EQ(used.l1d, reported.l1d);  // hwloc agrees with the sweep: kept
  EXPECT_EQ(used.l2, reported.l2);
  EXPECT_EQ(used.l3, cache_bytes_for_placement(zen5, MemoryLevel::l3));
  EXPECT_GT(used.l3, 8 * MiB);
  EXPECT_LT(used.l3, 64 * MiB);
  EXPECT_EQ(used.l3_sharing, 2);
  EXPECT_NE(used.source.find("hwloc; measured by the probe"), std::string::npos) << used.source;
  EXPECT_NE(used.source.find("hwloc 520192 KiB"), std::string::npos) << used.source;
  EXPECT_EQ(used.source.find("L1 "), std::string::npos) << used.source;
}

TEST(MeasuredCaches, AModelWithoutMeasuredLevelsKeepsHwlocsSizes) {
  const MachineModel zen4 = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  const CacheSizes reported = as_hwloc_reports(zen4);
  const CacheSizes used = cache_sizes_for_kernels(zen4, reported);
  EXPECT_EQ(used.l1d, reported.l1d);
  EXPECT_EQ(used.l2, reported.l2);
  EXPECT_EQ(used.l3, reported.l3);
  EXPECT_EQ(used.source, "hwloc");
}

}  // namespace
}  // namespace ridgeline
