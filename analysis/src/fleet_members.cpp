// The fleet's members from run files: each file read row by row into the cases of the host
// (or rank) each row names, placed as `compare` places a run, and reduced to the samples the
// tests need, so 1,000 nodes' runs are held as their repetitions, not as their rows.
#include <fmt/format.h>

#include <map>
#include <set>

#include "ridgeline/analysis/fleet.hpp"
#include "ridgeline/analysis/run_cases.hpp"
#include "ridgeline/analysis/side_by_side.hpp"
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

// One file's members, each with the cases placed (a member named by its rows, else the file's
// host).
std::vector<FleetMember> file_members(const std::filesystem::path& file, bool by_rank) {
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
  std::vector<FleetMember> out;
  for (auto& [name, part] : parts) {
    const std::string host = part.host.empty() ? own_host(run, file) : part.host;
    const MachineModel* machine = host_machine(run.context, host);
    FleetMember m{name.empty() ? host : name,
                  {file.string()},
                  std::max<int>(1, static_cast<int>(part.ranks.size())),
                  machine ? std::optional(*machine) : std::nullopt,
                  {}};
    for (const auto& p : place_cases(part.cases, machine)) {
      if (p.complexity_fit) continue;  // a fit over sizes: no timing to test
      const bool passed =
          p.disposition == Disposition::passed || p.disposition == Disposition::not_verified;
      m.cases.push_back({case_key(p), p.name, p.repetitions.seconds, to_string(p.bound), passed});
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

std::vector<FleetMember> read_fleet_members(const std::vector<std::filesystem::path>& files,
                                            bool by_rank, std::vector<std::string>& notes) {
  std::vector<std::vector<FleetMember>> read(files.size());
  const auto errors =
      side_by_side(files.size(), [&](std::size_t i) { read[i] = file_members(files[i], by_rank); });
  for (const auto& e : errors)  // the first bad file in the order given
    if (e) std::rethrow_exception(e);
  // A member met again (a host in several files) pools its cases, key by key.
  std::vector<FleetMember> members;
  std::vector<std::map<CaseKey, std::size_t>> case_index;
  std::map<std::string, std::size_t> index;
  for (auto& file : read)
    for (auto& m : file) {
      auto [it, added] = index.emplace(m.name, members.size());
      if (added) {
        case_index.emplace_back();
        for (std::size_t c = 0; c < m.cases.size(); ++c)
          case_index.back().emplace(m.cases[c].key, c);  // the first row of a key, as compare
        members.push_back(std::move(m));
        continue;
      }
      notes.push_back(
          fmt::format("{} is in more than one file: their repetitions are pooled", m.name));
      FleetMember& into = members[it->second];
      into.sources.push_back(m.sources.front());
      into.ranks += m.ranks;
      if (!into.machine) into.machine = std::move(m.machine);
      for (auto& c : m.cases) {
        auto [at, fresh] = case_index[it->second].emplace(c.key, into.cases.size());
        if (fresh)
          into.cases.push_back(std::move(c));
        else
          into.cases[at->second].seconds.insert(into.cases[at->second].seconds.end(),
                                                c.seconds.begin(), c.seconds.end());
      }
    }
  return members;
}

}  // namespace ridgeline
