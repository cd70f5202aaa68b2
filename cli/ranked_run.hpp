#pragma once
// `ridgeline run` started by an MPI launcher (mpirun, srun): every rank runs the plan on its
// share of its host and writes its own Run and journal beside the one named (run.rank3.json,
// run.rank3.jsonl); rank 0 gathers them and writes the one Run named, whose results carry
// rank and host.
#include <functional>

#include "run_support.hpp"

namespace ridgeline::cli {

// The launcher's name when this process was started by one ("" otherwise).
std::string launched_by();

// Runs as one rank of the job; the exit code is this rank's (mpirun reports the worst).
// `at_root`, where given, is called at rank 0 with the merged Run once it is written
// (`profile` writes its reports from it), while every other rank has returned.
int execute_ranked_run(RunOptions& opt, const std::string& launcher,
                       const std::function<void(Run merged)>& at_root = {});

}  // namespace ridgeline::cli
