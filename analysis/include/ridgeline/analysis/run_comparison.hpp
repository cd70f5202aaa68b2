#pragma once
// Two runs of the same suite, case by case: a verdict per case from the rank statistics
// (rank_tests.hpp) over their repetitions, the gate `ridgeline compare` exits on, and the
// cases only one run has. docs/compare.md is the contract.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridgeline/analysis/run_cases.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

// What identifies a case across runs: its fields, not its name. A foreign Google Benchmark
// result has only its name.
struct CaseKey {
  std::string op, backend;
  Device device = Device::cpu;
  std::string dtype, params, pattern, fp_env;
  int threads = 1;
  std::string foreign_name;             // set only for foreign results
  CacheState cache = CacheState::warm;  // a field only when cold (runs before it were warm)
  auto operator<=>(const CaseKey&) const = default;
};

enum class Verdict {
  regression,    // significant, and the whole interval is slower than the threshold
  improvement,   // significant, and the whole interval is faster than the threshold
  same,          // the interval lies within ±threshold (equivalence)
  inconclusive,  // anything else; the reason says what would settle it
  broken,        // validation got worse (passed -> incorrect, crashed, timed_out...)
};
std::string_view to_string(Verdict verdict);

struct RooflinePlacement;
// A placed case's key.
CaseKey case_key(const RooflinePlacement& placement);

// The key's fields by name, as the JSON output and the thresholds file write them.
std::map<std::string, std::string> key_fields(const CaseKey& key);
CaseKey key_from_fields(const std::map<std::string, std::string>& fields);

struct ComparisonSettings {
  double threshold = 0.05;                    // a change smaller than this fraction is no change
  double alpha = 0.05;                        // family-wise, over every case compared (Holm)
  std::map<CaseKey, double> case_thresholds;  // from compare --calibrate; else `threshold`
  double threshold_for(const CaseKey& key) const;
};

struct CaseComparison {
  CaseKey key;
  std::string name;  // the new run's name for the case
  // Seconds per call per repetition; across machines, seconds over the case's roof time
  // (1 / efficiency), so that both read "larger is slower".
  std::vector<double> base, head;
  Disposition base_disposition = Disposition::passed, head_disposition = Disposition::passed;
  double ratio = 0;          // head / base (Hodges–Lehmann on the logarithms); 0 where not tested
  double low = 0, high = 0;  // its interval, at `confidence`
  double confidence = 0;
  double p = 1, p_holm = 1;  // Mann–Whitney two-sided, and after Holm over all tested cases
  double smallest_p = 0;     // the smallest p these sample sizes can reach
  bool tested = false;
  Verdict verdict = Verdict::inconclusive;
  std::string reason;  // why this verdict, in words (for inconclusive: what would settle it)
  std::vector<std::string> noise;  // "base: ..." / "new: ...": each side's timing_noise reasons
};

struct RunComparison {
  ComparisonSettings settings;
  // "time" (seconds per call), or "efficiency" where the runs come from different machines.
  std::string basis = "time";
  std::vector<std::string> notes;  // how the runs were matched and compared
  std::vector<CaseComparison> cases;
  std::vector<std::string> added, removed;  // names of cases only in the new / base run
  int tested = 0;                           // the family Holm corrected over
  double geomean_ratio = 0;                 // over the tested cases; 0 where none
};

RunComparison compare_runs(const RunCases& base, const RunCases& head,
                           const ComparisonSettings& settings);
RunComparison compare_runs(const Run& base, const Run& head, const ComparisonSettings& settings);

// Where each compared case is among two runs' placements held in one vector, the base run's
// first (`base_count` of them): the first placement with the case's key on each side, as
// compare_runs matches them; nullopt where a side has none.
struct CasePlacements {
  std::optional<std::size_t> base, head;
};
std::vector<CasePlacements> case_placements(const std::vector<RooflinePlacement>& placements,
                                            std::size_t base_count,
                                            const std::vector<CaseComparison>& cases);
// The tested cases' verdicts (and the settings) again under other thresholds: the statistics
// do not depend on them, so nothing is measured or tested twice (compare --calibrate).
void judge(RunComparison& comparison, const ComparisonSettings& settings);

// The gate: which verdicts fail the comparison. Improvements fail only under `change`.
enum class FailOn { regression, inconclusive, change };
std::optional<FailOn> parse_fail_on(std::string_view text);
bool fails(const CaseComparison& c, FailOn on);
// Also true where no case is in both runs (nothing compared is not a pass) unless
// `allow_empty` (compare --allow-empty).
bool gate_fails(const RunComparison& comparison, FailOn on, bool allow_empty = false);

}  // namespace ridgeline
