// The details pane's text: each section looked up in the analysis model and the run of a
// recorded file, and the guidance read off a point's position.
#include "ridgeline/gui/case_details.hpp"

#include <gtest/gtest.h>

#include "ridgeline/gui/run_document.hpp"

namespace ridgeline::gui {
namespace {

const DetailSection* section(const CaseDescription& d, const std::string& title) {
  for (const auto& s : d.sections)
    if (s.title == title) return &s;
  return nullptr;
}

const DetailRow* row(const DetailSection& s, const std::string& label) {
  for (const auto& r : s.rows)
    if (r.label == label) return &r;
  return nullptr;
}

TEST(CaseDetails, EveryMetricWithItsSourceTheValidationAndTheCeilings) {
  const RunDocument doc =
      open_run_document(std::string(RIDGELINE_FIXTURES) + "/run-smoke-f64-zen4-vm.json");
  std::size_t naive = doc.input.placements.size();
  for (std::size_t i = 0; i < doc.input.placements.size(); ++i)
    if (doc.input.placements[i].backend == "cpu.naive") naive = i;
  ASSERT_LT(naive, doc.input.placements.size());
  const CaseDescription d = describe_case(doc.input, naive);
  EXPECT_EQ(d.title, doc.input.placements[naive].name);

  const DetailSection* metrics = section(d, "Metrics");
  ASSERT_NE(metrics, nullptr);
  ASSERT_NE(row(*metrics, "flops"), nullptr);
  EXPECT_EQ(row(*metrics, "flops")->source, "analytic");
  EXPECT_EQ(row(*metrics, "flops")->value, "524288 FLOP");  // 2 x 64^3
  ASSERT_NE(row(*metrics, "time_per_iteration"), nullptr);
  EXPECT_EQ(row(*metrics, "time_per_iteration")->source, "timed");
  EXPECT_EQ(row(*metrics, "flop_rate")->source, "derived");

  const DetailSection* validation = section(d, "Validation");
  ASSERT_NE(validation, nullptr);
  EXPECT_EQ(row(*validation, "outcome")->value, "passed");
  EXPECT_EQ(row(*validation, "method")->value, "direct");

  const DetailSection* ceilings = section(d, "Ceilings used");
  ASSERT_NE(ceilings, nullptr);
  EXPECT_NE(row(*ceilings, "f64.avx2.fma"), nullptr);  // the 1-thread f64 peak of the model
  EXPECT_NE(section(d, "Position"), nullptr);
  EXPECT_NE(section(d, "Timing"), nullptr);

  // Far below the roof on a compute-bound naive loop: the guidance says so.
  EXPECT_NE(d.guidance.find("compute-bound at "), std::string::npos) << d.guidance;
  EXPECT_NE(d.guidance.find("far from it"), std::string::npos) << d.guidance;

  const std::string html = details_html(d);
  EXPECT_NE(html.find("<td>flops</td><td>524288 FLOP</td><td><i>analytic</i></td>"),
            std::string::npos);
  EXPECT_NE(details_html({}).find("Select a case"), std::string::npos);
}

// The pane shows the ceilings placement used: at a thread count the model lacks, the
// nearest below (roof_for), not nothing.
TEST(CaseDetails, TheCeilingsAreThoseThePlacementUsed) {
  RunDocument doc =
      open_run_document(std::string(RIDGELINE_FIXTURES) + "/run-smoke-f64-zen4-vm.json");
  ASSERT_FALSE(doc.input.placements.empty());
  RooflinePlacement& p = doc.input.placements.front();
  p.dtype = "f64";
  p.threads = 3;  // the model has 1 and 2
  const CaseDescription d = describe_case(doc.input, 0);
  const DetailSection* ceilings = section(d, "Ceilings used");
  ASSERT_NE(ceilings, nullptr);
  EXPECT_NE(row(*ceilings, "f64.avx512.fma"), nullptr);  // the 2-thread f64 peak
  EXPECT_EQ(row(*ceilings, "f64.avx2.fma"), nullptr);    // not the 1-thread one
  const DetailRow* note = row(*ceilings, "note");
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->value.find("2 threads"), std::string::npos) << note->value;
}

TEST(CaseDetails, NamesFromTheRunAreEscaped) {
  CaseDescription d;
  d.title = "<script>x</script>";
  d.guidance = "a & b";
  d.sections.push_back({"<b>", {{"<i>", "\"v\"", "timed"}}});
  const std::string html = details_html(d);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("a &amp; b"), std::string::npos);
}

}  // namespace
}  // namespace ridgeline::gui
