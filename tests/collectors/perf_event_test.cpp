// Real software events through perf_event_open; hardware events only where a PMU exists
// (the `pmu` tests skip with the kernel's reason otherwise).
#include "ridgeline/collectors/perf_event.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include "metric_lookup.hpp"

namespace ridgeline {

using testing::metric;

TEST(PerfEvent, PageFaultsCountEveryTouchedPage) {
  PerfEventCollector perf({"page-faults", "task-clock"});
  Availability a = perf.probe();
  if (!a.available) GTEST_SKIP() << a.reason;
  const long page = ::sysconf(_SC_PAGESIZE);
  const std::size_t pages = 2000;
  perf.start();
  char* p = static_cast<char*>(
      ::mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(p, MAP_FAILED);
  for (std::size_t i = 0; i < pages; ++i) p[i * page] = 1;
  perf.stop();
  ::munmap(p, pages * page);
  auto metrics = perf.read();
  auto faults = metric(metrics, "perf.page-faults");
  ASSERT_TRUE(faults);
  EXPECT_GE(*faults, static_cast<double>(pages));
  auto clock = metric(metrics, "perf.task-clock");
  ASSERT_TRUE(clock);
  EXPECT_GT(*clock, 0);
  for (const auto& m : metrics) EXPECT_EQ(m.source, MetricSource::counted);
}

TEST(PerfEvent, CountsOnlyBetweenStartAndStop) {
  PerfEventCollector perf({"page-faults"});
  if (!perf.probe().available) GTEST_SKIP() << perf.probe().reason;
  perf.start();
  perf.stop();
  const long page = ::sysconf(_SC_PAGESIZE);
  char* p = static_cast<char*>(
      ::mmap(nullptr, 500 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  for (int i = 0; i < 500; ++i) p[i * page] = 1;
  ::munmap(p, 500 * page);
  auto faults = metric(perf.read(), "perf.page-faults");
  ASSERT_TRUE(faults);
  EXPECT_LT(*faults, 100);
}

TEST(PerfEvent, MultiplexedCountsAreScaledAndMarked) {
  bool scaled = true;
  EXPECT_EQ(scale_multiplexed({1000, 500, 500}, scaled), 1000.0);
  EXPECT_FALSE(scaled);
  EXPECT_EQ(scale_multiplexed({1000, 400, 100}, scaled), 4000.0);
  EXPECT_TRUE(scaled);
  EXPECT_FALSE(scale_multiplexed({0, 400, 0}, scaled)) << "a counter that never ran has no value";
}

TEST(PerfEvent, UnknownAndUnavailableEventsSayWhy) {
  PerfEventCollector perf({"frobs"});
  Availability a = perf.probe();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("unknown perf event 'frobs'"), std::string::npos);
  PerfEventSpec cycles = *find_perf_event("cycles");
  EXPECT_NE(explain_perf_error(ENOENT, cycles)
                .find("perf_event_open for cycles returned ENOENT: no hardware PMU"),
            std::string::npos);
  EXPECT_NE(explain_perf_error(EACCES, cycles).find("kernel.perf_event_paranoid = "),
            std::string::npos);
}

}  // namespace ridgeline
