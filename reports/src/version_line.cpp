#include <fmt/format.h>

#include "ridgeline/reports/format.hpp"

namespace ridgeline::reports {

std::string version_line(const ReportInput& in) {
  const RunContext& c = in.run.context;
  std::string run;
  if (!c.has_ridgeline)
    run = "the run is a foreign Google Benchmark file";
  else if (c.version.empty())
    run = "the run records no Ridgeline version";
  else
    run = fmt::format("the run by Ridgeline {}", c.version);
  return fmt::format("Report written by Ridgeline {}; {}.", RIDGELINE_VERSION, run);
}

}  // namespace ridgeline::reports
