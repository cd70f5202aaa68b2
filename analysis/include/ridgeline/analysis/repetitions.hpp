#pragma once
// The timed repetitions of one case, kept beside its placement: a reader (a report, the
// coming `compare`) sees the spread, not only the median.
#include <map>
#include <string>
#include <vector>

#include "ridgeline/core/run.hpp"

namespace ridgeline {

struct RepetitionSamples {
  std::vector<double> seconds;  // per call, one per repetition, in the file's order
  double min = 0;
  double median = 0;
  double max = 0;
  double mean = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 with fewer than two samples
  // stddev over the mean (as Google Benchmark's cv aggregate); 0 with fewer than two samples.
  double cv = 0;
};

// The summary of `seconds` (each finite and positive; the caller leaves the others out).
RepetitionSamples summarize_repetitions(std::vector<double> seconds);

}  // namespace ridgeline
