#include "foreign_time_base.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "ridgeline/analysis/usable.hpp"

namespace ridgeline::detail {

namespace {

// "v1.9.5", "v1.9.4-12-gabcdef" or "1.9.5" -> {1, 9, 5}; {0, 0, 0} when unreadable.
std::array<int, 3> version_of(const std::string& text) {
  std::array<int, 3> v{0, 0, 0};
  std::size_t i = text.find_first_of("0123456789");
  for (std::size_t part = 0; part < 3 && i < text.size(); ++part) {
    int n = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
      n = std::min(n * 10 + (text[i] - '0'), 99999);
    v[part] = n;
    if (i >= text.size() || text[i] != '.') break;
    ++i;
  }
  return v;
}

// Google Benchmark names a benchmark's time type as a component of its name.
std::string time_type(const std::string& run_name) {
  std::size_t start = 0;
  while (start <= run_name.size()) {
    std::size_t end = run_name.find('/', start);
    if (end == std::string::npos) end = run_name.size();
    const std::string part = run_name.substr(start, end - start);
    if (part == "real_time" || part == "manual_time") return part;
    start = end + 1;
  }
  return "cpu_time";
}

}  // namespace

double to_seconds(double value, const std::string& unit) {
  if (unit == "ns") return value * 1e-9;
  if (unit == "us") return value * 1e-6;
  if (unit == "ms") return value * 1e-3;
  return value;
}

ForeignTimeBase foreign_time_base(const RunContext& context, const CaseResult& r) {
  ForeignTimeBase b;
  const std::string type = time_type(r.run_name.empty() ? r.name : r.run_name);
  const double real = to_seconds(r.real_time, r.time_unit);
  const double cpu = to_seconds(r.cpu_time, r.time_unit);
  const double base = type == "cpu_time" ? cpu : real;
  // Finite, positive and normal (usable.hpp): a subnormal time is no measurement either.
  if (!usable(real) || !usable(base)) {
    b.problem = fmt::format("no usable time (real_time {}, cpu_time {} {}): not measured",
                            r.real_time, r.cpu_time, r.time_unit);
    return b;
  }
  const auto v = version_of(context.library_version);
  const bool known = !context.library_version.empty() && v[0] > 0;
  const bool summed_times = known && (v[0] > 1 || (v[0] == 1 && v[1] >= 9));
  const bool rates_per_thread_time =
      known && (v[0] > 1 || (v[0] == 1 && (v[1] > 9 || (v[1] == 9 && v[2] >= 5))));
  const double threads = static_cast<double>(std::max<std::int64_t>(1, r.threads));
  const double k_rate = rates_per_thread_time ? 1 / threads : 1;
  const double k_real = summed_times ? 1 / threads : 1;
  b.per_call = base * k_rate;
  b.per_wall_second = base * k_rate / (real * k_real);
  b.seconds_per_call = real * threads * k_real;

  const std::string version =
      context.library_version.empty()
          ? std::string("Google Benchmark before 1.9 (no library_version)")
          : (known ? "Google Benchmark " : "Google Benchmark of unreadable version ") +
                context.library_version;
  const char* base_label = type == "cpu_time"    ? "CPU time"
                           : type == "real_time" ? "real time"
                                                 : "manual time";
  std::string over = base_label;
  if (threads > 1) {
    if (type == "cpu_time" || summed_times)
      over += fmt::format(" summed over its {:.0f} threads", threads);
    if (rates_per_thread_time) over += fmt::format(" ÷ {:.0f}", threads);
  }
  b.note = fmt::format(
      "{}: rate counters per second of {}; per call (one iteration{}) and per second of wall "
      "time derived from them and the times",
      version, over, threads > 1 ? " of one thread" : "");
  return b;
}

}  // namespace ridgeline::detail
