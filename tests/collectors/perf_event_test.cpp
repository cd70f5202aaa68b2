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
  const std::size_t pages = 2000;
  perf.start();
  ASSERT_TRUE(testing::touch_new_pages(pages));
  perf.stop();
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
  ASSERT_TRUE(testing::touch_new_pages(500));
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
  EXPECT_NE(explain_perf_error(ENOENT, cycles, "")
                .find("perf_event_open for cycles returned ENOENT: no hardware PMU"),
            std::string::npos);
  EXPECT_NE(explain_perf_error(EACCES, cycles, "").find("kernel.perf_event_paranoid = "),
            std::string::npos);
  // ENOSYS: the kernel's lack, or under qemu-user the emulator's.
  EXPECT_NE(explain_perf_error(ENOSYS, cycles, "").find("kernel was built without perf events"),
            std::string::npos);
  EXPECT_NE(explain_perf_error(ENOSYS, cycles, "emulated: ...")
                .find("(qemu-user) does not implement perf_event_open"),
            std::string::npos);
}

}  // namespace ridgeline

namespace ridgeline {

TEST(PerfEventGroup, SoftwareEventsReadAsOneGroup) {
  PerfEventCollector perf({"page-faults+task-clock+context-switches"});
  Availability a = perf.probe();
  if (!a.available) GTEST_SKIP() << a.reason;
  ASSERT_EQ(perf.events().size(), 1u);
  EXPECT_TRUE(perf.events()[0].available);
  const std::size_t pages = 1500;
  perf.start();
  ASSERT_TRUE(testing::touch_new_pages(pages));
  perf.stop();
  auto metrics = perf.read();
  ASSERT_EQ(metrics.size(), 3u);  // one read() gives every member
  auto faults = testing::metric(metrics, "perf.page-faults");
  ASSERT_TRUE(faults);
  EXPECT_GE(*faults, static_cast<double>(pages));
  EXPECT_GT(testing::metric(metrics, "perf.task-clock").value_or(0), 0);
  EXPECT_TRUE(testing::metric(metrics, "perf.context-switches").has_value());
}

TEST(PerfEventGroup, AGroupWithAnEventTheMachineLacksFailsWholeWithTheReason) {
  PerfEventCollector alone({"cycles"});
  if (alone.probe().available) GTEST_SKIP() << "this machine has a PMU: cycles opens";
  // Without perf_event_open at all (qemu-user has no such system call), nothing counts.
  PerfEventCollector software({"page-faults"});
  if (const Availability s = software.probe(); !s.available) GTEST_SKIP() << s.reason;
  PerfEventCollector perf({"task-clock+cycles", "page-faults"});
  Availability a = perf.probe();
  EXPECT_TRUE(a.available);  // page-faults still counts
  ASSERT_EQ(perf.events().size(), 2u);
  EXPECT_FALSE(perf.events()[0].available);
  EXPECT_NE(perf.events()[0].reason.find("perf_event_open for cycles"), std::string::npos);
  EXPECT_NE(perf.events()[0].reason.find("(in group task-clock+cycles)"), std::string::npos);
  perf.start();
  perf.stop();
  for (const auto& m : perf.read()) EXPECT_EQ(m.name, "perf.page-faults");
}

TEST(PerfEventGroup, GroupReadLayoutSharesOneEnabledRunningPair) {
  const std::uint64_t buf[] = {2, 1000, 250, 7, 9};
  auto r = parse_group_read(buf, 5);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].value, 9u);
  EXPECT_EQ(r[1].time_enabled, 1000u);
  EXPECT_EQ(r[1].time_running, 250u);
  bool scaled = false;
  EXPECT_EQ(scale_multiplexed(r[0], scaled), 28.0);
  EXPECT_TRUE(scaled);
  EXPECT_TRUE(parse_group_read(buf, 4).empty());  // short read
  EXPECT_TRUE(parse_group_read(buf, 2).empty());
}

}  // namespace ridgeline
