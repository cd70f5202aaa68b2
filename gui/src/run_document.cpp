#include "ridgeline/gui/run_document.hpp"

#include <algorithm>
#include <filesystem>

#include "ridgeline/core/run_json.hpp"

namespace ridgeline::gui {

RunDocument open_run_document(const std::string& path, const std::optional<MachineModel>& machine,
                              const std::string& machine_origin) {
  Run run = read_run_file(path);
  std::optional<MachineModel> ceilings = machine;
  std::string origin = machine_origin;
  if (!ceilings && run.context.machine) {
    ceilings = run.context.machine;
    origin = "the model embedded in the run (" + ceilings->host + ", " + ceilings->date + ")";
  } else if (!ceilings) {
    origin = "the run carries no machine model: File → Use ceilings from… opens one";
  }
  return {path, make_report_input(std::move(run), path, std::move(ceilings), std::move(origin))};
}

std::vector<std::string> run_labels(const std::vector<const RunDocument*>& runs) {
  const auto name = [](const RunDocument* r) {
    return std::filesystem::path(r->path).filename().string();
  };
  std::vector<std::string> out;
  for (const RunDocument* run : runs) {
    const bool shared = std::count_if(runs.begin(), runs.end(), [&](const RunDocument* other) {
                          return name(other) == name(run);
                        }) > 1;
    out.push_back(shared ? run->path : name(run));
  }
  return out;
}

}  // namespace ridgeline::gui
