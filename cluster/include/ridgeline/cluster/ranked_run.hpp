#pragma once
// `ridgeline run` started by an MPI launcher (mpirun, srun): every rank runs the plan on its
// share of its host and writes its own Run and journal beside the one named (run.rank3.json,
// run.rank3.jsonl); rank 0 gathers them and writes the one Run named, whose results carry
// rank and host (docs/cluster.md). The job is this module's; planning and running the cases
// (the runner's), choosing the machine and printing stay the caller's, behind the functions
// it gives.
#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run.hpp"
#include "ridgeline/runner/run_request.hpp"

namespace ridgeline::cluster {

class CollectiveWatch;
class RankWorld;

// What the job gives one rank's plan.
struct RankAssignment {
  std::string output;                // the Run this rank writes: run.rank3.json
  std::optional<RankOrigin> origin;  // stamped on every row (none where the plan is shown)
  const RankWorld* world = nullptr;  // the job, for the collective kernels
  // Told when each collective case starts and ends here (null where the plan is shown).
  CollectiveWatch* watch = nullptr;
  // The model to embed: the host's first rank probes (or reads the cache) while the host's
  // other ranks wait, then they read what it cached.
  std::function<std::optional<MachineModel>()> machine;
};

struct RankedRun {
  std::string launcher;  // who started the job, named in messages
  std::string output;    // the merged Run; each rank's own goes beside it
  // What each rank plans and runs: its case time limit bounds a collective case; whether its
  // cases run isolated (runs_isolated) bounds rank 0's wait at the end.
  const RunRequest* request = nullptr;
  bool no_probe = false;
  bool show_only = false;  // the plan shown, not run: rank 0 shows it once, nothing written
  const std::atomic<bool>* stopped = nullptr;  // SIGINT or SIGTERM (the job being ended)
  // This host's model: the cached one, or a probe's where `probe`; nullopt with `why_none`.
  std::function<std::optional<MachineModel>(bool probe, std::string& why_none)> choose_machine;
  // Plans and runs the cases as this rank into `run`; the exit code. Bad input throws
  // InputError (every rank was given the same command line, so every rank stops there).
  std::function<int(const RankAssignment& rank, Run& run)> run_plan;
  // The job's lines for standard error, one at a time (also from the watch's thread).
  std::function<void(const std::string& line)> say;
  // Where given, called at rank 0 with the merged Run once it is written, while every other
  // rank has returned.
  std::function<void(Run merged)> at_root;
};

// Runs as one rank of the job; the exit code is this rank's (the launcher reports the worst).
// Refused (InputError) where the build has no MPI or the merged Run would go to a stream.
int run_ranked(const RankedRun& job);

}  // namespace ridgeline::cluster
