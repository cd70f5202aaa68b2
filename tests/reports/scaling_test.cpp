// A large file costs time in proportion to its size: no step of analysis or of a report
// writer may compare every result with every other (a hostile file of 100 000 cases
// must not take hours).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {

namespace {

ridgeline::Run many_cases(int n) {
  ridgeline::Run run;
  for (int i = 0; i < n; ++i) {
    CaseResult r;
    // Every case its own backend, shape and pattern: nothing to share a row or a colour.
    const std::int64_t size = 8 + i;
    CaseDetails d;
    d.backend = fmt::format("{}{}", i % 2 ? "blas.lib" : "cpu.k", i);
    d.problem =
        gemm_problem({size, size, 16, 1}, Layout::NN, DType::f64, fmt::format("p{}", i % 97));
    d.work = op_work(d.problem);
    d.validation.disposition = Disposition::passed;
    d.metrics = {{"flop_rate", 1e9 + i, "FLOP/s", MetricSource::derived}};
    r.ridgeline = d;
    r.name = r.run_name = fmt::format("case{}", i);
    r.iterations = 10;
    r.real_time = 1e-3 * (1 + i % 7);
    run.benchmarks.push_back(r);
  }
  return run;
}

double seconds_for(int n) {
  const ridgeline::Run run = many_cases(n);
  double best = 1e9;
  for (int trial = 0; trial < 2; ++trial) {
    const auto start = std::chrono::steady_clock::now();
    const ReportInput in = make_report_input(run, "many.json", std::nullopt, "none");
    const std::size_t size = html_report(in).size() + markdown_report(in).size() +
                             csv_report(in).size() + terminal_summary(in).size();
    EXPECT_GT(size, static_cast<std::size_t>(n));
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

TEST(Scaling, FourTimesTheCasesCostAboutFourTimesTheTime) {
  const double small = seconds_for(2000);
  const double large = seconds_for(8000);
  // Linear is 4 (plus map lookups' log factor); comparing all pairs would be 16.
  EXPECT_LT(large / small, 8.0) << small << " s for 2000 cases, " << large << " s for 8000";
}

}  // namespace ridgeline
