#pragma once
// What the details pane says about one case: every metric with its source, the validation
// outcome, the kernel's notes, how it was placed, the ceilings it was held against, the
// run's collectors, and a line of guidance read off its position on the roofline. All of it
// is looked up in the analysis model and the run; nothing is measured or placed again.
#include <cstddef>
#include <string>
#include <vector>

#include "ridgeline/reports/report.hpp"

namespace ridgeline::gui {

struct DetailRow {
  std::string label, value, source;  // source: "timed", "analytic", ... or ""
};
struct DetailSection {
  std::string title;
  std::vector<DetailRow> rows;
};
struct CaseDescription {
  std::string title;     // the case's name
  std::string guidance;  // the placement's (analysis: placement_guidance)
  std::vector<DetailSection> sections;
};

CaseDescription describe_case(const ReportInput& input, std::size_t placement);

// The description as the rich text the details pane shows: the title, the guidance, then a
// table per section (label, value, source); every string escaped.
std::string details_html(const CaseDescription& description);

}  // namespace ridgeline::gui
