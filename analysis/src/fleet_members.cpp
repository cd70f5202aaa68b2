// The fleet's members from run files: each file read row by row into the cases of the host
// (or rank) each row names, placed as `compare` places a run, and reduced to the samples the
// tests need, so 1,000 nodes' runs are held as their repetitions, not as their rows.
#include <fmt/format.h>

#include <map>
#include <set>

#include "ridgeline/analysis/fleet.hpp"
#include "ridgeline/analysis/run_cases.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

namespace {

struct Part {
  RunCases cases;
  std::set<int> ranks;
  std::string host;
};

// The file's own host, for rows that name none: the run's, its machine's, else the file's name.
std::string own_host(const Run& run, const std::filesystem::path& file) {
  if (!run.context.host_name.empty()) return run.context.host_name;
  if (run.context.machine && !run.context.machine->host.empty()) return run.context.machine->host;
  return file.stem().string();
}

// The host's probed model: its first rank's in a merged run, else the run's own.
const MachineModel* host_machine(const RunContext& context, const std::string& host) {
  for (const auto& r : context.ranks)
    if (r.host == host && r.machine) return &*r.machine;
  return context.machine ? &*context.machine : nullptr;
}

}  // namespace

std::vector<FleetMember> read_fleet_members(const std::vector<std::filesystem::path>& files,
                                            bool by_rank, std::vector<std::string>& notes) {
  std::vector<FleetMember> members;
  std::vector<std::map<CaseKey, std::size_t>> case_index;  // per member: key -> its case
  std::map<std::string, std::size_t> index;                // member name -> member
  for (const auto& file : files) {
    std::map<std::string, Part> parts;  // "" collects the rows that name no origin
    Run run = read_run_file(file, [&](CaseResult&& row) {
      const RankOrigin* origin =
          row.ridgeline && row.ridgeline->origin ? &*row.ridgeline->origin : nullptr;
      const std::string name = !origin   ? ""
                               : by_rank ? fmt::format("rank {}", origin->rank)
                                         : origin->host;
      Part& part = parts[name];
      if (origin) {
        part.ranks.insert(origin->rank);
        part.host = origin->host;
      }
      part.cases.add(std::move(row));
    });
    for (auto& [name, part] : parts) {
      const std::string host = part.host.empty() ? own_host(run, file) : part.host;
      const std::string member = name.empty() ? host : name;
      const MachineModel* machine = host_machine(run.context, host);
      auto [it, added] = index.emplace(member, members.size());
      if (added) {
        members.push_back({member, {}, 0, machine ? std::optional(*machine) : std::nullopt, {}});
        case_index.emplace_back();
      } else {
        notes.push_back(
            fmt::format("{} is in more than one file: their repetitions are pooled", member));
      }
      FleetMember& m = members[it->second];
      m.sources.push_back(file.string());
      m.ranks += std::max<int>(1, static_cast<int>(part.ranks.size()));
      if (!m.machine && machine) m.machine = *machine;
      for (const auto& p : place_cases(part.cases, machine)) {
        if (p.complexity_fit) continue;  // a fit over sizes: no timing to test
        const CaseKey key = case_key(p);
        auto [c, fresh] = case_index[it->second].emplace(key, m.cases.size());
        if (fresh) {
          const bool passed =
              p.disposition == Disposition::passed || p.disposition == Disposition::not_verified;
          m.cases.push_back({key, p.name, p.repetitions.seconds, to_string(p.bound), passed});
        } else {
          auto& seconds = m.cases[c->second].seconds;
          seconds.insert(seconds.end(), p.repetitions.seconds.begin(), p.repetitions.seconds.end());
        }
      }
    }
  }
  return members;
}

}  // namespace ridgeline
