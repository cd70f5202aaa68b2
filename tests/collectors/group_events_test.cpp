// Every counter group shipped in collectors/groups parses, and every event it names exists
// in the event list it targets: libpfm4's table for the group's CPU (encoded with
// LIBPFM_ENCODE_INACTIVE, so a Zen 4 VM checks the Ice Lake names too), the perf
// collector's catalogue, or the RAPL domain names powercap uses. A libpfm4 build holds its
// own architecture's tables only: the x86-64 build encodes the x86 folders, the arm64 one
// (under qemu-user) the Neoverse folders, and each skips the others naming the table.
#include <gtest/gtest.h>
#include <perfmon/pfmlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "ridgeline/collectors/counter_group.hpp"
#include "ridgeline/collectors/perf_event.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

const fs::path kGroups = RIDGELINE_GROUPS_SOURCE;

// The libpfm4 PMU table each directory's events come from.
const std::map<std::string, std::string> kPmuOf{
    {"zen3", "amd64_fam19h_zen3"}, {"zen4", "amd64_fam19h_zen4"}, {"icx", "icx"},
    {"neoverse_n1", "arm_n1"},     {"neoverse_n2", "arm_n2"},     {"neoverse_v1", "arm_v1"},
    {"neoverse_v2", "arm_v2"}};

// Whether this libpfm4 was built with the named PMU table (call after pfm_initialize).
bool has_pmu_table(const std::string& name) {
  for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; ++p) {
    pfm_pmu_info_t info;
    std::memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (pfm_get_pmu_info(static_cast<pfm_pmu_t>(p), &info) == PFM_SUCCESS && info.name &&
        name == info.name)
      return true;
  }
  return false;
}

std::vector<std::string> group_dirs() {
  std::vector<std::string> dirs;
  for (const auto& d : fs::directory_iterator(kGroups))
    if (d.is_directory()) dirs.push_back(d.path().filename());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

bool has_metric(const std::string& arch, const std::string& group, const std::string& metric) {
  for (const auto& m : load_counter_group(kGroups, arch, group).metrics)
    if (m.name == metric) return true;
  return false;
}

class Libpfm : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);  // read before pfm_initialize
    ASSERT_EQ(pfm_initialize(), PFM_SUCCESS);
  }
  static std::string encode_error(const std::string& event) {
    pfm_pmu_encode_arg_t arg;
    std::memset(&arg, 0, sizeof arg);
    arg.size = sizeof arg;
    const int rc = pfm_get_os_event_encoding(event.c_str(), PFM_PLM3, PFM_OS_NONE, &arg);
    std::free(arg.codes);
    return rc == PFM_SUCCESS ? "" : pfm_strerror(rc);
  }
};

TEST_F(Libpfm, TheCheckRejectsWhatIsNotInTheTable) {
  if (!has_pmu_table("amd64_fam19h_zen4") || !has_pmu_table("icx"))
    GTEST_SKIP() << "this libpfm4 has no x86 tables (built for another architecture)";
  EXPECT_EQ(encode_error("amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS:ANY"), "");
  EXPECT_EQ(encode_error("icx::FP_ARITH_INST_RETIRED:SCALAR_DOUBLE"), "");
  EXPECT_NE(encode_error("amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS:NO_SUCH_UMASK"), "");
  EXPECT_NE(encode_error("icx::NO_SUCH_EVENT"), "");
  // Zen 3's table has no BF16 unit mask; Zen 4's has.
  EXPECT_NE(encode_error("amd64_fam19h_zen3::RETIRED_SSE_AVX_FLOPS:BFLOAT_MAC_FLOPS"), "");
  EXPECT_EQ(encode_error("amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS:BFLOAT_MAC_FLOPS"), "");
}

