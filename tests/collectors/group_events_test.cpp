// Every counter group shipped in collectors/groups parses, and every event it names exists
// in the event list it targets: libpfm4's table for the group's CPU (encoded with
// LIBPFM_ENCODE_INACTIVE, so a Zen 4 VM checks the Ice Lake names too), the perf
// collector's catalogue, or the RAPL domain names powercap uses.
#include <gtest/gtest.h>
#include <perfmon/pfmlib.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "ridgeline/collectors/counter_group.hpp"
#include "ridgeline/collectors/perf_event.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

const fs::path kGroups = RIDGELINE_GROUPS_SOURCE;

// The libpfm4 PMU table each directory's events come from.
const std::map<std::string, std::string> kPmuOf{
    {"zen3", "amd64_fam19h_zen3"}, {"zen4", "amd64_fam19h_zen4"}, {"icx", "icx"}};

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
  EXPECT_EQ(encode_error("amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS:ANY"), "");
  EXPECT_EQ(encode_error("icx::FP_ARITH_INST_RETIRED:SCALAR_DOUBLE"), "");
  EXPECT_NE(encode_error("amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS:NO_SUCH_UMASK"), "");
  EXPECT_NE(encode_error("icx::NO_SUCH_EVENT"), "");
  // Zen 3's table has no BF16 unit mask; Zen 4's has.
  EXPECT_NE(encode_error("amd64_fam19h_zen3::RETIRED_SSE_AVX_FLOPS:BFLOAT_MAC_FLOPS"), "");
  EXPECT_EQ(encode_error("amd64_fam19h_zen4::RETIRED_SSE_AVX_FLOPS:BFLOAT_MAC_FLOPS"), "");
}

TEST_F(Libpfm, EveryShippedGroupParsesAndNamesRealEvents) {
  const std::set<std::string> rapl_domains{"package-0", "package-1", "core",
                                           "uncore",    "dram",      "psys"};
  int checked = 0;
  for (const auto& arch_dir : fs::directory_iterator(kGroups)) {
    if (!arch_dir.is_directory()) continue;
    const std::string arch = arch_dir.path().filename();
    for (const auto& file : fs::directory_iterator(arch_dir.path())) {
      if (file.path().extension() != ".txt") continue;
      const std::string name = file.path().stem();
      SCOPED_TRACE(file.path().string());
      const CounterGroup g = load_counter_group(kGroups, arch, name);
      EXPECT_FALSE(g.short_description.empty());
      EXPECT_FALSE(g.events.empty());
      EXPECT_FALSE(g.metrics.empty());
      for (const auto& e : g.events) {
        SCOPED_TRACE(e.collect_item());
        if (e.collector == "papi") {
          const auto sep = e.event.find("::");
          ASSERT_NE(sep, std::string::npos) << "name the PMU: pmu::EVENT";
          const std::string pmu = e.event.substr(0, sep);
          if (pmu != "perf") {
            ASSERT_TRUE(kPmuOf.count(arch)) << "no libpfm4 table declared for " << arch;
            EXPECT_EQ(pmu, kPmuOf.at(arch));
          }
          EXPECT_EQ(encode_error(e.event), "");
        } else if (e.collector == "perf") {
          EXPECT_TRUE(find_perf_event(e.event).has_value());
        } else if (e.collector == "rapl") {
          EXPECT_TRUE(rapl_domains.count(e.event));
        } else {
          ADD_FAILURE() << "no event list to check collector " << e.collector << " against";
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 30);
}

TEST(ShippedGroups, EachCpuHasTheRooflineGroups) {
  for (const std::string arch : {"zen3", "zen4", "icx"}) {
    const auto groups = list_counter_groups(kGroups, arch);
    for (const std::string want : {"FLOPS_DP", "FLOPS_SP", "MEM", "L2", "L3", "ENERGY"})
      EXPECT_NE(std::find(groups.begin(), groups.end(), want), groups.end()) << arch << " " << want;
    // The roofline reads these metric names.
    auto has = [&](const std::string& group, const std::string& metric) {
      for (const auto& m : load_counter_group(kGroups, arch, group).metrics)
        if (m.name == metric) return true;
      return false;
    };
    EXPECT_TRUE(has("FLOPS_DP", "flops")) << arch;
    EXPECT_TRUE(has("FLOPS_SP", "flops")) << arch;
    EXPECT_TRUE(has("MEM", "bytes.dram")) << arch;
    EXPECT_TRUE(has("L2", "bytes.L2")) << arch;
    EXPECT_TRUE(has("L3", "bytes.L3")) << arch;
    EXPECT_TRUE(has("ENERGY", "energy")) << arch;
  }
}

}  // namespace
}  // namespace ridgeline
