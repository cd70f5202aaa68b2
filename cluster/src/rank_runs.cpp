#include "ridgeline/cluster/rank_runs.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "ridgeline/core/run_json.hpp"

namespace ridgeline::cluster {

using nlohmann::json;

std::string encode_rank_run(const RankRun& part) {
  const RankPlace& p = part.place;
  json j = {{"rank", p.rank},
            {"ranks", p.ranks},
            {"local_rank", p.local_rank},
            {"local_ranks", p.local_ranks},
            {"node", p.node},
            {"nodes", p.nodes},
            {"host", p.host},
            {"cpus", part.cpus},
            {"gpus", part.gpus},
            {"failure", part.failure}};
  if (part.run) j["run"] = to_json(*part.run);
  return j.dump();
}

RankRun decode_rank_run(const std::string& text, int rank) {
  RankRun part;
  part.place.rank = rank;
  try {
    const json j = json::parse(text);
    RankPlace& p = part.place;
    p.ranks = j.at("ranks").get<int>();
    p.local_rank = j.at("local_rank").get<int>();
    p.local_ranks = j.at("local_ranks").get<int>();
    p.node = j.at("node").get<int>();
    p.nodes = j.at("nodes").get<int>();
    p.host = j.at("host").get<std::string>();
    part.cpus = j.at("cpus").get<std::vector<int>>();
    if (j.contains("gpus")) part.gpus = j.at("gpus").get<std::vector<int>>();
    part.failure = j.at("failure").get<std::string>();
    if (j.contains("run")) part.run = run_from_json(j.at("run"), fmt::format("rank {}", rank));
  } catch (const std::exception& e) {
    part.run.reset();
    part.failure = fmt::format("its results could not be read at rank 0: {}", e.what());
  }
  return part;
}

Run merge_rank_runs(const std::vector<RankRun>& parts) {
  Run merged;
  for (const RankRun& part : parts)
    if (part.run) {
      merged.context = part.run->context;
      break;
    }
  merged.context.ranks.clear();
  merged.context.interrupted = false;
  for (const RankRun& part : parts) {
    RankContext rank;
    rank.rank = part.place.rank;
    rank.host = part.place.host;
    rank.node = part.place.node;
    rank.local_rank = part.place.local_rank;
    rank.cpus = part.cpus;
    rank.gpus = part.gpus;
    if (!part.run) {
      rank.outcome = part.failure.empty() ? "its results never reached rank 0" : part.failure;
      merged.context.interrupted = true;
      merged.context.ranks.push_back(std::move(rank));
      continue;
    }
    const Run& run = *part.run;
    if (run.context.interrupted || !part.failure.empty()) {
      rank.outcome = part.failure.empty() ? "interrupted" : part.failure;
      merged.context.interrupted = true;
    }
    if (part.place.local_rank == 0) rank.machine = run.context.machine;
    merged.context.ranks.push_back(std::move(rank));
    for (CaseResult r : run.benchmarks) {
      if (r.ridgeline) r.ridgeline->origin = RankOrigin{part.place.rank, part.place.host};
      merged.benchmarks.push_back(std::move(r));
    }
    for (const std::string& note : run.notes)
      merged.notes.push_back(fmt::format("rank {}: {}", part.place.rank, note));
  }
  return merged;
}

std::string rank_output(const std::string& merged, int rank) {
  std::filesystem::path p(merged);
  const std::string ext = p.extension().string();
  p.replace_extension(fmt::format(".rank{}{}", rank, ext.empty() ? ".json" : ext));
  return p.string();
}

std::string rank_journal(const std::string& merged, int rank) {
  return std::filesystem::path(rank_output(merged, rank)).replace_extension(".jsonl").string();
}

RankRun rank_run_from_files(const RankPlace& place, const std::vector<int>& cpus,
                            const std::string& merged) {
  RankRun part{place, cpus, std::nullopt, ""};
  const std::string own = rank_output(merged, place.rank);
  const std::string journal = rank_journal(merged, place.rank);
  std::error_code ec;
  try {
    if (std::filesystem::exists(own, ec)) {
      part.run = read_run_file(own);
      return part;
    }
    if (std::filesystem::exists(journal, ec)) {
      part.run = read_run_file(journal);
      part.failure =
          fmt::format("ended before writing its Run (killed?): the {} results its journal {} kept",
                      part.run->benchmarks.size(), journal);
      return part;
    }
    part.failure = fmt::format(
        "neither its Run {} nor its journal {} is where rank 0 can read it (no file system "
        "shared with rank 0, or the rank never started)",
        own, journal);
  } catch (const std::exception& e) {
    part.run.reset();
    part.failure = fmt::format("its files could not be read at rank 0: {}", e.what());
  }
  return part;
}

}  // namespace ridgeline::cluster
