#include <cmath>

#include "ridgeline/analysis/duration_text.hpp"
#include "ridgeline/analysis/noise.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {

namespace reports {
std::string si_rate(double value, const std::string& unit) {
  return si_text(value, unit);
}
}  // namespace reports

ReportInput make_report_input(Run run_doc, std::string run_origin,
                              std::optional<MachineModel> machine, std::string machine_origin) {
  ReportInput in;
  in.run = std::move(run_doc);
  in.run_origin = std::move(run_origin);
  in.machine = std::move(machine);
  in.machine_origin = std::move(machine_origin);
  in.placements = place_results(in.run, in.machine ? &*in.machine : nullptr);
  in.fusion = fusion_analysis(in.run, in.placements, in.machine ? &*in.machine : nullptr);
  in.ladder = ladder_against_best_blas(in.placements);
  in.patterns = pattern_effects(in.run);
  in.power_caps = power_cap_roofs(in.patterns);
  note_power_caps(in.placements, in.power_caps);
  in.einsum = einsum_comparisons(in.run, in.placements, in.machine ? &*in.machine : nullptr);
  in.einsum_networks = einsum_network_comparisons(in.run, in.einsum);
  in.load_warning = machine_load_warning(in.run.context);
  in.overview =
      make_overview(in.placements, in.machine ? &*in.machine : nullptr, in.fusion, in.run.context);
  return in;
}

std::optional<ReportFormat> report_format_for(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".html" || ext == ".htm") return ReportFormat::html;
  if (ext == ".md" || ext == ".markdown") return ReportFormat::markdown;
  if (ext == ".csv") return ReportFormat::csv;
  return std::nullopt;
}

}  // namespace ridgeline
