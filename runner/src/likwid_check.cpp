#include "likwid_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "ridgeline/core/child_process.hpp"

namespace ridgeline {

std::string likwid_test_for(const std::string& kernel, const std::string& isa) {
  const std::string base = kernel == "read"    ? "load"
                           : kernel == "write" ? "store"
                           : kernel == "copy"  ? "copy"
                           : kernel == "triad" ? "triad"
                                               : "";
  if (base.empty()) return "";
  if (isa == "avx2") return base + "_avx";
  if (isa == "avx512") return base + "_avx512";
  return base;
}

std::optional<double> likwid_bench_bytes_per_s(const std::string& output) {
  constexpr std::string_view kKey = "MByte/s:";
  for (std::size_t at = 0; at < output.size();) {
    const std::size_t end = std::min(output.find('\n', at), output.size());
    const std::string_view line(output.data() + at, end - at);
    if (line.substr(0, kKey.size()) == kKey) {
      const std::string value(line.substr(kKey.size()));
      char* stop = nullptr;
      const double v = std::strtod(value.c_str(), &stop) * 1e6;
      if (stop != value.c_str() && std::isfinite(v) && v > 0) return v;
      return std::nullopt;
    }
    at = end + 1;
  }
  return std::nullopt;
}

std::int64_t likwid_check_working_set(std::int64_t ceiling_bytes, double bytes_per_s,
                                      std::int64_t plateau_last_bytes) {
  const auto shortest = static_cast<std::int64_t>(std::ceil(bytes_per_s * kMinLikwidSweepSeconds));
  if (shortest <= ceiling_bytes) return ceiling_bytes;
  return std::max(ceiling_bytes, std::min(shortest, plateau_last_bytes));
}

std::optional<CeilingCheck> check_with_likwid_bench(const MemoryCeiling& c,
                                                    std::int64_t working_set_bytes, double seconds,
                                                    int trials, std::string& why,
                                                    const std::function<double()>& measure_ours) {
#if !defined(__x86_64__)
  // Debian 12 builds LIKWID for amd64 alone, and its Arm tests (load_sve, ...) are not mapped
  // here; a likwid-bench on PATH beside an arm64 build under qemu-user is the x86 host's.
  (void)c, (void)working_set_bytes, (void)seconds, (void)trials, (void)measure_ours;
  why =
      "likwid-bench is not checked against on AArch64 yet (Debian 12 packages LIKWID for "
      "amd64 alone)";
  return std::nullopt;
#endif
  const std::string bench = find_on_path("likwid-bench");
  if (bench.empty()) {
    why =
        "likwid-bench is not on PATH (Debian: apt-get install likwid; scripts/install-deps "
        "does)";
    return std::nullopt;
  }
  const std::string test = likwid_test_for(c.kernel, c.isa);
  if (test.empty() || working_set_bytes <= 0 || c.bytes_per_s <= 0) {
    why = fmt::format("likwid-bench has no test for {} at {}", c.kernel, c.isa);
    return std::nullopt;
  }
  // Iterations per thread: each sweeps the thread's share of the working set, so one takes
  // working set / rate whatever the thread count.
  const auto iterations = std::max<std::int64_t>(
      10, std::llround(seconds * c.bytes_per_s / static_cast<double>(working_set_bytes)));
  const std::vector<std::string> argv{bench,
                                      "-t",
                                      test,
                                      "-W",
                                      fmt::format("N:{}B:{}", working_set_bytes, c.threads),
                                      "-i",
                                      std::to_string(iterations)};
  double best = 0, ours_again = 0;
  for (int t = 0; t < std::max(1, trials); ++t) {
    if (measure_ours) ours_again = std::max(ours_again, measure_ours());
    const auto run = run_program(argv, why);
    if (!run) return std::nullopt;
    const auto rate = likwid_bench_bytes_per_s(run->output);
    if (run->exit_status != 0 || !rate) {
      std::string tail =
          run->output.substr(run->output.size() > 300 ? run->output.size() - 300 : 0);
      std::replace(tail.begin(), tail.end(), '\n', ' ');
      why = fmt::format("likwid-bench -t {} exited with {}{}: {}", test, run->exit_status,
                        rate ? "" : " and printed no MByte/s line", tail);
      return std::nullopt;
    }
    best = std::max(best, *rate);
  }
  double ours = c.bytes_per_s;  // the rate at the same width as the test
  for (const auto& [isa, rate] : c.widths)
    if (isa == c.isa) ours = rate;
  if (measure_ours && ours_again > 0) ours = ours_again;
  return CeilingCheck{"likwid-bench", test, best, working_set_bytes, ours / best};
}

}  // namespace ridgeline
