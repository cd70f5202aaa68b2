#pragma once
// Step of execute_case and measure_callable: a prepared, validated kernel timed by Google
// Benchmark, whose function is the timed loop with its collectors and cache flushing
// (timed_loop.hpp), its runs converted to the case's results (benchmark_runs.hpp).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/kernels/kernel.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

struct TimedCaseInput {
  Kernel& kernel;
  const CaseSpec& spec;
  std::vector<MemoryRange> cold_memory;  // what cache=cold flushes before each call
  const WorkModel& work;
  const Validation& validation;
  std::map<std::string, std::string> notes;
  // The results of a call that threw where the case cannot simply be recorded crashed (a
  // collective's ranks must hear it); null: an untimed crashed result.
  std::function<std::vector<CaseResult>(const std::string& why)> crashed;
};

std::vector<CaseResult> time_case(const TimedCaseInput& in,
                                  std::vector<std::unique_ptr<Collector>>& collectors,
                                  const RunSettings& settings);

}  // namespace ridgeline
