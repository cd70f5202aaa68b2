// Each report shows a case's repetitions (time per call, min … max, cv, n) from the analysis
// model, and the CSV carries them as numbers.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <regex>

#include "ridgeline/core/run_json.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {
namespace {

// The recorded smoke run with its first case repeated: 0.9×, 1×, 1.1× the recorded time.
ReportInput recorded_with_three_repetitions() {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  CaseResult first = run.benchmarks[0];
  first.real_time = 2.0;
  first.time_unit = "ms";
  run.benchmarks[0] = first;
  for (double f : {0.9, 1.1}) {
    CaseResult r = first;
    r.real_time = 2.0 * f;
    run.benchmarks.insert(run.benchmarks.begin() + 1, r);
  }
  auto machine = run.context.machine;
  return make_report_input(std::move(run), "run.json", machine, "embedded");
}

TEST(RepetitionsInReports, EveryFormatShowsTheSpreadOfTheRepetitions) {
  const ReportInput in = recorded_with_three_repetitions();
  ASSERT_EQ(in.placements[0].repetitions.seconds.size(), 3u);
  // samples 2.0, 1.8, 2.2 ms: sample sd 0.2 ms over the mean 2.0 ms
  const std::string html = html_report(in);
  // Folded columns (min, max, repetitions) are in the page, shown by the time group's box.
  for (const char* column : {"min", "max", "repetitions"})
    EXPECT_TRUE(std::regex_search(
        html,
        std::regex(fmt::format(R"(<th class="folded g-time" title="[^"]*">{}</th>)", column))))
        << column;
  EXPECT_TRUE(std::regex_search(html, std::regex(R"(<th title="[^"]*">cv</th>)")));
  EXPECT_TRUE(std::regex_search(
      html, std::regex(R"(<td class="n" data-v="[0-9.e-]+">10\.0%, noisy</td>)")));
  EXPECT_TRUE(std::regex_search(
      html,
      std::regex(R"(>1\.8 ms</td><td class="n folded g-time" data-v="[0-9.e-]+">2\.2 ms</td>)")));
  EXPECT_TRUE(
      std::regex_search(html, std::regex(R"(<td class="n folded g-time" data-v="3">3</td>)")));
  const std::string md = markdown_report(in);
  // A cv of 10% is noisy (above 5%): the cell says so and the notes say why. Markdown's
  // results show the cv; its second table the folded min, max and repetitions.
  EXPECT_NE(md.find("| 2 ms | 10.0%, noisy |"), std::string::npos) << md.substr(0, 3000);
  EXPECT_NE(md.find("| 1.8 ms | 2.2 ms | 3 |"), std::string::npos) << md;
  EXPECT_NE(md.find("noise: cv 10.0% over 3 repetitions (above 5%)"), std::string::npos);
  EXPECT_NE(md.find("| 1 |"), std::string::npos);  // the other cases: 1 repetition
  const std::string csv = csv_report(in);
  const std::string rows = csv.substr(csv.find('\n') + 1);
  const std::string first = rows.substr(0, rows.find('\n'));
  // The repetitions' columns, then the guidance.
  EXPECT_NE(first.find(",3,0.0018,0.0022,0.1,\"compute-bound at "), std::string::npos) << first;
}

TEST(RepetitionsInReports, ABusyMachineIsOneWarningLine) {
  ReportInput in = recorded_with_three_repetitions();
  for (auto& p : in.placements) p.cpu_share = 0;  // the recording predates the counts
  EXPECT_EQ(busy_machine_warning(in), "");
  in.placements[0].cpu_share = 0.97;
  in.placements[1].cpu_share = 0.5;
  EXPECT_EQ(busy_machine_warning(in),
            "the machine was busy: in 1 of 2 cases the calling thread was off the CPU for more "
            "than 10% of a repetition (at worst on it 50% of the time); their times are "
            "inflated, see the noise notes");
  in.placements[1].cpu_share = 0.95;
  EXPECT_EQ(busy_machine_warning(in), "");
}

}  // namespace
}  // namespace ridgeline
