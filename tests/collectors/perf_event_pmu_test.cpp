// Hardware events: CTest label `pmu`. Where perf_event_open for cycles fails (no PMU, as
// in a VM) the test checks the reason is the kernel's exact one and skips with it.
#include <gtest/gtest.h>

#include "metric_lookup.hpp"
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
