// ridgeline profile: the main job. Probe (cached per machine), run the default suite,
// write the reports, print a summary and the report's path.
#include <fmt/format.h>

#include "commands.hpp"
#include "ranked_run.hpp"
#include "report_writer.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "run_support.hpp"

namespace ridgeline::cli {

namespace {

struct ProfileOptions {
  RunOptions run;
  std::string directory = "ridgeline-profile";
  bool force_probe = false;
};

// The dashboard that came with this ridgeline: installed beside it, or in the build tree's
// gui/ next to cli/; "" where there is none, or only the stub of a build without Qt.
std::string dashboard_beside(const std::string& executable) {
  if (!RIDGELINE_QT_BUILT) return "";
  const std::filesystem::path dir = std::filesystem::path(executable).parent_path();
  std::error_code ec;
  for (const auto& candidate : {dir / "ridgeline-gui", dir.parent_path() / "gui" / "ridgeline-gui"})
    if (std::filesystem::is_regular_file(candidate, ec))
      return candidate.lexically_normal().string();
  return "";
}

// The reports of `run` in the profile's directory, the summary and the paths.
void write_profile(const ProfileOptions& opt, Run run, std::optional<MachineModel> model,
                   std::string origin) {
  const std::filesystem::path dir(opt.directory);
  ReportInput input =
      make_report_input(std::move(run), opt.run.output, std::move(model), std::move(origin));
  const auto html = dir / "report.html";
  write_report(input, html);
  write_report(input, dir / "report.md");
  write_report(input, dir / "report.csv");
  // The fusion tables beside report.csv, whose columns stay per case.
  if (!input.fusion.pairs.empty() || !input.fusion.unpaired.empty())
    write_file_atomically(dir / "fusion.csv", fusion_csv(input));
  if (!input.fusion.eltwise_sweeps.empty())
    write_file_atomically(dir / "sweep.csv", sweep_csv(input));
  // Passes where a chain or a lowering lapped its steps: more than the header.
  if (const std::string passes = passes_csv(input); passes.find('\n') + 1 < passes.size())
    write_file_atomically(dir / "passes.csv", passes);
  if (!input.einsum.empty()) write_file_atomically(dir / "einsum.csv", einsum_csv(input));
  if (!input.einsum_networks.empty())
    write_file_atomically(dir / "einsum-paths.csv", einsum_paths_csv(input));
  fmt::print("{}\n", terminal_summary(input));
  if (const std::string busy = busy_machine_warning(input); !busy.empty())
    fmt::print(stderr, "ridgeline: warning: {}\n", busy);
  const std::string run_path = std::filesystem::absolute(opt.run.output).string();
  if (const std::string gui = dashboard_beside(input.run.context.executable); !gui.empty())
    fmt::print("Dashboard: {} {}\n", gui, escape_visible(run_path));
  fmt::print("Run:    {}\nReport: {}\n", escape_visible(run_path),
             escape_visible(std::filesystem::absolute(html).string()));
}

int run_profile(ProfileOptions& opt) {
  const std::filesystem::path dir(opt.directory);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(fmt::format("-d {}: cannot create: {}", dir.string(), ec.message()));
  opt.run.output = (dir / "run.json").string();
  if (const std::string launcher = cluster::mpi_launcher(); !launcher.empty()) {
    // Every rank runs the suite (each host's first rank probes it, or reads its cache); rank 0
    // writes the reports from the merged Run, under its own host's model.
    if (opt.force_probe)
      throw InputError(fmt::format(
          "--force-probe under {}: re-measure each host first with `mpirun ... ridgeline probe "
          "--force` (one rank per host probes)",
          launcher));
    return execute_ranked_run(opt.run, launcher, [&](Run merged) {
      std::optional<MachineModel> model = merged.context.machine;
      const std::string origin =
          model ? "rank 0's host (" + model->host + ")" : "none: no host's model reached rank 0";
      write_profile(opt, std::move(merged), std::move(model), origin);
    });
  }
  MachineChoice machine;
  Run run;
  const int rc = execute_run(
      opt.run,
      [&] {
        machine = this_machine(true, opt.force_probe);
        return machine.model;
      },
      run);
  write_profile(opt, std::move(run), machine.model, machine.origin);
  return rc;
}

}  // namespace

Command add_profile_command(CLI::App& app) {
  auto opt = std::make_shared<ProfileOptions>();
  CLI::App* sub = app.add_subcommand(
      "profile", "The main job: probe (cached), run the default suite, write and print the report");
  sub->add_option("-d,--directory", opt->directory, "Where run.json and the reports go")
      ->capture_default_str();
  sub->add_flag("--force-probe", opt->force_probe,
                "Re-measure the machine even if a model is cached");
  add_run_options(sub, opt->run, false);
  sub->footer(kRunExitStatus);
  return {sub, [opt] { return run_profile(*opt); }};
}

}  // namespace ridgeline::cli
