// The powercap reader on fixture sysfs trees built by the test (this machine has no RAPL).
#include "ridgeline/collectors/powercap.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace ridgeline {

namespace fs = std::filesystem;

class PowercapFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("ridgeline_powercap_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void zone(const std::string& id, const std::string& name, std::uint64_t energy,
            std::uint64_t max) {
    fs::create_directories(root_ / id);
    std::ofstream(root_ / id / "name") << name << "\n";
    std::ofstream(root_ / id / "energy_uj") << energy << "\n";
    std::ofstream(root_ / id / "max_energy_range_uj") << max << "\n";
  }
  void set_energy(const std::string& id, std::uint64_t energy) {
    std::ofstream(root_ / id / "energy_uj") << energy << "\n";
  }
  fs::path root_;
};

TEST(Powercap, EnergyDeltaHandlesWrapAround) {
  EXPECT_EQ(energy_delta_uj(100, 350, 1000), 250u);
  EXPECT_EQ(energy_delta_uj(900, 50, 1000), 150u);
  EXPECT_EQ(energy_delta_uj(5, 5, 1000), 0u);
}

TEST_F(PowercapFixture, EnergyAndPowerPerDomainIncludingAWrap) {
  zone("intel-rapl:0", "package-0", 1'000'000, 262'143'328'850);
  zone("intel-rapl:0:0", "core", 262'143'000'000, 262'143'328'850);
  PowercapCollector rapl(root_);
  ASSERT_TRUE(rapl.probe().available) << rapl.probe().reason;
  rapl.start();
  set_energy("intel-rapl:0", 3'000'000);  // +2 J
  set_energy("intel-rapl:0:0", 171'150);  // wrapped: 328'850 + 171'150 = 0.5 J
  rapl.stop();
  auto metrics = rapl.read();
  std::map<std::string, Metric> by;
  for (const auto& m : metrics) by[m.name] = m;
  ASSERT_TRUE(by.count("energy.package-0"));
  EXPECT_DOUBLE_EQ(by["energy.package-0"].value, 2.0);
  EXPECT_EQ(by["energy.package-0"].source, MetricSource::counted);
  EXPECT_DOUBLE_EQ(by["energy.core"].value, 0.5);
  EXPECT_EQ(by["power.core"].source, MetricSource::derived);
  EXPECT_GT(by["power.core"].value, 0);
}

TEST_F(PowercapFixture, ADomainThatVanishesIsLeftOutNotGuessed) {
  zone("intel-rapl:0", "package-0", 10, 1000);
  zone("intel-rapl:0:1", "dram", 10, 1000);
  PowercapCollector rapl(root_);
  rapl.start();
  fs::remove_all(root_ / "intel-rapl:0:1");
  set_energy("intel-rapl:0", 20);
  rapl.stop();
  auto metrics = rapl.read();
  for (const auto& m : metrics) EXPECT_EQ(m.name.find("dram"), std::string::npos) << m.name;
  EXPECT_FALSE(metrics.empty());
}

TEST_F(PowercapFixture, MissingTreeOrDomainsSayWhy) {
  PowercapCollector none(root_ / "absent");
  EXPECT_FALSE(none.probe().available);
  EXPECT_NE(
      none.probe().reason.find("does not exist: this kernel exposes no powercap/RAPL interface"),
      std::string::npos);
  PowercapCollector empty(root_);
  EXPECT_NE(empty.probe().reason.find("has no intel-rapl:* zones"), std::string::npos);
}

TEST(Powercap, ThisMachineReportsAvailabilityOrTheReason) {
  PowercapCollector rapl;
  Availability a = rapl.probe();
  if (!a.available) {
    EXPECT_FALSE(a.reason.empty());
  }
}

}  // namespace ridgeline
