#pragma once
// Step of execute_case: Google Benchmark's runs of one case (a run per repetition and its
// aggregates), collected instead of printed, converted to the case's results: each
// repetition with its time, rate, and its own collector window's readings.
#include <benchmark/benchmark.h>

#include <vector>

#include "ridgeline/kernels/kernel.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

class CollectingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) runs_.push_back(r);
  }
  const std::vector<Run>& runs() const { return runs_; }

 private:
  std::vector<Run> runs_;
};

// What the conversion adds to every run: the case, its kernel, work and validation.
struct TimedCase {
  const CaseSpec& spec;
  const Kernel& kernel;
  const WorkModel& work;
  const Validation& validation;
  std::map<std::string, std::string> notes;
};

std::vector<CaseResult> case_results(const std::vector<benchmark::BenchmarkReporter::Run>& runs,
                                     const TimedCase& timed,
                                     const std::vector<std::vector<Metric>>& windows,
                                     const RunSettings& settings);

}  // namespace ridgeline
