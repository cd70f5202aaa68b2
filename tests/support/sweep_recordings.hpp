#pragma once
// A recorded bandwidth sweep (tests/fixtures/README.md: columns kernel, threads, working set
// in bytes, bytes per second) read as the detector's points: one kernel at one thread count.
#include <gtest/gtest.h>

#include <fstream>
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

}  // namespace ridgeline::testing_support
