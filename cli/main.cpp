// ridgeline: the command. Subcommands live in cmd_*.cpp; this file parses and maps
// errors to exit codes (2 for bad usage or input, 1 for a failed check, 0 otherwise).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/core/standard_fds.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "run_support.hpp"

namespace {

// Bad usage or input: one line, exit 2. Under mpirun every rank was given the same command
// line and finds the same fault: rank 0 says it. The others wait before exiting, because
// mpirun ends the whole job at the first rank that exits non-zero, which could be before
// rank 0 has printed; once rank 0 has exited, mpirun ends them. A rank still alive after
// the wait found a fault rank 0 did not (a file missing on its node): it says its own.
int bad_input(const std::string& message) {
  if (const int rank = ridgeline::cluster::launcher_rank(); rank > 0) {
    std::this_thread::sleep_for(std::chrono::seconds(5));
    fmt::print(stderr, "ridgeline: rank {}: {}\n", rank, ridgeline::visible_line(message));
    return 2;
  }
  fmt::print(stderr, "ridgeline: {}\n", ridgeline::visible_line(message));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const ridgeline::StandardFds fds = ridgeline::reserve_standard_fds();
  // The loader has read LD_LIBRARY_PATH before main(): what it brought in is said, once.
  if (const std::string w = ridgeline::library_path_warning(std::getenv("LD_LIBRARY_PATH"));
      !w.empty() && ridgeline::cluster::launcher_rank() <= 0)
    fmt::print(stderr, "ridgeline: {}\n", ridgeline::visible_line(w));
  CLI::App app{"Ridgeline: matmul ladder, vendor BLAS and roofline profiling", "ridgeline"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("ridgeline ") + RIDGELINE_VERSION);
  const std::vector<ridgeline::cli::Command> commands{
      ridgeline::cli::add_list_command(app),    ridgeline::cli::add_run_command(app),
      ridgeline::cli::add_probe_command(app),   ridgeline::cli::add_report_command(app),
      ridgeline::cli::add_profile_command(app), ridgeline::cli::add_collectors_command(app),
      ridgeline::cli::add_compare_command(app), ridgeline::cli::add_einsum_command(app),
      ridgeline::cli::add_fleet_command(app)};
  // Tools written for Google Benchmark binaries (compare.py) run `ridgeline --benchmark_out=...
  // [their options]`: options with no subcommand before them mean `run`.
  ridgeline::cli::remember_invocation(argc, argv);
  std::vector<std::string> args(argv + 1, argv + argc);
  const auto top_level = [](const std::string& a) {
    return a == "-h" || a == "--help" || a == "--help-all" || a == "--version";
  };
  if (!args.empty() && args.front().rfind("--", 0) == 0 && !top_level(args.front()))
    args.insert(args.begin(), "run");
  // An empty value after '=' (--filter=): CLI11 would take the next argument as the value
  // (`--filter= --dry-run` ran real cases). Said, not guessed at.
  for (const std::string& a : args)
    if (a.size() > 3 && a.rfind("--", 0) == 0 && a.find('=') == a.size() - 1)
      return bad_input(
          fmt::format("{} has an empty value: give one ({}VALUE) or leave the option out", a, a));
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments in reverse order
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return bad_input(e.what());
  }
  try {
#if defined(__x86_64__)
    if (!ridgeline::cpu_features().has_avx2_fma()) {
      fmt::print(stderr, "ridgeline: this CPU lacks AVX2/FMA; Ridgeline needs an x86-64-v3 CPU\n");
      return 2;
    }
#endif
    for (const auto& command : commands) {
      if (!command.app->parsed()) continue;
      // list and collectors print what they are for: with standard output closed, as cat.
      const std::string name = command.app->get_name();
      if (fds.output_closed && (name == "list" || name == "collectors")) {
        fmt::print(stderr, "ridgeline {}: standard output is closed\n", name);
        return 1;
      }
      return command.run();
    }
  } catch (const ridgeline::InputError& e) {
    // File names, patterns and libraries' names from outside are in these: one rule for all.
    return bad_input(e.what());
  } catch (const std::exception& e) {
    fmt::print(stderr, "ridgeline: internal error: {}\n", ridgeline::visible_line(e.what()));
    return 1;
  }
  return 0;
}
