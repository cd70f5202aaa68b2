#include "ridgeline/analysis/run_cases.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "foreign_time_base.hpp"
#include "ridgeline/analysis/side_by_side.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

namespace {

// Which row stands for its case: the median aggregate over the first iteration over the
// mean; other aggregates (stddev, cv) never.
int rank(const CaseResult& r) {
  if (r.run_type != "aggregate") return 2;
  if (r.aggregate_name == "median") return 3;
  if (r.aggregate_name == "mean") return 1;
  return 0;
}

// Whether `row` takes the place of the case's standing row (none: `current` is null).
bool stands_over(const CaseResult& row, const CaseResult* current) {
  return is_complexity_fit(row) || (rank(row) > 0 && (!current || rank(row) > rank(*current)));
}

}  // namespace

bool is_complexity_fit(const CaseResult& r) {
  return r.run_type == "aggregate" && (r.aggregate_name == "BigO" || r.aggregate_name == "RMS");
}

RunCases::Case& RunCases::case_of(const std::string& key) {
  auto [at, added] = index_.try_emplace(key, cases_.size());
  if (added) cases_.push_back({key});
  return cases_[at->second];
}

RunCases::Case& RunCases::record(const CaseResult& row, bool& stands) {
  Case& c = case_of(is_complexity_fit(row) || row.run_name.empty() ? row.name : row.run_name);
  if (row.run_type != "aggregate" && !row.error_occurred && !row.skipped) {
    if (!row.ridgeline) {
      c.foreign_rows.push_back(row);
    } else {
      const double seconds = detail::to_seconds(row.real_time, row.time_unit);
      if (usable(seconds)) c.seconds.push_back(seconds);
      c.counters.push_back(repetition_counters(row));
    }
  }
  stands = stands_over(row, c.chosen ? &*c.chosen : nullptr);
  return c;
}

void RunCases::pool(const RunCases& other) {
  for (const Case& o : other.cases_) {
    Case& c = case_of(o.key);
    c.seconds.insert(c.seconds.end(), o.seconds.begin(), o.seconds.end());
    c.counters.insert(c.counters.end(), o.counters.begin(), o.counters.end());
    c.foreign_rows.insert(c.foreign_rows.end(), o.foreign_rows.begin(), o.foreign_rows.end());
    if (o.chosen && stands_over(*o.chosen, c.chosen ? &*c.chosen : nullptr)) c.chosen = o.chosen;
  }
}

void RunCases::add(const CaseResult& row) {
  bool stands = false;
  Case& c = record(row, stands);
  if (stands) c.chosen = row;
}

void RunCases::add(CaseResult&& row) {
  bool stands = false;
  Case& c = record(row, stands);
  if (stands) c.chosen = std::move(row);
}

RunCases read_run_cases(const std::filesystem::path& file) {
  RunCases cases;
  cases.context = read_run_file(file, [&](CaseResult&& row) { cases.add(std::move(row)); }).context;
  return cases;
}

namespace {
// Each file read into out[i], side by side; errors[i] keeps what reading file i threw.
void read_each(const std::vector<std::filesystem::path>& files, std::vector<RunCases>& out,
               std::vector<std::exception_ptr>& errors) {
  out.assign(files.size(), {});
  errors = side_by_side(files.size(), [&](std::size_t i) { out[i] = read_run_cases(files[i]); });
}
}  // namespace

std::vector<RunCases> read_run_cases(const std::vector<std::filesystem::path>& files) {
  std::vector<RunCases> out;
  std::vector<std::exception_ptr> errors;
  read_each(files, out, errors);
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

std::vector<RunCases> read_run_cases_skipping(
    const std::vector<std::filesystem::path>& files,
    std::vector<std::pair<std::filesystem::path, std::string>>& skipped) {
  std::vector<RunCases> read;
  std::vector<std::exception_ptr> errors;
  read_each(files, read, errors);
  std::vector<RunCases> out;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!errors[i]) {
      out.push_back(std::move(read[i]));
      continue;
    }
    try {
      std::rethrow_exception(errors[i]);
    } catch (const InputError& e) {  // not a run: left out; anything else is a fault
      skipped.emplace_back(files[i], e.what());
    }
  }
  return out;
}

RunCases run_cases(const Run& run) {
  RunCases cases;
  cases.context = run.context;
  for (const auto& row : run.benchmarks) cases.add(row);
  return cases;
}

}  // namespace ridgeline
