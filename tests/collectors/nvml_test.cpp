// NVML collector: the loader's reasons where the library is absent or not NVML, and the
// arithmetic of a sample series (averages, peaks, throttle reasons, integrated energy).
#include "ridgeline/collectors/nvml.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <thread>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

TEST(Nvml, AbsentLibraryIsAReasonAndTheCollectorStaysQuiet) {
  NvmlCollector c("/nonexistent/libnvidia-ml.so.1");
  const Availability a = c.probe();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("/nonexistent/libnvidia-ml.so.1: cannot open"), std::string::npos)
      << a.reason;
  EXPECT_NE(a.reason.find("NVIDIA driver is not installed"), std::string::npos) << a.reason;
  c.start();  // a collector that cannot run never fails the run
  c.stop();
  EXPECT_TRUE(c.read().empty());
}

TEST(Nvml, ALibraryThatIsNotNvmlIsNamed) {
  NvmlCollector c("libm.so.6");  // loads, has none of NVML's functions
  const Availability a = c.probe();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("libm.so.6 lacks an NVML function"), std::string::npos) << a.reason;
}

// Through the fixture library (named as such: fixed readings, not NVML): the loader, the
// sampling thread and the arithmetic end to end.
TEST(Nvml, AFixtureLibraryIsSampledAndItsEnergyCounterRead) {
  NvmlCollector c(RIDGELINE_FIXTURE_NVML, 0, std::chrono::milliseconds(1));
  const Availability a = c.probe();
  ASSERT_TRUE(a.available) << a.reason;
  EXPECT_NE(a.reason.find("Fixture GPU"), std::string::npos) << a.reason;
  c.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  c.stop();
  std::map<std::string, Metric> m;
  for (const auto& x : c.read()) m[x.name] = x;
  ASSERT_EQ(m.count("energy.gpu"), 1u);
  EXPECT_DOUBLE_EQ(m["energy.gpu"].value, 1.0);  // one counter step between start and stop
  EXPECT_EQ(m["energy.gpu"].source, MetricSource::counted);
  // Instantaneous power (the fixture's field alternates 400 and 440 W), not the average.
  EXPECT_NE(a.reason.find("power: NVML_FI_DEV_POWER_INSTANT"), std::string::npos) << a.reason;
  EXPECT_DOUBLE_EQ(m["nvml.power_instant"].value, 1);
  EXPECT_GE(m["power.gpu.avg"].value, 400);
  EXPECT_LE(m["power.gpu.avg"].value, 440);
  EXPECT_DOUBLE_EQ(m["power.gpu.max"].value, 440);
  EXPECT_EQ(m["nvml.power_changes"].value, m["nvml.samples"].value - 1);
  EXPECT_DOUBLE_EQ(m["clock.sm.avg"].value, 1.98e9);
  EXPECT_DOUBLE_EQ(m["clock.memory.avg"].value, 2.619e9);
  EXPECT_DOUBLE_EQ(m["temperature.gpu.max"].value, 55);
  EXPECT_DOUBLE_EQ(m["gpu.throttled"].value, 1);  // the power cap held the clocks
  EXPECT_DOUBLE_EQ(m["gpu.power_capped"].value, 1);
  EXPECT_GE(m["nvml.samples"].value, 3);  // start, the thread's, stop
  EXPECT_EQ(m["power.gpu.avg"].source, MetricSource::sampled);
  // A device NVML does not have is named.
  NvmlCollector second(RIDGELINE_FIXTURE_NVML, 1);
  EXPECT_NE(second.probe().reason.find("device 1 does not exist"), std::string::npos);
}

TEST(Nvml, WithoutTheInstantFieldTheAverageIsReadAndSaidSo) {
  ::setenv("FIXTURE_NVML_NO_INSTANT", "1", 1);
  NvmlCollector c(RIDGELINE_FIXTURE_NVML, 0, std::chrono::milliseconds(1));
  const Availability a = c.probe();
  ::unsetenv("FIXTURE_NVML_NO_INSTANT");
  ASSERT_TRUE(a.available) << a.reason;
  EXPECT_NE(a.reason.find("power: nvmlDeviceGetPowerUsage (a one-second average"),
            std::string::npos)
      << a.reason;
  EXPECT_NE(a.reason.find("NVML_FI_DEV_POWER_INSTANT (3"), std::string::npos) << a.reason;
  c.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  c.stop();
  std::map<std::string, Metric> m;
  for (const auto& x : c.read()) m[x.name] = x;
  EXPECT_DOUBLE_EQ(m["power.gpu.avg"].value, 350);
  EXPECT_DOUBLE_EQ(m["nvml.power_instant"].value, 0);
  EXPECT_DOUBLE_EQ(m["nvml.power_changes"].value, 0);
}

TEST(Nvml, TheRegistryHasItAndOnThisMachineItSaysWhy) {
  const CollectorDescriptor* d = find_collector("nvml");
  ASSERT_NE(d, nullptr);
  auto c = d->factory({});
  const Availability a = c->probe();
  if (a.available) GTEST_SKIP() << "NVML works here: " << a.reason;
  EXPECT_FALSE(a.reason.empty());
}

TEST(NvmlSummary, AveragesPeaksThrottleAndTrapezoidEnergy) {
  const std::vector<NvmlSample> samples{{0.0, 100, 1.98e9, 2.6e9, 40, 0x1},  // idle at the start
                                        {0.5, 500, 1.98e9, 2.6e9, 60, 0},    //
                                        {1.0, 700, 1.60e9, 2.6e9, 75, 0x4},  // power capped
                                        {1.5, 700, 1.70e9, 2.6e9, 70, 0x4 | 0x20}};
  const NvmlSummary s = summarize(samples);
  EXPECT_EQ(s.samples, 4u);
  EXPECT_DOUBLE_EQ(s.power_avg_w, 500);
  EXPECT_DOUBLE_EQ(s.power_max_w, 700);
  EXPECT_DOUBLE_EQ(s.sm_clock_min_hz, 1.60e9);
  EXPECT_DOUBLE_EQ(s.sm_clock_avg_hz, (1.98e9 * 2 + 1.6e9 + 1.7e9) / 4);
  EXPECT_DOUBLE_EQ(s.temperature_max_c, 75);
  EXPECT_EQ(s.clock_reasons, 0x1u | 0x4u | 0x20u);
  EXPECT_TRUE(s.throttled);
  EXPECT_TRUE(s.power_capped);
  // 0.5 * ((100 + 500) + (500 + 700) + (700 + 700)) / 2 = 800 J
  EXPECT_DOUBLE_EQ(s.integrated_energy_j, 800);
  EXPECT_EQ(nvml_reason_names(s.clock_reasons), "gpu_idle,sw_power_cap,sw_thermal_slowdown");
}

TEST(NvmlSummary, IdleAndApplicationClocksAreNotThrottling) {
  const NvmlSummary s = summarize({{0, 80, 1e9, 1e9, 30, 0x1 | 0x2}});
  EXPECT_FALSE(s.throttled);
  EXPECT_FALSE(s.power_capped);
  // A thermal slowdown throttles without the power cap.
  EXPECT_FALSE(summarize({{0, 300, 1e9, 1e9, 90, 0x20}}).power_capped);
  EXPECT_TRUE(summarize({{0, 300, 1e9, 1e9, 90, 0x20}}).throttled);
  EXPECT_DOUBLE_EQ(s.integrated_energy_j, 0);  // one sample spans no time
  EXPECT_EQ(summarize({}).samples, 0u);
  EXPECT_EQ(nvml_reason_names(0), "none");
}

}  // namespace ridgeline
