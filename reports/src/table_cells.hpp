#pragma once
// The cells every table of the reports is built from (tables.hpp): text, a number with the
// text it is shown as, and the dash of a value there is none of.
#include <cmath>
#include <string>

#include "ridgeline/reports/tables.hpp"

namespace ridgeline::reports {

inline TableCell text(std::string s) {
  return {std::move(s), NAN, false, {}};
}
inline TableCell number(double v, std::string s) {
  return {std::move(s), v, false, {}};
}
inline TableCell none() {
  return text("—");
}

}  // namespace ridgeline::reports
