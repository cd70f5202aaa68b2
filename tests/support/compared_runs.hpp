#pragma once
// Runs built by hand for the comparison (compare, report BASE NEW): one gemm case per call,
// with the times of its repetitions chosen by the test.
#include <string>
#include <vector>

#include "fusion_runs.hpp"

namespace ridgeline::compared_runs {

// One case of `backend` (gemm 256^3, 1 thread) with one iteration row per time (ms); a
// disposition other than passed is an untimed case: one row, no time.
inline void add_case(Run& run, const std::string& backend, const std::vector<double>& ms,
                     Disposition disposition = Disposition::passed) {
  CaseResult r = fusion_runs::make_case(backend, "gemm", "m=256,n=256,k=256", 1, 0);
  r.repetitions = static_cast<std::int64_t>(ms.size());
  r.ridgeline->validation.disposition = disposition;
  if (disposition != Disposition::passed) {
    r.error_occurred = true;
    r.real_time = r.cpu_time = 0;
    run.benchmarks.push_back(r);
    return;
  }
  for (std::size_t i = 0; i < ms.size(); ++i) {
    r.repetition_index = static_cast<std::int64_t>(i);
    r.real_time = r.cpu_time = ms[i];
    run.benchmarks.push_back(r);
  }
}

}  // namespace ridgeline::compared_runs
