#pragma once
// `ridgeline collectors --validate`: each available counter is read around work whose
// count is known (pages touched, a busy loop of known length, a reference GEMM of known
// FLOPs, a counter group's formulas on it) and compared with that count. A counter off by
// more than the check's tolerance is untrusted; runs on this machine record it.
#include <filesystem>
#include <string>
#include <vector>

#include "ridgeline/core/run.hpp"

namespace ridgeline {

struct CollectorCheck {
  std::string collector;  // "perf", "papi", "group:FLOPS_DP", ...
  std::string item;       // what was collected: "perf:page-faults"
  std::string metric;     // the metric compared
  std::string workload;   // the known work, in words
  double expected = 0;
  double counted = 0;
  double tolerance = 0;  // relative: |counted / expected - 1| <= tolerance
  std::string verdict;   // "trusted", "untrusted", "skipped"
  std::string reason;    // why skipped
};

struct CollectorValidation {
  std::string fingerprint;  // the machine's (runner/probe.hpp)
  std::string date;
  std::vector<CollectorCheck> checks;
};

// Runs every check in this process. `groups_arch` selects the counter groups checked.
CollectorValidation validate_collectors();

std::string validation_to_json(const CollectorValidation& v);
CollectorValidation validation_from_json(const std::string& text, const std::string& origin);

// $XDG_CACHE_HOME/ridgeline/validation-<fingerprint>.json
std::filesystem::path validation_cache_path();

// Marks each status whose collector was validated: trusted when every check of it passed,
// untrusted (with the check that failed) otherwise.
void apply_validation(const CollectorValidation& v, std::vector<CollectorStatus>& statuses);

}  // namespace ridgeline
