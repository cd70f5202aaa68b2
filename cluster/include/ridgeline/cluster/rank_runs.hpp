#pragma once
// Every rank's Run in one: what each rank sends to rank 0 and how rank 0 joins them.
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline::cluster {

// What one rank hands to rank 0: its place, the CPUs it ran on and its Run, or why it has
// none.
struct RankRun {
  RankPlace place;
  std::vector<int> cpus;
  std::optional<Run> run;
  std::string failure;      // why `run` is absent, or what is missing from it
  std::vector<int> gpus{};  // the GPUs it was given (CUDA_VISIBLE_DEVICES); empty: none chosen
};

// One rank's part as text (JSON) for the gather, and back; a part that cannot be read
// becomes a RankRun with the reason as its failure.
std::string encode_rank_run(const RankRun& part);
RankRun decode_rank_run(const std::string& text, int rank);

// One Run: rank 0's context (the first rank with a Run otherwise), every rank in
// context.ranks with its host, CPUs, outcome and, on each host's first rank, that host's
// machine model; every result carries its rank and host. Interrupted if any rank was.
Run merge_rank_runs(const std::vector<RankRun>& parts);

// Where rank `rank` writes its own Run beside the merged one: run.json -> run.rank3.json;
// and its journal, run.rank3.jsonl.
std::string rank_output(const std::string& merged, int rank);
std::string rank_journal(const std::string& merged, int rank);

// A rank's part read from its files, where the gather could not happen (a rank died and the
// launcher ended the job): its Run where it wrote one, else the cases its journal kept, with
// that said, else why there is nothing (a file system rank 0 does not see, or it never ran).
RankRun rank_run_from_files(const RankPlace& place, const std::vector<int>& cpus,
                            const std::string& merged);

}  // namespace ridgeline::cluster
