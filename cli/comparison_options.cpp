#include "comparison_options.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "ridgeline/analysis/calibration.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/thresholds.hpp"

namespace ridgeline::cli {

double parse_fraction(const std::string& text, const std::string& option) {
  const bool pct = !text.empty() && text.back() == '%';
  const std::string number = pct ? text.substr(0, text.size() - 1) : text;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (pct) v /= 100;
  if (used == 0 || used != number.size() || !(v > 0 && v < 1))
    throw InputError(
        fmt::format("{}: '{}' is not a fraction between 0 and 1 (write 5% or 0.05)", option, text));
  return v;
}

void add_comparison_options(CLI::App* sub, ComparisonOptions& opt) {
  opt.given[0] = sub->add_option("--threshold", opt.threshold,
                                 "Smallest change that counts, as 5% or 0.05 (default 5%), or a "
                                 "file written by compare --calibrate (a threshold per case)");
  opt.given[1] = sub->add_option(
      "--alpha", opt.alpha,
      "Family-wise significance level over all cases, Holm-corrected (default 0.05)");
  opt.given[2] =
      sub->add_option("--fail-on", opt.fail_on,
                      "regression (regressions and broken validation; the default), inconclusive "
                      "(also cases that could not be decided) or change (also improvements, "
                      "added and removed cases)")
          ->check(CLI::IsMember({"regression", "inconclusive", "change"}));
}

namespace {
bool threshold_is_file(const ComparisonOptions& opt) {
  return opt.threshold.ends_with(".json") || std::filesystem::is_regular_file(opt.threshold);
}
}  // namespace

std::vector<NamedFile> threshold_inputs(const ComparisonOptions& opt) {
  if (!threshold_is_file(opt)) return {};
  return {{"--threshold", opt.threshold}};
}

ComparisonSettings comparison_settings(const ComparisonOptions& opt) {
  ComparisonSettings settings;
  if (threshold_is_file(opt))
    apply_thresholds(read_thresholds_file(opt.threshold), settings);
  else
    settings.threshold = parse_fraction(opt.threshold, "--threshold");
  if (!(opt.alpha > 0 && opt.alpha < 1))
    throw InputError(fmt::format("--alpha: {} is not between 0 and 1", opt.alpha));
  settings.alpha = opt.alpha;
  return settings;
}

FailOn fail_on(const ComparisonOptions& opt) {
  if (const auto on = parse_fail_on(opt.fail_on)) return *on;
  throw InputError(
      fmt::format("--fail-on: '{}' is not regression, inconclusive or change", opt.fail_on));
}

std::string first_given(const ComparisonOptions& opt) {
  for (const CLI::Option* o : opt.given)
    if (o && o->count() > 0) return o->get_name();
  return "";
}

}  // namespace ridgeline::cli
