#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "ridgeline/collectors/powercap.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

std::uint64_t energy_delta_uj(std::uint64_t before, std::uint64_t after, std::uint64_t max_range) {
  if (after >= before) return after - before;
  // The counter wrapped once (a case long enough to wrap twice would need hours).
  return max_range > before ? (max_range - before) + after : after;
}

namespace {
std::optional<std::string> read_line(const fs::path& file, int& err) {
  std::ifstream in(file);
  if (!in) {
    err = errno;
    return std::nullopt;
  }
  std::string line;
  std::getline(in, line);
  if (!in && !in.eof()) {
    err = errno;
    return std::nullopt;
  }
  return line;
}
}  // namespace

PowercapReader::PowercapReader(fs::path root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    reason_ = fmt::format(
        "{} does not exist: this kernel exposes no powercap/RAPL interface "
        "(virtual machines rarely do)",
        root.string());
    return;
  }
  std::vector<fs::path> zones;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const std::string id = entry.path().filename().string();
    if (id.rfind("intel-rapl:", 0) == 0) zones.push_back(entry.path());
  }
  std::sort(zones.begin(), zones.end());
  if (zones.empty()) {
    reason_ =
        fmt::format("{} has no intel-rapl:* zones: no RAPL domains on this machine", root.string());
    return;
  }
  std::string first_error;
  for (const auto& zone : zones) {
    int err = 0;
    auto energy = read_line(zone / "energy_uj", err);
    if (!energy) {
      if (first_error.empty())
        first_error =
            fmt::format("cannot read {}: {}{}", (zone / "energy_uj").string(), std::strerror(err),
                        err == EACCES ? " (energy_uj is root-only since Linux 5.10)" : "");
      continue;
    }
    PowercapDomain d;
    d.id = zone.filename().string();
    d.name = read_line(zone / "name", err).value_or(d.id);
    d.energy_file = zone / "energy_uj";
    if (auto max = read_line(zone / "max_energy_range_uj", err))
      d.max_energy_range_uj = std::stoull(*max);
    domains_.push_back(d);
  }
  if (domains_.empty()) reason_ = first_error;
}

std::map<std::string, std::uint64_t> PowercapReader::sample() const {
  std::map<std::string, std::uint64_t> out;
  for (const auto& d : domains_) {
    int err = 0;
    if (auto v = read_line(d.energy_file, err)) {
      try {
        out[d.id] = std::stoull(*v);
      } catch (const std::exception&) {
      }
    }
  }
  return out;
}

PowercapCollector::PowercapCollector(fs::path root) : reader_(std::move(root)) {}

Availability PowercapCollector::probe() {
  if (reader_.domains().empty()) return {false, reader_.reason()};
  return {true, ""};
}

void PowercapCollector::start() {
  before_ = reader_.sample();
  t0_ = std::chrono::steady_clock::now();
}

void PowercapCollector::stop() {
  t1_ = std::chrono::steady_clock::now();
  after_ = reader_.sample();
}

std::vector<Metric> PowercapCollector::read() {
  std::vector<Metric> metrics;
  const double seconds = std::chrono::duration<double>(t1_ - t0_).count();
  for (const auto& d : reader_.domains()) {
    auto b = before_.find(d.id), a = after_.find(d.id);
    if (b == before_.end() || a == after_.end()) continue;  // a domain that vanished is not guessed
    const double joules =
        1e-6 * static_cast<double>(energy_delta_uj(b->second, a->second, d.max_energy_range_uj));
    metrics.push_back({"energy." + d.name, joules, "J", MetricSource::counted});
    if (seconds > 0)
      metrics.push_back({"power." + d.name, joules / seconds, "W", MetricSource::derived});
  }
  return metrics;
}

}  // namespace ridgeline
