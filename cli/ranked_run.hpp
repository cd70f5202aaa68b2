#pragma once
// `ridgeline run` started by an MPI launcher (mpirun, srun): every rank runs the plan on its
// share of its host and writes its own Run and journal beside the one named (run.rank3.json,
// run.rank3.jsonl); rank 0 gathers them and writes the one Run named, whose results carry
// rank and host.
#include "run_support.hpp"

namespace ridgeline::cli {

// The launcher's name when this process was started by one ("" otherwise).
std::string launched_by();

// Runs as one rank of the job; the exit code is this rank's (mpirun reports the worst).
int execute_ranked_run(RunOptions& opt, const std::string& launcher);

// Refuses (InputError, exit 2) a command that has no form under a launcher yet: every rank
// would measure its host at once and write the same files. `what` names the command.
void refuse_under_launcher(const std::string& what);

}  // namespace ridgeline::cli
