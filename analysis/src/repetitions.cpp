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
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
  if (n < 2) return s;
  double squares = 0;
  for (double x : sorted) squares += (x - s.mean) * (x - s.mean);
  s.stddev = std::sqrt(squares / static_cast<double>(n - 1));
  s.cv = s.stddev / s.mean;
  return s;
}

}  // namespace ridgeline
