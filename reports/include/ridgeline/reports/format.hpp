#pragma once
// Number formatting shared by the report views. Fixed notation below a million (in the
// unit shown), an exponent above, so no value prints as hundreds of digits.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "ridgeline/analysis/duration_text.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline::reports {

inline std::string fixed(double v, int decimals) {
  return std::fabs(v) < 1e6 ? fmt::format("{:.{}f}", v, decimals) : fmt::format("{:.4g}", v);
}
inline std::string gflops(double flops_per_s) {
  return fixed(flops_per_s / 1e9, 2);
}
inline std::string gbytes(double bytes_per_s) {
  return fixed(bytes_per_s / 1e9, 1);
}
inline std::string percent(double x) {
  return fixed(100 * x, 0) + "%";
}
inline std::string intensity(double ai) {
  return ai >= 10 ? fixed(ai, 1) : fmt::format("{:.3g}", ai);
}
// "12.3 GFLOP/s" with an SI prefix fit for the value.
std::string si_rate(double value, const std::string& unit);
// An energy per call: "1.23 mJ", "45.6 µJ", "2.1 J".
inline std::string energy(double joules) {
  if (joules >= 1) return fmt::format("{:.3g} J", joules);
  if (joules >= 1e-3) return fmt::format("{:.3g} mJ", joules * 1e3);
  return fmt::format("{:.3g} µJ", joules * 1e6);
}

// A count of FLOPs: "80 kFLOP", "1.6 MFLOP", "2.15 GFLOP".
inline std::string flop_count(double flops) {
  if (flops >= 1e12) return fmt::format("{:.3g} TFLOP", flops / 1e12);
  if (flops >= 1e9) return fmt::format("{:.3g} GFLOP", flops / 1e9);
  if (flops >= 1e6) return fmt::format("{:.3g} MFLOP", flops / 1e6);
  if (flops >= 1e3) return fmt::format("{:.3g} kFLOP", flops / 1e3);
  return fmt::format("{:.3g} FLOP", flops);
}

// A time per call: "12.3 ms", "850 µs", "2.41 s".
inline std::string duration(double seconds) {
  return duration_text(seconds);
}
// A case's repetitions: "1.02 ms … 1.10 ms, cv 3.1%, n 5"; "1 repetition"; "—" without any.
inline std::string spread(const RepetitionSamples& r) {
  if (r.seconds.empty()) return "—";
  if (r.seconds.size() == 1) return "1 repetition";
  return fmt::format("{} … {}, cv {:.1f}%, n {}", duration(r.min), duration(r.max), 100 * r.cv,
                     r.seconds.size());
}
// A ratio: "4.00×".
inline std::string times(double ratio) {
  return fixed(ratio, 2) + "×";
}

// The footer line: the Ridgeline that wrote the report, and the one that wrote the run
// (or that the run is a foreign Google Benchmark file).
std::string version_line(const ReportInput& input);

}  // namespace ridgeline::reports
