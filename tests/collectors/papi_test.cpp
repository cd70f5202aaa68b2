// The real PAPI library through its perf_event component: software events count here,
// presets need a hardware PMU and say so when there is none.
#include "ridgeline/collectors/papi.hpp"

#include <gtest/gtest.h>

#include "metric_lookup.hpp"

namespace ridgeline {

TEST(Papi, SoftwareEventsCountTouchedPages) {
  auto papi = make_papi_collector({"perf::PAGE-FAULTS", "perf::TASK-CLOCK"});
  Availability a = papi->probe();
  if (!a.available) GTEST_SKIP() << a.reason;
  const std::size_t pages = 1500;
  papi->start();
  ASSERT_TRUE(testing::touch_new_pages(pages));
  papi->stop();
  auto metrics = papi->read();
  ASSERT_EQ(metrics.size(), 2u);
  EXPECT_EQ(metrics[0].name, "papi.perf::PAGE-FAULTS");
  EXPECT_GE(metrics[0].value, static_cast<double>(pages));
  EXPECT_EQ(metrics[0].source, MetricSource::counted);
  EXPECT_GT(metrics[1].value, 0);
}

TEST(Papi, AnUnavailablePresetNamesTheCallAndTheError) {
  auto papi = make_papi_collector({"PAPI_DP_OPS", "perf::TASK-CLOCK"});
  Availability a = papi->probe();
  if (a.reason.find("built without PAPI") != std::string::npos) GTEST_SKIP() << a.reason;
  // With a PMU the preset may exist; without one the reason is PAPI's own error.
  if (a.reason.find("PAPI_DP_OPS") == std::string::npos)
    GTEST_SKIP() << "PAPI_DP_OPS exists on this machine";
  EXPECT_NE(a.reason.find("PAPI_add_named_event(PAPI_DP_OPS) failed: "), std::string::npos)
      << a.reason;
  // The software event counts only where PAPI enabled its perf_event component: libpfm4
  // disables the whole component on a CPU it has no PMU table for (Zen 5 with libpfm4 4.13).
  std::string error;
  for (const auto& c : papi_components(error))
    if (c.name == "perf_event" && c.disabled)
      GTEST_SKIP() << "PAPI's perf_event component is disabled here: " << c.reason;
  EXPECT_TRUE(a.available) << "the software event still counts: " << a.reason;
}

TEST(Papi, ComponentsAreListedWithTheirReasons) {
  std::string error;
  auto components = papi_components(error);
  if (!error.empty()) GTEST_SKIP() << error;
  bool perf_event = false;
  for (const auto& c : components) {
    if (c.name == "perf_event") perf_event = true;
    if (c.disabled) {
      EXPECT_FALSE(c.reason.empty()) << c.name;
    }
  }
  EXPECT_TRUE(perf_event);
}

}  // namespace ridgeline
