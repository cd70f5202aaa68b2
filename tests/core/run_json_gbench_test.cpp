// Run files that Google Benchmark itself wrote (recorded fixtures of 1.7.1, 1.9.4 and
// 1.9.5, with rate counters, fits, errors, skips and control characters in names).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
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

TEST(GoogleBenchmarkFiles, RowsOfNoIterationsOrImpossibleThreadCountsAreRefusedNamingTheRow) {
  // A timed row of 0 or -1 iterations measured nothing; 10^9 threads would show its 100 ns
  // as 100 s per call. Each is one line naming the row and the field.
  const nlohmann::json j = read_json_file(fs::path(RIDGELINE_FIXTURES) / "gbench-1.9.5-rates.json");
  std::size_t timed = 0;
  while (j["benchmarks"][timed].value("error_occurred", false) ||
         j["benchmarks"][timed].value("skipped", false))
    ++timed;
  const std::string row = "benchmarks[" + std::to_string(timed) + "]";
  for (const auto& [key, value, expected] :
       std::vector<std::tuple<std::string, nlohmann::json, std::string>>{
           {"iterations", 0, "in.json: " + row + ".iterations: 0 iterations: a timed row needs"},
           {"iterations", -1, "in.json: " + row + ".iterations: -1 iterations: a timed row needs"},
           {"threads", 1000000000,
            "in.json: " + row + ".threads: 1000000000 threads: expected 1 to 65536"},
           {"threads", 0, "in.json: " + row + ".threads: 0 threads: expected 1 to 65536"}}) {
    SCOPED_TRACE(key + "=" + value.dump());
    nlohmann::json bad = j;
    bad["benchmarks"][timed][key] = value;
    try {
      run_from_json(bad, "in.json");
      ADD_FAILURE() << "read";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(expected, 0), 0u) << e.what();
    }
  }
  // An errored row may have no iterations: read as before.
  nlohmann::json errored = j;
  errored["benchmarks"][timed]["iterations"] = 0;
  errored["benchmarks"][timed]["error_occurred"] = true;
  EXPECT_NO_THROW(run_from_json(errored, "in.json"));
}

}  // namespace ridgeline
