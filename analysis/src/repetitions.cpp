#include "ridgeline/analysis/repetitions.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ridgeline {

RepetitionSamples summarize_repetitions(std::vector<double> seconds) {
  RepetitionSamples s;
  s.seconds = std::move(seconds);
  if (s.seconds.empty()) return s;
  std::vector<double> sorted = s.seconds;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (n < 2) return s;
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
  double squares = 0;
  for (double x : sorted) squares += (x - mean) * (x - mean);
  s.cv = std::sqrt(squares / static_cast<double>(n - 1)) / mean;
  return s;
}

}  // namespace ridgeline