TEST_F(Libpfm, TheCheckRejectsWhatIsNotInTheArmTables) {
  if (!has_pmu_table("arm_v1") || !has_pmu_table("arm_v2"))
    GTEST_SKIP() << "this libpfm4 has no arm_v1/arm_v2 tables (built for another "
                    "architecture; the arm64 build, under qemu-user, has them)";
  EXPECT_EQ(encode_error("arm_v1::FP_SCALE_OPS_SPEC"), "");
  EXPECT_NE(encode_error("arm_v1::NO_SUCH_EVENT"), "");
  // 4.13's V1 table counts no precision apart; V2's does. V2 spells L2D_CACHE_ACCESS
  // L2D_CACHE.
  EXPECT_NE(encode_error("arm_v1::FP_DP_SPEC"), "");
  EXPECT_EQ(encode_error("arm_v2::FP_DP_SPEC"), "");
  EXPECT_NE(encode_error("arm_v2::L2D_CACHE_ACCESS"), "");
  EXPECT_EQ(encode_error("arm_v2::L2D_CACHE"), "");
}

// One test per folder, so the folders whose table this libpfm4 lacks skip on their own.
class EveryShippedGroup : public Libpfm, public ::testing::WithParamInterface<std::string> {};

TEST_P(EveryShippedGroup, ParsesAndNamesRealEvents) {
  const std::set<std::string> rapl_domains{"package-0", "package-1", "core",
                                           "uncore",    "dram",      "psys"};
  const std::string arch = GetParam();
  std::set<std::string> table_events;  // checked against the folder's libpfm4 table
  int files = 0;
  for (const auto& file : fs::directory_iterator(kGroups / arch)) {
    if (file.path().extension() != ".txt") continue;
    const std::string name = file.path().stem();
    SCOPED_TRACE(file.path().string());
    const CounterGroup g = load_counter_group(kGroups, arch, name);
    EXPECT_FALSE(g.short_description.empty());
    EXPECT_FALSE(g.events.empty());
    EXPECT_FALSE(g.metrics.empty());
    ++files;
    for (const auto& e : g.events) {
      SCOPED_TRACE(e.collect_item());
      if (e.collector == "papi") {
        const auto sep = e.event.find("::");
        ASSERT_NE(sep, std::string::npos) << "name the PMU: pmu::EVENT";
        const std::string pmu = e.event.substr(0, sep);
        if (pmu == "perf") {
          EXPECT_EQ(encode_error(e.event), "");  // perf's table is in every build
          continue;
        }
        ASSERT_TRUE(kPmuOf.count(arch)) << "no libpfm4 table declared for " << arch;
        EXPECT_EQ(pmu, kPmuOf.at(arch));
        table_events.insert(e.event);
      } else if (e.collector == "perf") {
        EXPECT_TRUE(find_perf_event(e.event).has_value());
      } else if (e.collector == "rapl") {
        EXPECT_TRUE(rapl_domains.count(e.event));
      } else {
        ADD_FAILURE() << "no event list to check collector " << e.collector << " against";
      }
    }
  }
  EXPECT_GT(files, 0);
  if (table_events.empty()) return;
  const std::string table = kPmuOf.at(arch);
  if (!has_pmu_table(table))
    GTEST_SKIP() << "this libpfm4 has no " << table
                 << " table (a build holds its own architecture's PMUs): " << arch
                 << "/ parsed, its " << table_events.size() << " events not encoded";
  for (const auto& e : table_events) EXPECT_EQ(encode_error(e), "") << e;
}

INSTANTIATE_TEST_SUITE_P(Libpfm, EveryShippedGroup, ::testing::ValuesIn(group_dirs()),
                         [](const auto& folder) { return folder.param; });

// The per-folder test encodes something in either build, never only skips.
TEST_F(Libpfm, ThisBuildHasTheTablesOfSomeShippedFolder) {
  int tables = 0;
  for (const auto& [arch, table] : kPmuOf) tables += has_pmu_table(table);
  EXPECT_GT(tables, 0);
}

TEST(ShippedGroups, EachCpuHasTheRooflineGroups) {
  for (const std::string arch : {"zen3", "zen4", "icx"}) {
    const auto groups = list_counter_groups(kGroups, arch);
    for (const std::string want : {"FLOPS_DP", "FLOPS_SP", "MEM", "L2", "L3", "ENERGY"})
      EXPECT_NE(std::find(groups.begin(), groups.end(), want), groups.end()) << arch << " " << want;
    // The roofline reads these metric names.
    EXPECT_TRUE(has_metric(arch, "FLOPS_DP", "flops")) << arch;
    EXPECT_TRUE(has_metric(arch, "FLOPS_SP", "flops")) << arch;
    EXPECT_TRUE(has_metric(arch, "MEM", "bytes.dram")) << arch;
    EXPECT_TRUE(has_metric(arch, "L2", "bytes.L2")) << arch;
    EXPECT_TRUE(has_metric(arch, "L3", "bytes.L3")) << arch;
    EXPECT_TRUE(has_metric(arch, "ENERGY", "energy")) << arch;
  }
}

