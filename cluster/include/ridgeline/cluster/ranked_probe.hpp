#pragma once
// `ridgeline probe` under mpirun or srun: every host probed at once, one rank each
// (docs/cluster.md).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline::cluster {

// Each host's first rank probes its host (or reads its cache; `force` re-measures) while the
// host's other ranks sleep, `line` given each of its probe's lines with the host named. At
// rank 0 every host's model, in the order of their first ranks; nullopt at the other ranks.
// Refused (InputError) without MPI in the build, naming `launcher`, and where `output` (the
// caller's to write, where named) could not be written, before anything is measured.
std::optional<std::vector<MachineModel>> probe_every_host(
    const std::string& launcher, const std::string& output, bool force, const ProbeOptions& probe,
    const std::function<void(const std::string& line)>& line);

// Where another host's model goes beside the one named: machine.json -> machine.node-b.json
// (the host's name with anything but letters, digits and '-' as '_').
std::string host_model_file(const std::string& output, const std::string& host);

}  // namespace ridgeline::cluster
