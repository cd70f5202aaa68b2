// Run files that Google Benchmark itself wrote (recorded fixtures of 1.7.1, 1.9.4 and
// 1.9.5, with rate counters, fits, errors, skips and control characters in names).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

TEST(GoogleBenchmarkFiles, ReadsWhatGoogleBenchmarkWrites) {
  for (const char* file :
       {"gbench-1.7.1-rates.json", "gbench-1.9.4-rates.json", "gbench-1.9.5-rates.json"}) {
    const ridgeline::Run run = read_run_file(fs::path(RIDGELINE_FIXTURES) / file);
    SCOPED_TRACE(file);
    EXPECT_EQ(run.context.library_version.empty(),
              std::string(file).find("1.7.1") != std::string::npos);
    int non_finite = 0, fits = 0, errors = 0, skipped = 0, control = 0;
    for (const auto& r : run.benchmarks) {
      for (const auto& [name, value] : r.counters) non_finite += !std::isfinite(value);
      if (r.aggregate_name == "BigO" || r.aggregate_name == "RMS") {
        ++fits;
        EXPECT_TRUE(std::isnan(r.real_time)) << r.name << ": a fit has no time";
        EXPECT_FALSE(r.counters.count("rms") || r.counters.count("cpu_coefficient"))
            << "Google Benchmark's own keys are not user counters";
      }
      errors += r.error_occurred;
      if (r.skipped) {
        ++skipped;
        EXPECT_EQ(r.skip_message, "needs AVX-512 VNNI");
      }
      control += r.name.find('\x01') != std::string::npos;
    }
    EXPECT_GT(non_finite, 0) << "Infinity and NaN counters kept as such";
    EXPECT_EQ(fits, 2);
    EXPECT_EQ(errors, 3);
    EXPECT_EQ(skipped, std::string(file).find("1.9") != std::string::npos ? 3 : 0);
    EXPECT_GT(control, 0);
  }
}

}  // namespace ridgeline
