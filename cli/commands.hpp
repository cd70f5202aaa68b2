#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace ridgeline::cli {

// A subcommand and what to do when it is the one given.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};
Command add_list_command(CLI::App& app);
Command add_run_command(CLI::App& app);
Command add_probe_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_profile_command(CLI::App& app);
Command add_collectors_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_einsum_command(CLI::App& app);
Command add_fleet_command(CLI::App& app);

}  // namespace ridgeline::cli
