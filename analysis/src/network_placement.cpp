#include "network_placement.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "byte_text.hpp"
#include "ridgeline/analysis/usable.hpp"

namespace ridgeline {

void place_network_bytes(RooflinePlacement& p, const CaseDetails& d, const MachineModel* machine) {
  const auto net = d.work.bytes.find(MemoryLevel::network);
  if (net == d.work.bytes.end() || !usable(net->second)) return;
  const auto scope = d.kernel_notes.find("network_scope");
  const std::string level =
      network_level(scope != d.kernel_notes.end() ? scope->second : "intra-node");
  p.bytes[level] = net->second;
  const bool roofed =
      machine &&
      std::any_of(machine->network.begin(), machine->network.end(), [&](const NetworkCeiling& n) {
        return n.device == d.device && network_level(n.scope) == level && n.pattern == "bandwidth";
      });
  p.notes.push_back(
      {NoteKind::level,
       roofed ? fmt::format("network bytes (analytic, what each rank sends): {} per call, "
                            "under the {} roof",
                            human_bytes(net->second), level)
              : fmt::format("network bytes (analytic): {} per call; no {} ceiling in the "
                            "machine model: measure it with `mpirun ... ridgeline probe "
                            "--network -o net.json` on the same placement, then report with "
                            "--machine net.json",
                            human_bytes(net->second), level)});
}

}  // namespace ridgeline
