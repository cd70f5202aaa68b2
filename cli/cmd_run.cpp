// ridgeline run: expand a suite into cases, run each isolated, write the Run document.
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <ctime>
#include <map>
#include <set>

#include "commands.hpp"
#include "progress.hpp"
#include "ranked_run.hpp"
#include "ridgeline/cluster/collective_kernels.hpp"
#include "ridgeline/cluster/collective_watch.hpp"
#include "ridgeline/cluster/rank_world.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/runner/probe.hpp"
#include "ridgeline/runner/suites.hpp"
#include "run_support.hpp"
#include "terminal.hpp"

namespace ridgeline::cli {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) {
  g_interrupted.store(true);
}

// The number users look at: GFLOP/s of the median (or only) repetition.
std::string headline(const std::vector<CaseResult>& results) {
  const CaseResult* pick = nullptr;
  for (const auto& r : results)
    if (r.run_type == "aggregate" && r.aggregate_name == "median") pick = &r;
  if (!pick)
    for (const auto& r : results)
      if (r.run_type == "iteration") pick = &r;
  if (!pick || !pick->ridgeline) return "";
  const Disposition d = pick->ridgeline->validation.disposition;
  if (d != Disposition::passed) {
    int colour = d == Disposition::not_supported ? 33 : 31;
    return paint(std::string(to_string(d)), colour) + ": " +
           escape_visible(pick->ridgeline->validation.message);
  }
  auto it = pick->counters.find("flops");
  double gflops = it == pick->counters.end() ? 0 : it->second / 1e9;
  return fmt::format("{:8.2f} GFLOP/s  {}", gflops, paint("passed", 32));
}

// The Run's own file, checked before any work: a report format or a journal name would
// get JSON it cannot hold.
OutputFile check_run_output(const std::string& named) {
  const OutputFile out = check_output_file(named);
  const std::string ext = std::filesystem::path(named).extension().string();
  if (ext == ".jsonl")
    throw InputError(fmt::format("-o {}: .jsonl is the journal's name; name the Run .json", named));
  if (report_format_for(named))
    throw InputError(fmt::format(
        "-o {}: ridgeline run writes a Run document (JSON); name it .json and make {} with "
        "`ridgeline report RUN.json -o {}`",
        named, ext, named));
  return out;
}

// Beside the Run (run.jsonl for run.json); where the Run goes to a device or a pipe, in
// the cache directory under a name of its own.
std::filesystem::path journal_for(const OutputFile& out) {
  if (!out.stream) return std::filesystem::path(out.target).replace_extension(".jsonl");
  const std::filesystem::path dir = machine_cache_path().parent_path() / "journals";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return dir / fmt::format("run-{:%Y%m%d-%H%M%S}-{}.jsonl", fmt::localtime(std::time(nullptr)),
                           ::getpid());
}

// --benchmark_report_aggregates_only: timed cases keep their aggregate rows only.
void keep_aggregates_only(Run& run) {
  std::set<std::string> aggregated;
  for (const auto& r : run.benchmarks)
    if (r.run_type == "aggregate") aggregated.insert(r.run_name);
  std::erase_if(run.benchmarks, [&](const CaseResult& r) {
    return r.run_type == "iteration" && aggregated.count(r.run_name);
  });
}

bool failed(Disposition d) {
  return d == Disposition::incorrect || d == Disposition::crashed || d == Disposition::timed_out;
}

}  // namespace

const std::atomic<bool>& run_interrupted() {
  return g_interrupted;
}

std::vector<std::string>& invocation_storage() {
  static std::vector<std::string> args;
  return args;
}

void remember_invocation(int argc, char** argv) {
  invocation_storage().assign(argv, argv + argc);
}

const std::vector<std::string>& invocation() {
  return invocation_storage();
}

