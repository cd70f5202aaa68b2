#include "ridgeline/gui/run_document.hpp"

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

}  // namespace ridgeline::gui
