#pragma once
// Sweeps for the memory-level detectors' tests: a recorded bandwidth sweep
// (tests/fixtures/README.md: columns kernel, threads, working set in bytes, bytes per second)
// read as the detector's points, and synthetic sweeps with known levels and noise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ridgeline/analysis/memory_levels.hpp"

namespace ridgeline::testing_support {

inline std::vector<SweepPoint> recorded_sweep(const std::string& file, const std::string& kernel,
                                              int threads) {
  std::ifstream in(std::string(RIDGELINE_FIXTURES) + "/" + file);
  EXPECT_TRUE(in.good()) << file;
  std::string line;
  std::getline(in, line);  // header
  std::vector<SweepPoint> out;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string k, t, ws, rate;
    std::getline(row, k, ',');
    std::getline(row, t, ',');
    std::getline(row, ws, ',');
    std::getline(row, rate, ',');
    if (k == kernel && std::stoi(t) == threads) out.push_back({std::stoll(ws), std::stod(rate)});
  }
  return out;
}

inline constexpr std::int64_t kKiB = 1024;

struct Level {
  double gb_per_s;
  std::int64_t capacity;  // the last level's is ignored
  // From this working set to the capacity the rate falls linearly in log size to soft_to x
  // its own (a VM's share of a shared L3 ending); 0: flat to the step.
  std::int64_t soft_from = 0;
  double soft_to = 1;
};

struct Noise {
  double sigma = 0.05;       // per point and pass, multiplicative
  double busy_share = 0.04;  // points a busy host slows
  double busy_factor = 0.7;  // by this much
};

// Three points per octave from 4 KiB to `to`; each level's rate to its capacity,
// one point halfway (in log rate) into the next level.
inline std::vector<SweepPoint> synthetic_pass(const std::vector<Level>& levels, const Noise& noise,
                                              std::mt19937& gen, std::int64_t to) {
  std::normal_distribution<double> dist(0.0, noise.sigma);
  std::uniform_real_distribution<double> busy(0, 1);
  std::vector<SweepPoint> out;
  for (int k = 0;; ++k) {
    const auto ws = static_cast<std::int64_t>(std::llround(4 * kKiB * std::pow(2.0, k / 3.0)));
    if (ws > to) break;
    std::size_t l = 0;
    while (l + 1 < levels.size() && ws > levels[l].capacity) ++l;
    double rate = levels[l].gb_per_s;
    if (levels[l].soft_from > 0 && ws > levels[l].soft_from)
      rate *= std::pow(levels[l].soft_to,
                       std::log(double(ws) / double(levels[l].soft_from)) /
                           std::log(double(levels[l].capacity) / double(levels[l].soft_from)));
    if (l > 0 && ws <= levels[l - 1].capacity * std::pow(2.0, 1 / 3.0))
      rate = std::sqrt(levels[l - 1].gb_per_s * levels[l].gb_per_s);
    double factor = std::exp(dist(gen));
    // No draw for a host that is never busy: the same noise as a plain normal sequence.
    if (noise.busy_share > 0 && busy(gen) < noise.busy_share) factor *= noise.busy_factor;
    out.push_back({ws, rate * 1e9 * factor});
  }
  return out;
}

}  // namespace ridgeline::testing_support
