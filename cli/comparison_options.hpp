#pragma once
// The options that set how two runs are judged, as `compare` and `report BASE NEW` take
// them: --threshold, --alpha, --fail-on (docs/compare.md).
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/core/output_file.hpp"

namespace ridgeline::cli {

struct ComparisonOptions {
  std::string threshold = "5%";  // a fraction, or a thresholds file from --calibrate
  double alpha = 0.05;
  std::string fail_on = "regression";
  CLI::Option* given[3] = {};  // the three options, to tell whether any was given
};

// "5%" or "0.05": a fraction in (0, 1); else an InputError naming `option`.
double parse_fraction(const std::string& text, const std::string& option);

// Adds --threshold, --alpha and --fail-on to `sub`.
void add_comparison_options(CLI::App* sub, ComparisonOptions& opt);
// The settings they give; an InputError names the option that is wrong.
ComparisonSettings comparison_settings(const ComparisonOptions& opt);
FailOn fail_on(const ComparisonOptions& opt);
// --threshold's file, where it names one (an input the outputs must not overwrite).
std::vector<NamedFile> threshold_inputs(const ComparisonOptions& opt);
// The first of them given on the command line, or "".
std::string first_given(const ComparisonOptions& opt);

}  // namespace ridgeline::cli
