// ridgeline report: a Run (or any Google Benchmark JSON) on the roofline, as HTML,
// Markdown or CSV; or two runs compared on one roofline (report BASE NEW).
#include <fmt/format.h>

#include <iterator>

#include "commands.hpp"
#include "comparison_options.hpp"
#include "report_writer.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/reports/comparison.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline::cli {

namespace {

// The CSV files `report` writes beside its reports, each one of the model's tables, tidy.
struct CsvFile {
  const char* flag;
  const char* help;
  std::string (*write)(const ReportInput&);
};
constexpr CsvFile kCsvFiles[] = {
    {"--csv-fusion", "Also write the fusion pairs as CSV, one row per pair or unpaired case",
     &fusion_csv},
    {"--csv-sweep", "Also write the eltwise chain's sweeps over L as CSV, one row per point",
     &sweep_csv},
    {"--csv-passes",
     "Also write the unfused chains' passes and the einsum lowerings' lapped steps as CSV, one "
     "row per pass",
     &passes_csv},
    {"--csv-einsum",
     "Also write the einsum comparisons as CSV, one row per contraction and lowering", &einsum_csv},
    {"--csv-einsum-paths",
     "Also write each einsum network's contraction paths as CSV, one row per path",
     &einsum_paths_csv},
};

struct ReportOptions {
  std::vector<std::string> runs;  // RUN, or BASE NEW
  std::string machine;
  std::vector<std::string> outputs;
  std::string format;  // html, md or csv: for outputs whose name does not say (/dev/stdout)
  std::string csv[std::size(kCsvFiles)];  // each CSV file's path, in kCsvFiles' order
  ComparisonOptions judging;              // two runs: --threshold, --alpha, --fail-on
};

std::optional<ReportFormat> forced_format(const ReportOptions& opt) {
  if (opt.format.empty()) return std::nullopt;
  return opt.format == "html" ? ReportFormat::html
         : opt.format == "md" ? ReportFormat::markdown
                              : ReportFormat::csv;
}

void print_written(const std::string& out) {
  // The path of each file written; a stream (-o /dev/stdout) carries the report itself.
  if (!resolve_output_file(out).stream)
    fmt::print("{}\n", escape_visible(std::filesystem::absolute(out).string()));
}

// The run read, with its ceilings: --machine, else the model in the run, else this machine's
// cached probe.
ReportInput report_input(const std::string& path, const std::string& machine_file) {
  Run run = read_run_file(path);
  std::optional<MachineModel> machine;
  std::string origin;
  if (!machine_file.empty()) {
    machine = read_machine_file(machine_file);
    origin = "--machine " + machine_file;
  } else if (run.context.machine) {
    machine = run.context.machine;
    origin = "the model embedded in the run (" + machine->host + ", " + machine->date + ")";
  } else {
    // A cache the user did not name: one that is refused is said, not fatal.
    std::string why;
    std::error_code ec;
    const bool cached = std::filesystem::exists(machine_cache_path(), ec);
    machine = cached_machine(why);
    if (machine)
      origin = "this machine's cached probe (" + machine->date +
               "): the run carries no machine model; give --machine for another machine";
    else if (!cached)
      origin =
          "the run carries no machine model and none is cached here; give --machine machine.json";
    else
      origin = "the run carries no machine model and this machine's cached one is not used (" +
               visible_line(why, 400) + "); give --machine machine.json";
  }
  // After every input is read: a bad one is the only line.
  for (const auto& note : run.notes) fmt::print(stderr, "ridgeline: note: {}\n", note);
  return make_report_input(std::move(run), path, std::move(machine), std::move(origin));
}

// The files a report reads: its runs and --machine.
std::vector<NamedFile> report_inputs(const ReportOptions& opt) {
  std::vector<NamedFile> inputs;
  for (const auto& run : opt.runs) inputs.push_back({"the run", run});
  if (!opt.machine.empty()) inputs.push_back({"--machine", opt.machine});
  return inputs;
}

int run_report(const ReportOptions& opt) {
  if (const std::string o = first_given(opt.judging); !o.empty())
    throw InputError(fmt::format("report: {} judges a comparison: give two runs, BASE NEW", o));
  // Every output is checked before the first is written.
  std::vector<std::string> outputs = opt.outputs;
  if (outputs.empty())
    outputs.push_back(std::filesystem::path(opt.runs[0]).replace_extension(".html").string());
  const std::optional<ReportFormat> forced = forced_format(opt);
  for (const auto& out : outputs) {
    check_output_file(out);
    report_format_of(out, forced);
  }
  std::vector<NamedFile> written;
  for (const auto& out : outputs) written.push_back({"-o", out});
  for (std::size_t i = 0; i < std::size(kCsvFiles); ++i)
    if (!opt.csv[i].empty()) {
      check_output_file(opt.csv[i], kCsvFiles[i].flag);
      written.push_back({kCsvFiles[i].flag, opt.csv[i]});
    }
  check_distinct_files(report_inputs(opt), written);
  const ReportInput input = report_input(opt.runs[0], opt.machine);
  for (const auto& out : outputs) {
    write_report(input, out, forced);
    print_written(out);
  }
  for (std::size_t i = 0; i < std::size(kCsvFiles); ++i) {
    if (opt.csv[i].empty()) continue;
    write_file_atomically(opt.csv[i], kCsvFiles[i].write(input));
    print_written(opt.csv[i]);
  }
  return 0;
}

// report BASE NEW: the comparison as HTML (both runs on one roofline) or Markdown (the step
// summary compare --markdown writes). Not a gate: compare exits on the verdicts.
int run_comparison_report(const ReportOptions& opt) {
  for (std::size_t i = 0; i < std::size(kCsvFiles); ++i)
    if (!opt.csv[i].empty())
      throw InputError(
          fmt::format("report: {} takes one run, not a comparison of two", kCsvFiles[i].flag));
  const ComparisonSettings settings = comparison_settings(opt.judging);
  std::vector<std::string> outputs = opt.outputs;
  if (outputs.empty()) {
    const std::filesystem::path head(opt.runs[1]), base(opt.runs[0]);
    outputs.push_back(
        (head.parent_path() / (head.stem().string() + "-vs-" + base.stem().string() + ".html"))
            .string());
  }
  const std::optional<ReportFormat> forced = forced_format(opt);
  for (const auto& out : outputs) {
    check_output_file(out);
    if (report_format_of(out, forced) == ReportFormat::csv)
      throw InputError(
          fmt::format("report: '{}': a comparison of two runs is written as .html or .md, not CSV "
                      "(compare --json has every number)",
                      out));
  }
  std::vector<NamedFile> written;
  for (const auto& out : outputs) written.push_back({"-o", out});
  check_distinct_files(report_inputs(opt), written);
  const ReportInput base = report_input(opt.runs[0], opt.machine);
  const ReportInput head = report_input(opt.runs[1], opt.machine);
  const RunComparison cmp = compare_runs(base.run, head.run, settings);
  const ComparisonView view{cmp, opt.runs[0], opt.runs[1], fail_on(opt.judging),
                            opt.judging.fail_on};
  for (const auto& out : outputs) {
    write_file_atomically(out, report_format_of(out, forced) == ReportFormat::html
                                   ? comparison_html(base, head, view)
                                   : comparison_markdown(view));
    print_written(out);
  }
  return 0;
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto opt = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand(
      "report",
      "Place a Run (or any Google Benchmark JSON) on the roofline, or compare two on one");
  sub->add_option("runs", opt->runs,
                  "RUN: a Run document, its .jsonl journal, or Google Benchmark JSON; or BASE "
                  "NEW: two of them compared on one roofline (HTML) or as a table (Markdown)")
      ->required()
      ->expected(1, 2);
  sub->add_option("--machine", opt->machine,
                  "Machine model (default: the one in the run, else this machine's)");
  sub->add_option("-o,--output", opt->outputs,
                  "Report file(s): .html, .md or .csv (default: RUN.html, or "
                  "NEW-vs-BASE.html beside NEW)");
  sub->add_option("--format", opt->format,
                  "html, md or csv for every -o, whatever its name (for /dev/stdout, a pipe)")
      ->check(CLI::IsMember({"html", "md", "csv"}));
  for (std::size_t i = 0; i < std::size(kCsvFiles); ++i)
    sub->add_option(kCsvFiles[i].flag, opt->csv[i], kCsvFiles[i].help);
  add_comparison_options(sub, opt->judging);
  return {sub,
          [opt] { return opt->runs.size() == 2 ? run_comparison_report(*opt) : run_report(*opt); }};
}

}  // namespace ridgeline::cli
