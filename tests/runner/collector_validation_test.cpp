// Collector self-check: the real checks on this machine (software counters must pass,
// hardware ones pass or say why they were skipped), and how verdicts mark a Run.
#include "ridgeline/runner/collector_validation.hpp"

#include <gtest/gtest.h>

#include "ridgeline/core/error.hpp"
#include "sanitizers.hpp"

namespace ridgeline {
namespace {

const CollectorCheck* find_check(const CollectorValidation& v, const std::string& item) {
  for (const auto& c : v.checks)
    if (c.item == item) return &c;
  return nullptr;
}

TEST(CollectorValidation, SoftwareCountersMatchKnownWorkAndTheRestSayWhy) {
#ifdef RIDGELINE_UNDER_ASAN
  GTEST_SKIP() << "built with ASan: its shadow memory faults pages of its own, so the "
                  "page-fault count cannot match the known work";
#endif
  const CollectorValidation v = validate_collectors();
  ASSERT_GE(v.checks.size(), 8u);
  const CollectorCheck* faults = find_check(v, "perf:page-faults");
  ASSERT_NE(faults, nullptr);
  if (faults->verdict == "skipped") GTEST_SKIP() << faults->reason;
  EXPECT_EQ(faults->verdict, "trusted") << faults->counted << " faults for " << faults->expected;
  const CollectorCheck* timer = find_check(v, "timer");
  ASSERT_NE(timer, nullptr);
  EXPECT_EQ(timer->verdict, "trusted") << timer->counted;
  for (const auto& c : v.checks) {
    EXPECT_TRUE(c.verdict == "trusted" || c.verdict == "untrusted" || c.verdict == "skipped");
    if (c.verdict == "skipped") {
      EXPECT_FALSE(c.reason.empty()) << c.item;
    }
    EXPECT_GT(c.expected, 0) << c.item;
  }
  // Bytes are checked at each level with a read-only sweep, besides FLOPs and events.
  for (const char* group : {"--group L2", "--group L3", "--group MEM"}) {
    const CollectorCheck* bytes = find_check(v, group);
    ASSERT_NE(bytes, nullptr) << group;
    EXPECT_EQ(bytes->metric.rfind("bytes.", 0), 0u) << bytes->metric;
  }
  EXPECT_GE(find_check(v, "--group MEM")->expected, 256.0 * 1024 * 1024);
  // GPU counters against the SIMT GEMM's FFMAs, within the 1%.
  const CollectorCheck* gpu = find_check(v, "cupti");
  ASSERT_NE(gpu, nullptr);
  EXPECT_DOUBLE_EQ(gpu->expected, 2.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(gpu->tolerance, 0.01);
}

TEST(CollectorValidation, RoundTripsThroughJsonAndBadJsonNamesTheFile) {
  CollectorValidation v{"fp",
                        "2026-11-21",
                        {{"perf", "perf:page-faults", "perf.page-faults", "touch 10 pages", 10, 11,
                          0.05, "untrusted", ""}}};
  const CollectorValidation back = validation_from_json(validation_to_json(v), "x");
  ASSERT_EQ(back.checks.size(), 1u);
  EXPECT_EQ(back.checks[0].counted, 11);
  EXPECT_EQ(back.checks[0].verdict, "untrusted");
  try {
    validation_from_json("{\"fingerprint\": 1}", "cache.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cache.json: not a collector validation"),
              std::string::npos);
  }
}

TEST(CollectorValidation, OneFailedCheckMakesTheCollectorUntrusted) {
  CollectorValidation v{"fp", "2026-11-21", {}};
  v.checks.push_back({"perf", "perf:page-faults", "perf.page-faults", "touch 10 pages", 10, 10,
                      0.05, "trusted", ""});
  v.checks.push_back(
      {"perf", "perf:task-clock", "perf.task-clock", "busy", 1e8, 5e7, 0.1, "untrusted", ""});
  v.checks.push_back(
      {"papi", "papi:PAPI_DP_OPS", "papi.PAPI_DP_OPS", "gemm", 4e6, 0, 0.05, "skipped", "no PMU"});
  v.checks.push_back(
      {"group:FLOPS_DP", "--group FLOPS_DP", "flops", "gemm", 4e6, 4.01e6, 0.05, "trusted", ""});
  std::vector<CollectorStatus> statuses{{"perf", true, "", "", "", {}},
                                        {"papi", true, "", "", "", {}},
                                        {"timer", true, "", "", "", {}},
                                        {"group:FLOPS_DP", true, "", "", "", {}}};
  apply_validation(v, statuses);
  EXPECT_EQ(statuses[0].trust, "untrusted");
  EXPECT_NE(statuses[0].validation.find("off: perf.task-clock"), std::string::npos)
      << statuses[0].validation;
  EXPECT_EQ(statuses[1].trust, "");  // only skipped checks: not validated
  EXPECT_EQ(statuses[2].trust, "");
  EXPECT_EQ(statuses[3].trust, "trusted");
  EXPECT_NE(statuses[3].validation.find("2026-11-21"), std::string::npos);
}

// A collector that gave no readings in this run (its events failed) is not "trusted",
// whatever an earlier validation of other events said.
TEST(CollectorValidation, AnUnavailableCollectorGetsNoTrust) {
  CollectorValidation v{"fp", "2026-11-21", {}};
  v.checks.push_back({"perf", "perf:page-faults", "perf.page-faults", "touch 10 pages", 10, 10,
                      0.05, "trusted", ""});
  std::vector<CollectorStatus> statuses{{"perf", false, "cycles: ENOENT", "", "", {}}};
  apply_validation(v, statuses);
  EXPECT_EQ(statuses[0].trust, "");
  EXPECT_EQ(statuses[0].validation, "");
}

}  // namespace
}  // namespace ridgeline
