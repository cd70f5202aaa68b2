#pragma once
// Numeric options are refused before any work when they are not finite or out of range,
// with one line that says the range (CLI11's own range check prints the largest double).
#include <CLI/CLI.hpp>
#include <string>

namespace ridgeline::cli {

// A finite number in [lo, hi] (`lo` excluded when `lo_open`); `unit` names what it counts.
CLI::Validator finite_between(double lo, double hi, const std::string& unit, bool lo_open = false);

}  // namespace ridgeline::cli
