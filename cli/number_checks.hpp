#pragma once
// Numeric options are refused before any work when they are not finite or out of range,
// with one line that says the range (CLI11's own range check prints the largest double).
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace ridgeline::cli {

// A finite number in [lo, hi] (`lo` excluded when `lo_open`); `unit` names what it counts.
CLI::Validator finite_between(double lo, double hi, const std::string& unit, bool lo_open = false);

// Google Benchmark's --benchmark_min_time forms: "0.5" or "0.5s" (seconds per repetition),
// "100x" (a fixed number of iterations). Throws InputError naming `option`.
struct MinTime {
  std::optional<double> seconds;
  std::optional<long long> iterations;
};
MinTime parse_min_time(const std::string& text, const std::string& option);

}  // namespace ridgeline::cli