int execute_run(RunOptions& opt,
                const std::function<std::optional<MachineModel>()>& machine_for_run, Run& run) {
  const OutputFile output = check_run_output(opt.output);
  {
    std::vector<NamedFile> inputs;
    for (const auto& lib : opt.request.blas_libs) inputs.push_back({"--blas-lib", lib});
    check_distinct_files(inputs, {{"-o", opt.output}});
  }
  RunPlan made = make_plan(opt.request, [&](KernelCatalog& catalog) {
    cluster::add_collective_kernels(catalog, opt.world);
  });
  const KernelCatalog& catalog = made.catalog;
  const std::vector<CaseSpec>& plan = made.cases;
  const RunSettings& settings = made.settings;
  const std::string& suite = made.suite->name;
  // What the user named and this machine cannot count is said before the run, one line per
  // item (--strict made it a problem).
  for (const auto& u : made.uncounted)
    fmt::print(stderr, "ridgeline run: warning: --collect {} will not be counted: {}\n", u.item,
               u.reason);
  if (opt.list_tests) {
    for (const auto& c : plan) fmt::print("{}\n", c.name());
    return 0;
  }
  for (const auto& notice : made.notices) fmt::print(stderr, "ridgeline run: {}\n", notice);

  if (opt.dry_run) {
    fmt::print(
        "{} case{}, suite {}, {} repetition{} of {} each, {} s warm-up, {} s case timeout, "
        "seed {}\nwould write {} (journal {})\ncollect: {}\n",
        plan.size(), plan.size() == 1 ? "" : "s", suite, settings.repetitions,
        settings.repetitions == 1 ? "" : "s",
        settings.iterations ? fmt::format("{} iterations", *settings.iterations)
                            : fmt::format("at least {} s", settings.min_time_s),
        settings.warmup_s, settings.case_timeout_s, settings.seed, escape_visible(opt.output),
        output.stream ? "in the cache directory" : escape_visible(journal_for(output).string()),
        settings.collect.empty() ? "the defaults"
                                 : fmt::format("{}", fmt::join(settings.collect, ",")));
    for (const auto& c : plan) fmt::print("  {}\n", c.name());
    return 0;
  }
  // One writer per Run file: a second `ridgeline run -o` the same file is refused.
  std::optional<OutputLock> lock;
  if (!output.stream) lock.emplace(output.target, "ridgeline run");
  const std::filesystem::path journal = journal_for(output);
  // The previous Run and journal become NAME.prev, so that a killed run leaves no earlier
  // document standing where the new one was to be.
  if (!output.stream) move_aside(output.target);
  move_aside(journal);
  const std::optional<MachineModel> machine = machine_for_run();
  if (machine) {  // the kernels block for the measured caches where hwloc is wrong (a VM)
    use_cache_sizes(cache_sizes_for_kernels(*machine, hwloc_cache_sizes()));
    if (cache_sizes().source != hwloc_cache_sizes().source)
      fmt::print(stderr, "cache sizes for blocking: {}\n", cache_sizes().source);
  }

  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  // Under a launcher every rank runs the same plan: rank 0 alone shows the progress; another
  // rank prints a case only where it failed, with its rank and host, and no closing lines
  // (rank 0's merged Run counts them).
  const cluster::RankPlace* rank = opt.world ? &opt.world->place() : nullptr;
  const bool quiet = rank && rank->rank != 0;
  const bool tty = !quiet && stderr_takes_escapes();
  if (!quiet)
    fmt::print(stderr,
               "ridgeline run: {} case{}, suite {}, {} repetition{}; writing {} (live: {})\n",
               plan.size(), plan.size() == 1 ? "" : "s", suite, settings.repetitions,
               settings.repetitions == 1 ? "" : "s", escape_visible(opt.output),
               escape_visible(journal.string()));
  // Interleaved, each case is started once per round.
  Progress progress(
      plan.size() * static_cast<std::size_t>(settings.interleave ? settings.repetitions : 1), tty);
  RunObserver observer;
  observer.case_started = [&](std::size_t i, std::size_t, const CaseSpec& c) {
    const KernelInfo* info = catalog.find(c.backend, c.problem.op);
    if (opt.collective_watch && info && info->ranks > 0) opt.collective_watch->entered(c);
    if (!quiet) progress.started(i, c.name());
  };
  observer.case_finished = [&](std::size_t i, std::size_t, const CaseSpec& c,
                               const std::vector<CaseResult>& results) {
    if (opt.collective_watch) opt.collective_watch->left();
    if (opt.world) opt.world->tell_progress();  // rank 0 hears that this rank is not hung
    if (!quiet) return progress.finished(i, c.name(), "  " + headline(results));
    for (const CaseResult& r : results)
      if (r.ridgeline && failed(r.ridgeline->validation.disposition)) {
        fmt::print(stderr, "rank {} on {}: {}  {}\n", rank->rank, escape_visible(rank->host),
                   escape_visible(c.name()), headline(results));
        return;
      }
  };
  run = run_plan(catalog, plan, settings, journal, observer, &g_interrupted);
  run.context.machine = machine;
  record_provenance(run.context.provenance, made, invocation());

  std::map<std::string, int> counts;
  std::size_t cases = 0, failures = 0;
  for (const auto& r : run.benchmarks)
    if (r.ridgeline && (r.run_type == "iteration") && r.repetition_index == 0) {
      ++counts[std::string(to_string(r.ridgeline->validation.disposition))];
      ++cases;
      if (failed(r.ridgeline->validation.disposition)) ++failures;
    }
  if (opt.report_aggregates_only) keep_aggregates_only(run);
  write_run_file(output.named, run);
  // Once on standard output, where -o names it too (--benchmark_out=/dev/stdout).
  if (opt.format == "json" && !is_standard_output(output)) fmt::print("{}\n", to_json(run).dump(2));
  std::string summary;
  for (const auto& [k, v] : counts)
    summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", v, k);
  if (!quiet)
    progress.close(fmt::format("wrote {} ({} of {} cases: {})", escape_visible(opt.output), cases,
                               plan.size(), summary.empty() ? "none" : summary));
  if (run.context.interrupted) {
    if (!quiet)
      fmt::print(stderr, "interrupted: the cases that finished are kept in {}\n",
                 escape_visible(opt.output));
    return 130;
  }
  if (failures > 0 && quiet) return 1;
  if (failures > 0) {
    fmt::print(stderr, "{} of {} cases failed (incorrect, crashed or timed out): exit status 1\n",
               failures, cases);
    return 1;
  }
  return 0;
}

Command add_run_command(CLI::App& app) {
  auto opt = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand("run", "Run a suite of cases and write a Run document");
  add_run_options(sub, *opt, true);
  sub->footer(kRunExitStatus);
  return {sub, [opt] {
            if (const std::string launcher = cluster::mpi_launcher(); !launcher.empty())
              return execute_ranked_run(*opt, launcher);
            Run run;
            return execute_run(
                *opt,
                [&] {
                  MachineChoice machine = this_machine(!opt->no_probe, false);
                  if (!machine.model) fmt::print(stderr, "no machine model: {}\n", machine.origin);
                  return machine.model;
                },
                run);
          }};
}

}  // namespace ridgeline::cli