// Arm servers have no RAPL, so no ENERGY; N1 has no FLOP-counting event, so no FLOPS.
TEST(ShippedGroups, EachNeoverseHasTheRooflineGroupsItCanCount) {
  for (const std::string arch : {"neoverse_n1", "neoverse_n2", "neoverse_v1", "neoverse_v2"}) {
    const auto groups = list_counter_groups(kGroups, arch);
    auto has = [&](const std::string& g) {
      return std::find(groups.begin(), groups.end(), g) != groups.end();
    };
    EXPECT_FALSE(has("ENERGY")) << arch;
    EXPECT_TRUE(has_metric(arch, "MEM", "bytes.dram")) << arch;
    EXPECT_TRUE(has_metric(arch, "L2", "bytes.L2")) << arch;
    EXPECT_TRUE(has_metric(arch, "L3", "bytes.L3")) << arch;
    EXPECT_TRUE(has("OP_MIX")) << arch;
    if (arch == "neoverse_n1") {
      EXPECT_FALSE(has("FLOPS_DP"));
      continue;
    }
    EXPECT_TRUE(has_metric(arch, "FLOPS_DP", "flops")) << arch;
    EXPECT_TRUE(has_metric(arch, "FLOPS_SP", "flops")) << arch;
  }
  // counter_group_arch names these folders for the Arm parts.
  for (const int part : {0xd0c, 0xd40, 0xd49, 0xd4f})
    EXPECT_TRUE(fs::is_directory(kGroups / counter_group_arch("ARM", 0, part))) << part;
}

// Neoverse N1, N2, V1 and V2 have six programmable counters besides the cycle counter,
// which a perf-based watchdog may hold: a group of more than six would not schedule.
TEST(ShippedGroups, NeoverseGroupsFitSixCounters) {
  for (const std::string arch : {"neoverse_n1", "neoverse_n2", "neoverse_v1", "neoverse_v2"})
    for (const auto& name : list_counter_groups(kGroups, arch)) {
      const CounterGroup g = load_counter_group(kGroups, arch, name);
      const auto hardware =
          std::count_if(g.events.begin(), g.events.end(),
                        [](const GroupEvent& e) { return e.collector == "papi"; });
      EXPECT_LE(hardware, 6) << arch << "/" << name;
    }
}

// FP_SCALE_OPS_SPEC counts SVE operations per 128 bits of vector: V1's 256-bit vectors
// double it, N2's and V2's 128-bit ones do not.
TEST(ShippedGroups, SveOperationsScaleByTheVectorLength) {
  auto flops = [](const std::string& arch) {
    const CounterGroup g = load_counter_group(kGroups, arch, "FLOPS_DP");
    std::vector<Metric> readings;
    for (const auto& e : g.events) {
      const bool sve = e.event.ends_with("::FP_SCALE_OPS_SPEC");
      const bool fixed = e.event.ends_with("::FP_FIXED_OPS_SPEC");
      readings.push_back({e.metric_name(),
                          sve     ? 10.0
                          : fixed ? 3.0
                                  : 1.0,
                          "events", MetricSource::counted});
    }
    std::vector<std::string> missing;
    for (const auto& m : evaluate_group(g, readings, 1.0, 1, missing))
      if (m.name == "flops") return m.value;
    return -1.0;
  };
  EXPECT_DOUBLE_EQ(flops("neoverse_v1"), 2 * 10 + 3);
  EXPECT_DOUBLE_EQ(flops("neoverse_n2"), 10 + 3);
  EXPECT_DOUBLE_EQ(flops("neoverse_v2"), 10 + 3);
}

}  // namespace
}  // namespace ridgeline
