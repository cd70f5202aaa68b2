#pragma once
// What `ridgeline run` and `ridgeline profile` share: the options that choose and time
// cases, and running them into a Run document.
#include <CLI/CLI.hpp>
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/run.hpp"
#include "ridgeline/runner/run_request.hpp"

namespace ridgeline::cluster {
class CollectiveWatch;
class RankWorld;
}  // namespace ridgeline::cluster

namespace ridgeline::cli {

struct RunOptions {
  // What the cases are and how they are timed: parsed here, checked by make_plan.
  RunRequest request;
  std::string output = "run.json";
  bool no_probe = false;
  // Google Benchmark's flags (run_options.cpp).
  std::string format = "console";        // json: the Run also goes to stdout
  std::string out_format = "json";       // the only format a Run has
  bool display_aggregates_only = false;  // accepted; the console already shows aggregates
  bool report_aggregates_only = false;   // the Run keeps only timed cases' aggregate rows
  bool list_tests = false;               // print the planned case names, run nothing
  bool dry_run = false;                  // print the plan and settings, run and write nothing
  // The MPI job this process is a rank of (cluster/ranked_run.hpp), for the collective
  // kernels; null outside a job, where they say why they cannot run.
  const cluster::RankWorld* world = nullptr;
  // Under a launcher: told when each collective case starts and ends at this rank, so that
  // a rank held inside one can be ended from outside the call (cluster/collective_watch.hpp).
  cluster::CollectiveWatch* collective_watch = nullptr;
};

// The command line as given, recorded in every Run (set once by main).
void remember_invocation(int argc, char** argv);
const std::vector<std::string>& invocation();

// What `run` and `profile` exit with, for --help.
inline constexpr const char* kRunExitStatus =
    "Exit status: 0 every case passed or was not supported here; 1 a case was incorrect, "
    "crashed or timed out (the Run is still written); 2 bad usage or input, refused before "
    "anything runs; 130 interrupted (the cases that finished are kept).";

// Registers the case-selection and timing options (and -o unless `with_output` is false).
void add_run_options(CLI::App* sub, RunOptions& opt, bool with_output);

// Plans (bad input fails here, before anything is measured), asks `machine_for_run` for
// the model to embed, runs (progress on stderr) and writes opt.output. Returns the exit
// code: 0; 1 when a case was incorrect, crashed or timed out (the Run is still written);
// 130 when interrupted.
int execute_run(RunOptions& opt,
                const std::function<std::optional<MachineModel>()>& machine_for_run, Run& run);

// Set once SIGINT or SIGTERM stopped the run (a launcher ending the job sends SIGTERM).
const std::atomic<bool>& run_interrupted();

}  // namespace ridgeline::cli
