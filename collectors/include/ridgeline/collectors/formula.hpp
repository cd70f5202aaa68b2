#pragma once
// Arithmetic over named counts, as counter-group metrics write it: + - * /, unary minus,
// parentheses, numbers (1.0E-06) and names (event aliases, `time`, `iterations`).
#include <map>
#include <string>
#include <vector>

namespace ridgeline {

// The value of `formula` with `values` bound to its names. Throws InputError naming the
// formula on a syntax error or a name without a value; x / 0 is NaN, not an error (a
// counter that stayed at zero is a measurement, not bad input).
double evaluate_formula(const std::string& formula, const std::map<std::string, double>& values);

// The names `formula` reads, in order of first use; throws InputError on a syntax error.
std::vector<std::string> formula_names(const std::string& formula);

}  // namespace ridgeline
