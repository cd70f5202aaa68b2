#pragma once
// One file opened in the dashboard: the run as core reads it and its analysis model, built
// once by reports' make_report_input; every view formats it and recomputes nothing.
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline::gui {

struct RunDocument {
  std::string path;
  ReportInput input;
};

// Reads `path`: a Run, its .jsonl journal (also one still being written) or a Google
// Benchmark JSON file. The ceilings are `machine` where given (File → Use ceilings from…),
// else the model the run carries. Bad input is an InputError whose one line names the file.
RunDocument open_run_document(const std::string& path,
                              const std::optional<MachineModel>& machine = std::nullopt,
                              const std::string& machine_origin = "");

// A merged Run of several hosts (`mpirun ridgeline run`) as one document per host: that host's
// results alone, under its own model (its first rank's) unless `machine` is given, each named
// "<path> — <host>" so that an overlay of them colours points by node. Empty where the run's
// results come from one host or name none.
std::vector<RunDocument> node_documents(const RunDocument& merged,
                                        const std::optional<MachineModel>& machine = std::nullopt,
                                        const std::string& machine_origin = "");

// The names runs go by on the chart and in the table: each file's name, or its path where
// two of `runs` share a file name.
std::vector<std::string> run_labels(const std::vector<const RunDocument*>& runs);

}  // namespace ridgeline::gui
