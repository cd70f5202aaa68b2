// ridgeline compare BASE NEW: every case's verdict (analysis/run_comparison.hpp) in the
// terminal, as JSON, Markdown and JUnit (reports/comparison.hpp), and an exit code a CI
// pipeline gates on (docs/compare.md).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "comparison_options.hpp"
#include "number_checks.hpp"
#include "ridgeline/analysis/calibration.hpp"
#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/analysis/run_history.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/core/thresholds.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/reports/comparison.hpp"
#include "ridgeline/reports/escape.hpp"

namespace ridgeline::cli {

namespace {

struct CompareOptions {
  std::vector<std::string> files;  // BASE NEW, or the runs to calibrate on
  std::string base, head;
  bool calibrate = false;
  bool history = false;
  int last = 5;                            // --history: runs pooled as the newest run's baseline
  std::string output = "thresholds.json";  // --calibrate's
  ComparisonOptions judging;               // --threshold, --alpha, --fail-on
  std::string json, markdown, junit;
  bool all = false;
  bool allow_empty = false;  // two runs with no case in common pass
};

int run_calibrate(const CompareOptions& opt, const ComparisonSettings& settings) {
  if (opt.files.size() < 2)
    throw InputError(fmt::format(
        "compare --calibrate needs at least two runs of the same code, got {}", opt.files.size()));
  if (!settings.case_thresholds.empty())
    throw InputError("compare --calibrate: --threshold takes a fraction here, not a file");
  check_output_file(opt.output);
  std::vector<NamedFile> inputs = threshold_inputs(opt.judging);
  for (const auto& f : opt.files) inputs.push_back({"the run", f});
  check_distinct_files(inputs, {{"-o", opt.output}});
  const std::vector<RunCases> runs =
      read_run_cases(std::vector<std::filesystem::path>(opt.files.begin(), opt.files.end()));
  const Calibration cal = calibrate(runs, settings);
  fmt::print("{}", calibration_text(cal, settings.threshold, runs.size()));
  write_file_atomically(opt.output, thresholds_to_json(thresholds_of(cal, settings.threshold)));
  if (!resolve_output_file(opt.output).stream)
    fmt::print("{}\n", escape_visible(std::filesystem::absolute(opt.output).string()));
  return 0;
}

// --history's runs: the files as given, or every .json in one directory ordered by the date
// each run records (then by name).
std::vector<std::string> history_files(const std::vector<std::string>& given,
                                       std::vector<RunCases>& runs) {
  std::vector<std::string> files = given;
  std::error_code ec;
  const bool folder = given.size() == 1 && std::filesystem::is_directory(given[0], ec);
  // A file there that is not a run is left out, said, not fatal: so is an entry named .json
  // that cannot be one (a symbolic link loop or to nothing, a FIFO, a directory).
  std::vector<std::pair<std::filesystem::path, std::string>> skipped;
  if (folder) {
    files.clear();
    std::filesystem::directory_iterator it(given[0], ec), end;
    if (ec)
      throw InputError(fmt::format("compare --history {}: cannot list the folder: {}",
                                   visible_line(given[0], 300), ec.message()));
    for (; it != end; it.increment(ec)) {
      if (it->path().extension() != ".json") continue;
      std::error_code kind;
      const auto status = it->status(kind);  // through a link, as reading it would
      if (kind)
        skipped.emplace_back(it->path(), "cannot be followed: " + kind.message());
      else if (!std::filesystem::is_regular_file(status))
        skipped.emplace_back(it->path(), "not a regular file");
      else
        files.push_back(it->path().string());
    }
    if (ec)
      throw InputError(fmt::format("compare --history {}: cannot list the folder: {}",
                                   visible_line(given[0], 300), ec.message()));
    std::sort(files.begin(), files.end());
    std::sort(skipped.begin(), skipped.end());
  }
  const std::vector<std::filesystem::path> paths(files.begin(), files.end());
  if (folder) {
    runs = read_run_cases_skipping(paths, skipped);
    for (const auto& [file, why] : skipped) {
      fmt::print(stderr, "ridgeline compare: warning: {} left out of the history: {}\n",
                 visible_line(file.string(), 300), visible_line(why, 300));
      std::erase(files, file.string());
    }
  } else {
    runs = read_run_cases(paths);
  }
  std::vector<std::pair<std::string, std::size_t>> order;  // date, index
  for (const auto& run : runs) order.emplace_back(run.context.date, order.size());
  if (runs.size() < 2)
    throw InputError(fmt::format("compare --history needs at least two runs, found {}{}",
                                 runs.size(), given.size() == 1 ? " in " + given[0] : ""));
  if (given.size() == 1) {  // a directory: by date
    std::stable_sort(order.begin(), order.end());
    std::vector<RunCases> sorted;
    std::vector<std::string> names;
    for (const auto& [date, i] : order) {
      sorted.push_back(std::move(runs[i]));
      names.push_back(files[i]);
    }
    runs = std::move(sorted);
    files = std::move(names);
  }
  return files;
}

int run_history_command(const CompareOptions& opt, const ComparisonSettings& settings, FailOn on) {
  if (opt.last < 1) throw InputError(fmt::format("--last: {} is not a count of runs", opt.last));
  std::vector<RunCases> runs;
  const auto files = history_files(opt.files, runs);
  const RunHistory h = run_history(runs, settings, opt.last);
  fmt::print("{}", history_text({h, files, on, opt.judging.fail_on, opt.all}));
  return gate_fails(h.latest, on) ? 1 : 0;
}

int run_compare(CompareOptions opt) {
  const ComparisonSettings settings = comparison_settings(opt.judging);
  const FailOn on = fail_on(opt.judging);
  if (opt.calibrate && opt.history)
    throw InputError("compare: --calibrate and --history are two different jobs; give one");
  if (opt.calibrate) return run_calibrate(opt, settings);
  if (opt.history) return run_history_command(opt, settings, on);
  if (opt.files.size() != 2)
    throw InputError(fmt::format("compare takes two runs, BASE and NEW; got {}{}", opt.files.size(),
                                 opt.files.size() > 2 ? " (--calibrate takes several)" : ""));
  opt.base = opt.files[0];
  opt.head = opt.files[1];
  const std::pair<const std::string*, std::string (*)(const ComparisonView&)> files[] = {
      {&opt.json, &comparison_json},
      {&opt.markdown, &comparison_markdown},
      {&opt.junit, &comparison_junit}};
  std::vector<NamedFile> outputs;
  for (const auto& [flag, path] :
       {std::pair{"--json", &opt.json}, {"--markdown", &opt.markdown}, {"--junit", &opt.junit}})
    if (!path->empty()) {
      check_output_file(*path, flag);  // every output checked before any input
      outputs.push_back({flag, *path});
    }
  std::vector<NamedFile> inputs = threshold_inputs(opt.judging);
  inputs.push_back({"the base run", opt.base});
  inputs.push_back({"the new run", opt.head});
  check_distinct_files(inputs, outputs);
  const std::vector<RunCases> runs = read_run_cases({opt.base, opt.head});
  const RunComparison cmp = compare_runs(runs[0], runs[1], settings);
  if (cmp.cases.empty() && !cmp.added.empty() && !cmp.removed.empty())
    fmt::print(stderr,
               "ridgeline: note: no case of {} is in {}: are these runs of the same suite?\n",
               escape_visible(opt.head), escape_visible(opt.base));
  const ComparisonView view{cmp,     opt.base,       opt.head, on, opt.judging.fail_on,
                            opt.all, opt.allow_empty};
  fmt::print("{}", comparison_text(view));
  for (const auto& [path, write] : files) {
    if (path->empty()) continue;
    write_file_atomically(*path, write(view));
    if (!resolve_output_file(*path).stream)
      fmt::print("{}\n", escape_visible(std::filesystem::absolute(*path).string()));
  }
  if (cmp.cases.empty() && !opt.allow_empty)  // nothing compared is not a pass
    fmt::print(stderr,
               "ridgeline compare: no case is in both runs: nothing was compared, so nothing "
               "passed (--allow-empty accepts this)\n");
  return gate_fails(cmp, on, opt.allow_empty) ? 1 : 0;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto opt = std::make_shared<CompareOptions>();
  CLI::App* sub = app.add_subcommand(
      "compare",
      "Compare two runs case by case and gate on regressions (exit 1 when the gate fails)");
  sub->add_option(
         "runs", opt->files,
         "BASE NEW: the base Run (or its .jsonl journal, or Google Benchmark JSON) and "
         "the new one judged against it; with --calibrate, repeated runs of the same code; "
         "with --history, runs over time or a directory of them")
      ->required();
  add_comparison_options(sub, opt->judging);
  sub->add_flag("--calibrate", opt->calibrate,
                "A/A: compare every pair of the runs given (the same code), measure each case's "
                "noise floor and write per-case thresholds to -o");
  sub->add_flag("--history", opt->history,
                "Runs of one suite over time (oldest first, or a directory, ordered by each "
                "run's date): each case's steps, and the newest run against the runs before it");
  sub->add_option("--last", opt->last,
                  "--history: how many runs before the newest are pooled as its baseline "
                  "(default 5)")
      ->check(finite_between(1, 100000, "runs"));  // the number as written, not as converted
  sub->add_option("-o,--output", opt->output,
                  "The thresholds file --calibrate writes (default thresholds.json)");
  sub->add_option("--json", opt->json, "Also write the comparison as JSON");
  sub->add_option("--markdown", opt->markdown,
                  "Also write it as Markdown (for $GITHUB_STEP_SUMMARY: under 1 MiB)");
  sub->add_option(
      "--junit", opt->junit,
      "Also write it as JUnit XML: one testcase per case, a failure where the gate fails");
  sub->add_flag("--all", opt->all, "List the unchanged cases too");
  sub->add_flag("--allow-empty", opt->allow_empty,
                "Pass two runs with no case in common (else exit 1: nothing was compared)");
  return {sub, [opt] { return run_compare(*opt); }};
}

}  // namespace ridgeline::cli
