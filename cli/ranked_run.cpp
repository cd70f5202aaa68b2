#include "ranked_run.hpp"

#include <fmt/format.h>

#include "ridgeline/cluster/ranked_run.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline::cli {

int execute_ranked_run(RunOptions& opt, const std::string& launcher,
                       const std::function<void(Run merged)>& at_root) {
  // The Run on standard output (--benchmark_format json) is the merged one, from rank 0: each
  // rank's own would interleave there.
  const bool merged_to_stdout = opt.format == "json";
  const std::string merged = opt.output;
  cluster::RankedRun job;
  job.launcher = launcher;
  job.output = merged;
  job.request = &opt.request;
  job.no_probe = opt.no_probe;
  job.show_only = opt.dry_run || opt.list_tests;
  job.stopped = &run_interrupted();
  job.choose_machine = [](bool probe, std::string& why_none) {
    MachineChoice machine = this_machine(probe, false);
    if (!machine.model) why_none = machine.origin;
    return machine.model;
  };
  job.run_plan = [&opt](const cluster::RankAssignment& rank, Run& run) {
    opt.format = "console";
    opt.output = rank.output;
    opt.request.origin = rank.origin;
    opt.world = rank.world;
    opt.collective_watch = rank.watch;
    return execute_run(opt, rank.machine, run);
  };
  job.say = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  job.at_root = [&](Run run) {
    if (merged_to_stdout && !is_standard_output(resolve_output_file(merged)))
      fmt::print("{}\n", to_json(run).dump(2));
    opt.output = merged;  // what the caller names from here on (profile's paths)
    if (at_root) at_root(std::move(run));
  };
  return cluster::run_ranked(job);
}

}  // namespace ridgeline::cli
