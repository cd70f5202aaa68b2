#pragma once
// `ridgeline run` (and `profile`) started by an MPI launcher: the job is the cluster module's
// (ridgeline/cluster/ranked_run.hpp); here the options it is given, the plan each rank runs
// and the lines it prints.
#include <functional>

#include "run_support.hpp"

namespace ridgeline::cli {

// Runs as one rank of the job; the exit code is this rank's (mpirun reports the worst).
// `at_root`, where given, is called at rank 0 with the merged Run once it is written
// (`profile` writes its reports from it), while every other rank has returned.
int execute_ranked_run(RunOptions& opt, const std::string& launcher,
                       const std::function<void(Run merged)>& at_root = {});

}  // namespace ridgeline::cli
