#pragma once
// RAPL energy through Linux powercap sysfs (/sys/class/powercap/intel-rapl:*; AMD CPUs
// appear under the same driver name).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

struct PowercapDomain {
  std::string id;    // "intel-rapl:0", "intel-rapl:0:1"
  std::string name;  // "package-0", "core", "dram", ...
  std::filesystem::path energy_file;
  std::uint64_t max_energy_range_uj = 0;
};

// Energy counted between two readings of a counter that wraps at max_range.
std::uint64_t energy_delta_uj(std::uint64_t before, std::uint64_t after, std::uint64_t max_range);

class PowercapReader {
 public:
  explicit PowercapReader(std::filesystem::path root = "/sys/class/powercap");
  // Domains whose energy_uj could be read; empty with `reason` set otherwise.
  const std::vector<PowercapDomain>& domains() const { return domains_; }
  const std::string& reason() const { return reason_; }
  // Current energy_uj of each domain (domains that fail to read are left out).
  std::map<std::string, std::uint64_t> sample() const;

 private:
  std::vector<PowercapDomain> domains_;
  std::string reason_;
};

// Energy (J, counted) and average power (W, derived) per domain over start..stop.
class PowercapCollector : public Collector {
 public:
  explicit PowercapCollector(std::filesystem::path root = "/sys/class/powercap");
  std::string name() const override { return "rapl"; }
  Availability probe() override;
  void start() override;
  void stop() override;
  std::vector<Metric> read() override;

 private:
  PowercapReader reader_;
  std::map<std::string, std::uint64_t> before_, after_;
  std::chrono::steady_clock::time_point t0_{}, t1_{};
};

}  // namespace ridgeline
