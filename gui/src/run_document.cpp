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

std::vector<RunDocument> node_documents(const RunDocument& merged,
                                        const std::optional<MachineModel>& machine,
                                        const std::string& machine_origin) {
  const Run& run = merged.input.run;
  std::vector<std::string> hosts;  // in the order the results name them
  for (const auto& r : run.benchmarks)
    if (r.ridgeline && r.ridgeline->origin &&
        std::find(hosts.begin(), hosts.end(), r.ridgeline->origin->host) == hosts.end())
      hosts.push_back(r.ridgeline->origin->host);
  std::vector<RunDocument> out;
  if (hosts.size() < 2) return out;
  for (const std::string& host : hosts) {
    Run part;
    part.context = run.context;
    part.context.machine.reset();
    for (const auto& rank : run.context.ranks)
      if (rank.host == host && rank.machine && !part.context.machine)
        part.context.machine = rank.machine;
    for (const auto& r : run.benchmarks)
      if (r.ridgeline && r.ridgeline->origin && r.ridgeline->origin->host == host)
        part.benchmarks.push_back(r);
    const bool own = part.context.machine.has_value();
    if (!own) part.context.machine = run.context.machine;  // rank 0's host's, where it has none
    std::optional<MachineModel> ceilings = machine ? machine : part.context.machine;
    const std::string origin =
        machine    ? machine_origin
        : own      ? "the model of " + host + " in the merged run"
        : ceilings ? "the merged run's model of " + ceilings->host + " (none of " + host + ")"
                   : "the merged run carries no machine model";
    const std::string path = merged.path + " — " + host;
    out.push_back({path, make_report_input(std::move(part), path, std::move(ceilings), origin)});
  }
  return out;
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
