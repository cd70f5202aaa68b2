// Hardware events: CTest label `pmu`. Where perf_event_open for cycles fails (no PMU, as
// in a VM) the test checks the reason is the kernel's exact one and skips with it.
#include <gtest/gtest.h>

#include "metric_lookup.hpp"
#include "ridgeline/collectors/papi.hpp"
#include "ridgeline/collectors/perf_event.hpp"

namespace ridgeline {

using testing::metric;

TEST(PerfEventPmu, CyclesCountOrTheReasonIsExact) {
  PerfEventCollector perf({"cycles", "instructions"});
  Availability a = perf.probe();
  if (!a.available) {
    EXPECT_NE(a.reason.find("perf_event_open for cycles returned"), std::string::npos) << a.reason;
    GTEST_SKIP() << a.reason;
  }
  perf.start();
  volatile double x = 0;
  for (int i = 0; i < 1000000; ++i) x = x + 1.0;
  perf.stop();
  auto cycles = metric(perf.read(), "perf.cycles");
  ASSERT_TRUE(cycles);
  EXPECT_GT(*cycles, 1e6);
}

}  // namespace ridgeline

namespace ridgeline {

TEST(PapiPmu, MoreEventsThanCountersAreMultiplexedAndMarked) {
  const std::vector<std::string> events{
      "PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_BR_INS", "PAPI_BR_MSP", "PAPI_L1_DCM",
      "PAPI_L2_DCM",  "PAPI_L1_ICM",  "PAPI_TLB_DM", "PAPI_LD_INS", "PAPI_SR_INS"};
  auto papi = make_papi_collector(events);
  const Availability a = papi->probe();
  papi->start();
  volatile double x = 0;
  for (int i = 0; i < 20000000; ++i) x = x + 1.0;
  papi->stop();
  const auto metrics = papi->read();
  if (metrics.empty()) GTEST_SKIP() << a.reason;
  const bool multiplexed = a.reason.find("multiplexed") != std::string::npos;
  for (const auto& m : metrics) {
    EXPECT_EQ(m.name.size() > 7 && m.name.substr(m.name.size() - 7) == ".scaled", multiplexed)
        << m.name << " / " << a.reason;
    EXPECT_EQ(m.source, MetricSource::counted);
  }
  auto ins = metric(metrics, multiplexed ? "papi.PAPI_TOT_INS.scaled" : "papi.PAPI_TOT_INS");
  ASSERT_TRUE(ins) << a.reason;
  EXPECT_GT(*ins, 2e7);  // at least one instruction per loop turn
}

}  // namespace ridgeline
