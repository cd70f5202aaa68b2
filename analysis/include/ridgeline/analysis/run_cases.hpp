#pragma once
// A run reduced to what placing its cases needs: each case's chosen row (its median
// aggregate, else its first iteration, else its mean; a Complexity() fit stands for
// itself) and, of every timed repetition, its time and perf's counts. Built from a Run in
// memory or row by row while a file is read (read_run_rows), so a run of 100,000 rows is
// placed and compared without holding them: `compare` of two such runs keeps two cases'
// worth of rows, not two runs'.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ridgeline/analysis/noise.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

class RunCases {
 public:
  struct Case {
    std::string key;                             // the rows' run_name (a fit's own name)
    std::optional<CaseResult> chosen{};          // none: only rows that cannot stand for it
    std::vector<double> seconds{};               // per call, of each usable timed row of ours
    std::vector<RepetitionCounters> counters{};  // of each timed iteration row of ours
    // Foreign timed rows, kept whole: their time per call depends on the context, which
    // a file may hold after its rows.
    std::vector<CaseResult> foreign_rows{};
  };

  // Rows in the file's order; a row is copied (or moved) only when it stands for its case.
  void add(const CaseResult& row);
  void add(CaseResult&& row);
  // Another run's cases added as if its rows followed these (compare --history's pooled
  // baseline): samples and counts appended, the standing row chosen by the same rule.
  void pool(const RunCases& other);
  const std::vector<Case>& cases() const { return cases_; }

  RunContext context;

 private:
  // The row's case, its times and counts recorded; whether the row now stands for it.
  Case& record(const CaseResult& row, bool& stands);
  Case& case_of(const std::string& key);
  std::vector<Case> cases_;
  std::unordered_map<std::string, std::size_t> index_;
};

// Google Benchmark's Complexity() fit over sizes (a BigO or RMS aggregate): no measurement.
bool is_complexity_fit(const CaseResult& row);

RunCases run_cases(const Run& run);
// A run file (read_run_file's kinds) read row by row into its cases.
RunCases read_run_cases(const std::filesystem::path& file);
// Several, read side by side (as many at once as there are CPUs): the error of the first
// bad file in the given order is the one thrown, as reading them one after another would.
std::vector<RunCases> read_run_cases(const std::vector<std::filesystem::path>& files);
// The same, keeping the files that read as runs: each that does not is left out, with its
// error in `skipped` (file, then the reason).
std::vector<RunCases> read_run_cases_skipping(
    const std::vector<std::filesystem::path>& files,
    std::vector<std::pair<std::filesystem::path, std::string>>& skipped);

// place_results over the cases.
std::vector<RooflinePlacement> place_cases(const RunCases& cases, const MachineModel* machine);

}  // namespace ridgeline
