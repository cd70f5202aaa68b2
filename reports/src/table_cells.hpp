#pragma once
// The cells every table of the reports is built from (tables.hpp): text, a number with the
// text it is shown as, and the dash of a value there is none of; and a CSV file's number.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/reports/tables.hpp"

namespace ridgeline::reports {

inline TableCell text(std::string s) {
  return {std::move(s), NAN, false, {}, {}, {}};
}
inline TableCell number(double v, std::string s) {
  return {std::move(s), v, false, {}, {}, {}};
}
inline TableCell none() {
  return text("—");
}

// A number a CSV reader can compute with, or nothing: a rejected value is named in the
// reason, never written where a spreadsheet would use it.
inline std::string csv_number(double v) {
  return usable(v) ? fmt::format("{:.6g}", v) : "";
}

}  // namespace ridgeline::reports
