// ridgeline report: a Run (or any Google Benchmark JSON) on the roofline, as HTML,
// Markdown or CSV.
#include <fmt/format.h>

#include "commands.hpp"
#include "report_writer.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline::cli {

namespace {

struct ReportOptions {
  std::string run;
  std::string machine;
  std::vector<std::string> outputs;
  std::string format;  // html, md or csv: for outputs whose name does not say (/dev/stdout)
  std::string csv_fusion, csv_sweep;  // the fusion pairs and the eltwise sweeps as CSV
};

int run_report(const ReportOptions& opt) {
  // Every output is checked before the first is written.
  std::vector<std::string> outputs = opt.outputs;
  if (outputs.empty())
    outputs.push_back(std::filesystem::path(opt.run).replace_extension(".html").string());
  std::optional<ReportFormat> forced;
  if (!opt.format.empty())
    forced = opt.format == "html" ? ReportFormat::html
             : opt.format == "md" ? ReportFormat::markdown
                                  : ReportFormat::csv;
  for (const auto& out : outputs) {
    check_output_file(out);
    report_format_of(out, forced);
  }
  for (const auto& out : {opt.csv_fusion, opt.csv_sweep})
    if (!out.empty()) check_output_file(out);
  Run run = read_run_file(opt.run);
  for (const auto& note : run.notes) fmt::print(stderr, "ridgeline: note: {}\n", note);
  std::optional<MachineModel> machine;
  std::string origin;
  if (!opt.machine.empty()) {
    machine = read_machine_file(opt.machine);
    origin = "--machine " + opt.machine;
  } else if (run.context.machine) {
    machine = run.context.machine;
    origin = "the model embedded in the run (" + machine->host + ", " + machine->date + ")";
  } else {
    std::error_code ec;
    const auto cache = machine_cache_path();
    if (std::filesystem::exists(cache, ec)) {
      machine = read_machine_file(cache);
      origin = "this machine's cached probe (" + machine->date +
               "): the run carries no machine model; give --machine for another machine";
    } else {
      origin =
          "the run carries no machine model and none is cached here; give --machine machine.json";
    }
  }
  ReportInput input = make_report_input(std::move(run), opt.run, machine, origin);
  for (const auto& out : outputs) {
    write_report(input, out, forced);
    // The path of each file written; a stream (-o /dev/stdout) carries the report itself.
    if (!resolve_output_file(out).stream)
      fmt::print("{}\n", std::filesystem::absolute(out).string());
  }
  for (const auto& [out, text] :
       {std::pair{opt.csv_fusion, &fusion_csv}, std::pair{opt.csv_sweep, &sweep_csv}}) {
    if (out.empty()) continue;
    write_file_atomically(out, text(input));
    if (!resolve_output_file(out).stream)
      fmt::print("{}\n", std::filesystem::absolute(out).string());
  }
  return 0;
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto opt = std::make_shared<ReportOptions>();
  CLI::App* sub =
      app.add_subcommand("report", "Place a Run (or any Google Benchmark JSON) on the roofline");
  sub->add_option("run", opt->run, "Run document, its .jsonl journal, or Google Benchmark JSON")
      ->required();
  sub->add_option("--machine", opt->machine,
                  "Machine model (default: the one in the run, else this machine's)");
  sub->add_option("-o,--output", opt->outputs,
                  "Report file(s): .html, .md or .csv (default: RUN.html)");
  sub->add_option("--format", opt->format,
                  "html, md or csv for every -o, whatever its name (for /dev/stdout, a pipe)")
      ->check(CLI::IsMember({"html", "md", "csv"}));
  sub->add_option("--csv-fusion", opt->csv_fusion,
                  "Also write the fusion pairs as CSV, one row per pair or unpaired case");
  sub->add_option("--csv-sweep", opt->csv_sweep,
                  "Also write the eltwise chain's sweeps over L as CSV, one row per point");
  return {sub, [opt] { return run_report(*opt); }};
}

}  // namespace ridgeline::cli
