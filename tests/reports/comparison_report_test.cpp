// The comparison printers on comparisons built by hand: the step summary stays under
// GitHub's 1 MiB however many cases, and names from a document cannot break the terminal,
// the Markdown table or the XML.
#include <gtest/gtest.h>

#include "ridgeline/reports/comparison.hpp"

namespace ridgeline {
namespace {

CaseComparison tested_case(const std::string& name, Verdict verdict, double ratio) {
  CaseComparison c;
  c.key.op = "gemm";
  c.key.backend = "cpu.x";
  c.name = name;
  c.base = c.head = std::vector<double>(10, 1e-3);
  c.tested = true;
  c.ratio = ratio;
  c.low = ratio * 0.99;
  c.high = ratio * 1.01;
  c.p = c.p_holm = 0.01;
  c.verdict = verdict;
  c.reason = "because";
  return c;
}

TEST(ComparisonReport, MarkdownStaysUnderTheStepSummaryLimit) {
  RunComparison cmp;
  for (int i = 0; i < 20000; ++i)
    cmp.cases.push_back(tested_case("gemm/cpu.x/f32/m=" + std::to_string(i) +
                                        std::string(120, 'n') + "/pattern=normal/threads=1",
                                    i < 5 ? Verdict::regression : Verdict::same,
                                    i < 5 ? 1.2 : 1.0));
  cmp.tested = 20000;
  cmp.geomean_ratio = 1.0;
  const std::string md = comparison_markdown({cmp, "a.json", "b.json"});
  EXPECT_LT(md.size(), 1024u * 1024u);
  EXPECT_GT(md.size(), 800u * 1024u);  // filled up to its budget, not cut short
  // The regressions come first and are all there; unchanged rows were the ones left out.
  const std::string separator = "|---|---:|---|---:|---:|---|---|\n";
  EXPECT_EQ(md.compare(md.find(separator) + separator.size(), 14, "| REGRESSION |"), 0);
  std::size_t regressions = 0;
  for (auto at = md.find("| REGRESSION |"); at != std::string::npos;
       at = md.find("| REGRESSION |", at + 1))
    ++regressions;
  EXPECT_EQ(regressions, 5u);
  EXPECT_NE(md.find("<details><summary>19995 cases the same within ±5%</summary>"),
            std::string::npos);
  EXPECT_NE(md.find("rows left out to stay under the step summary's 1 MiB"), std::string::npos);
  EXPECT_NE(md.find("gate failed"), std::string::npos);
}

TEST(ComparisonReport, HostileNamesAreEscapedEverywhere) {
  RunComparison cmp;
  const std::string name = "gemm/\x1b[31mred|pipe<b>&\"q\"\u202E";
  cmp.cases.push_back(tested_case(name, Verdict::regression, 1.5));
  cmp.tested = 1;
  cmp.geomean_ratio = 1.5;
  cmp.added.push_back("added\x1b]0;title\x07");
  const ComparisonView view{cmp, "a.json", "b.json"};
  for (const std::string& out :
       {comparison_text(view), comparison_markdown(view), comparison_junit(view)}) {
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
    EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
    EXPECT_EQ(out.find("\u202E"), std::string::npos) << out;
  }
  // JSON keeps the name as it is, its control characters as JSON escapes.
  const std::string json = comparison_json(view);
  EXPECT_EQ(json.find('\x1b'), std::string::npos) << json;
  EXPECT_NE(json.find("\\u001b[31mred|pipe<b>&\\\"q\\\"\u202E"), std::string::npos) << json;
  const std::string md = comparison_markdown(view);
  EXPECT_NE(md.find("red\\|pipe"), std::string::npos) << md;
  const std::string xml = comparison_junit(view);
  EXPECT_NE(xml.find("red|pipe&lt;b&gt;&amp;&quot;q&quot;"), std::string::npos) << xml;
  EXPECT_NE(xml.find("tests=\"2\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure type=\"regression\" message=\"because\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"added: only in the new run\"/>"), std::string::npos);
}

TEST(ComparisonReport, JunitFailsWhatTheGateFails) {
  RunComparison cmp;
  cmp.cases.push_back(tested_case("inconclusive", Verdict::inconclusive, 1.04));
  cmp.cases.push_back(tested_case("faster", Verdict::improvement, 0.8));
  cmp.tested = 2;
  const std::string by_default = comparison_junit({cmp, "a", "b"});
  EXPECT_NE(by_default.find("failures=\"0\""), std::string::npos) << by_default;
  EXPECT_NE(by_default.find("<skipped message=\"because\"/>"), std::string::npos);
  const std::string strict = comparison_junit({cmp, "a", "b", FailOn::change, "change"});
  EXPECT_NE(strict.find("failures=\"2\""), std::string::npos) << strict;
}

}  // namespace
}  // namespace ridgeline
