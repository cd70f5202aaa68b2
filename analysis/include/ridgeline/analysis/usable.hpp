#pragma once
// The numbers that may be placed on a roofline and drawn: finite, positive and normal.
// Zero, negative, subnormal, infinite and NaN values from a document never become a point,
// a roof or an axis; they become a labelled outcome (a reason, a note) instead.
#include <cmath>
#include <string>

namespace ridgeline {

inline bool usable(double value) {
  return std::isnormal(value) && value > 0;
}

// The value as a message shows it: "0", "-1.5", "NaN", "infinity", "4.9e-324 (subnormal)".
std::string describe_number(double value);

// Why `value` is not usable, as a phrase: "is 0", "is negative (-1)", "is NaN", ...;
// empty when it is usable.
std::string unusable_because(double value);

}  // namespace ridgeline
