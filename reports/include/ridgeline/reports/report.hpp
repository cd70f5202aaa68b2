#pragma once
// Thin views over one model: the Run, the machine model and the roofline placements.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridgeline/analysis/einsum_comparison.hpp"
#include "ridgeline/analysis/einsum_paths.hpp"
#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/ladder_comparison.hpp"
#include "ridgeline/analysis/overview.hpp"
#include "ridgeline/analysis/pattern_effect.hpp"
#include "ridgeline/analysis/power_cap.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

struct ReportInput {
  Run run;
  std::string run_origin;  // the file it was read from
  std::optional<MachineModel> machine;
  std::string machine_origin;  // where the ceilings came from, or why there are none
  std::vector<RooflinePlacement> placements;
  FusionAnalysis fusion;                 // pairs and the eltwise chain's sweeps, over `placements`
  std::vector<LadderRow> ladder;         // each rung against the best BLAS
  std::vector<PatternEffect> patterns;   // one case's rate (power, clock) per input pattern
  std::vector<PowerCapRoof> power_caps;  // what the GPU sustains at its power cap, per pattern
  std::vector<EinsumComparison> einsum;  // each contraction's lowerings side by side
  // Each einsum network the run holds the paths' steps of, its paths measured.
  std::vector<EinsumNetworkComparison> einsum_networks;
  std::string load_warning;  // machine_load_warning of the run, or empty
  Overview overview;         // the first screen, over all of the above
};

// Reads nothing; builds the analysis model once, which every printer only formats:
// `placements` by place_results(run, machine), `fusion` by fusion_analysis over them,
// `ladder` by ladder_against_best_blas, `patterns` by pattern_effects, `overview` by
// make_overview.
ReportInput make_report_input(Run run_doc, std::string run_origin,
                              std::optional<MachineModel> machine, std::string machine_origin);

enum class ReportFormat { html, markdown, csv };
// By extension: .html/.htm, .md/.markdown, .csv; nullopt otherwise.
std::optional<ReportFormat> report_format_for(const std::filesystem::path& path);

// One self-contained file: inline CSS, inline SVG, a few lines of inline script.
std::string html_report(const ReportInput& input);
std::string markdown_report(const ReportInput& input);
std::string csv_report(const ReportInput& input);
// The fusion pairs as CSV, one row per pair and per unpaired case (docs/fusion-analysis.md).
std::string fusion_csv(const ReportInput& input);
// The eltwise chain's sweeps as CSV, one row per (sweep, L).
std::string sweep_csv(const ReportInput& input);
// Every unfused chain's passes and every einsum lowering's lapped steps, one row per pass
// (the pass table's columns); the header alone without any.
std::string passes_csv(const ReportInput& input);
// The roofline picture of one run as the HTML report draws it (an <svg> element, markers
// coloured by backend, fusion arrows): `scene` made from input.placements, with the roofs it
// shows (the dashboard exports its current chart with it).
std::string roofline_picture_svg(const RooflineScene& scene, const ReportInput& input);
// The HTML report's roofline: the picture, its legend and what it leaves out (a fragment: the
// Python module's notebook view shows it under the overview).
std::string roofline_section_html(const ReportInput& input);
// The table `ridgeline profile` prints.
// One line when the machine was busy while the run was timed: how many CPU cases had their
// calling thread off the CPU for more than a tenth of a repetition, and the run's
// load_warning (noise.hpp); empty when neither says so.
std::string busy_machine_warning(const ReportInput& in);
std::string terminal_summary(const ReportInput& input);
// Each einsum network's paths (predicted FLOPs beside measured time, and the verdicts), then
// each contraction's lowerings as aligned columns, the best one's lead and what the notation
// hides (`ridgeline einsum`, and the end of terminal_summary); "" without any.
std::string einsum_terminal(const ReportInput& input);
// The einsum comparisons as CSV, one row per contraction and lowering: equation, extents,
// dtype, threads, lowering, ran, seconds per call, FLOP/s, compulsory and added bytes, share
// of the roof, bound, time over the best's, best, why it did not run, how it ran; and the
// contraction's best lead over TTGT and over the slowest, and what the notation hides.
std::string einsum_csv(const ReportInput& input);
// Each einsum network's paths as CSV, one row per (network, dtype, threads, path): the
// paths table's columns (einsum_paths_table) after the network's; the header alone
// without any.
std::string einsum_paths_csv(const ReportInput& input);

}  // namespace ridgeline
