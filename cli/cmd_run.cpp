// ridgeline run: expand a suite into cases, run each isolated, write the Run document.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <map>

#include "blas_probe.hpp"
#include "commands.hpp"
#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/counter_group.hpp"
#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/kernels/ceilings.hpp"
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
    return paint(std::string(to_string(d)), colour) + ": " + pick->ridgeline->validation.message;
  }
  auto it = pick->counters.find("flops");
  double gflops = it == pick->counters.end() ? 0 : it->second / 1e9;
  return fmt::format("{:8.2f} GFLOP/s  {}", gflops, paint("passed", 32));
}

// Fails before any case runs, not after the last one.
void check_writable_output(const std::filesystem::path& output) {
  std::error_code ec;
  const std::filesystem::path dir = output.parent_path().empty() ? "." : output.parent_path();
  if (std::filesystem::is_directory(output, ec))
    throw InputError(fmt::format("-o {}: is a directory", output.string()));
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError(
        fmt::format("-o {}: directory {} does not exist", output.string(), dir.string()));
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError(
        fmt::format("-o {}: directory {} is not writable", output.string(), dir.string()));
}

}  // namespace

int execute_run(RunOptions& opt,
                const std::function<std::optional<MachineModel>()>& machine_for_run, Run& run) {
  for (const auto& s : opt.shapes) opt.plan.shapes.push_back(parse_shape(s));
  if (opt.repetitions && *opt.repetitions < 1)
    throw InputError(fmt::format("--repetitions {}: must be at least 1", *opt.repetitions));
  if (opt.min_time && *opt.min_time < 0)
    throw InputError(fmt::format("--min-time {}: must not be negative", *opt.min_time));
  if (opt.settings.case_timeout_s <= 0)
    throw InputError(
        fmt::format("--case-timeout {}: must be positive", opt.settings.case_timeout_s));
  if (!opt.group.empty()) {
    const CpuIdentity cpu = cpu_identity();
    opt.settings.group = load_counter_group(
        counter_groups_dir(), counter_group_arch(cpu.vendor, cpu.family, cpu.model), opt.group);
    for (const auto& e : opt.settings.group->events) {
      const std::string item = e.collect_item();
      if (std::find(opt.settings.collect.begin(), opt.settings.collect.end(), item) ==
          opt.settings.collect.end())
        opt.settings.collect.push_back(item);
    }
  }
  make_collectors(opt.settings.collect);  // an unknown collector fails here, before anything runs
  std::vector<BlasLibrarySpec> blas = blas_libraries_for(opt.blas_libs);
  // A user library joins the suite's rungs unless --backend already chose.
  KernelCatalog catalog = KernelCatalog::with_builtin_kernels(blas);
  std::vector<CaseSpec> plan = make_plan(catalog, opt.plan);
  if (plan.empty()) throw InputError("no case matches the given suite and filters");
  const SuiteDefinition* suite = find_suite(opt.plan.suite);
  opt.settings.repetitions = opt.repetitions.value_or(suite->repetitions);
  opt.settings.min_time_s = opt.min_time.value_or(suite->min_time_s);
  opt.settings.isolate = !opt.no_isolation;
  if (likwid_marker_active() && opt.settings.isolate) {
    // A forked child's marker regions never reach the file likwid-perfctr reads.
    opt.settings.isolate = false;
    fmt::print(stderr,
               "ridgeline run: under likwid-perfctr -m: cases run in this process so LIKWID sees "
               "each one's marker region (a crashing kernel ends the run)\n");
  }

  std::filesystem::path output(opt.output);
  check_writable_output(output);
  const std::optional<MachineModel> machine = machine_for_run();
  std::filesystem::path journal = output;
  journal.replace_extension(".jsonl");
  std::error_code ec;
  if (std::filesystem::exists(journal, ec))
    std::filesystem::rename(journal, journal.string() + ".prev", ec);

  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  const bool tty = stderr_is_terminal();
  fmt::print(stderr, "ridgeline run: {} cases, suite {}, {} repetitions; writing {} (live: {})\n",
             plan.size(), opt.plan.suite, opt.settings.repetitions, output.string(),
             journal.string());
  RunObserver observer;
  observer.case_started = [&](std::size_t i, std::size_t n, const CaseSpec& c) {
    if (tty) fmt::print(stderr, "\r\033[K[{}/{}] {} ...", i + 1, n, c.name());
  };
  observer.case_finished = [&](std::size_t i, std::size_t n, const CaseSpec& c,
                               const std::vector<CaseResult>& results) {
    fmt::print(stderr, "{}[{}/{}] {}  {}\n", tty ? "\r\033[K" : "", i + 1, n, c.name(),
               headline(results));
  };
  run = run_plan(catalog, plan, opt.settings, journal, observer, &g_interrupted);
  run.context.machine = machine;
  write_run_file(output, run);

  std::map<std::string, int> counts;
  std::size_t cases = 0;
  for (const auto& r : run.benchmarks)
    if (r.ridgeline && (r.run_type == "iteration") && r.repetition_index == 0) {
      ++counts[std::string(to_string(r.ridgeline->validation.disposition))];
      ++cases;
    }
  std::string summary;
  for (const auto& [k, v] : counts)
    summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", v, k);
  fmt::print(stderr, "{}wrote {} ({} of {} cases: {})\n", tty ? "\r\033[K" : "", output.string(),
             cases, plan.size(), summary.empty() ? "none" : summary);
  if (run.context.interrupted) {
    fmt::print(stderr, "interrupted: the cases that finished are kept in {}\n", output.string());
    return 130;
  }
  return 0;
}

MachineChoice this_machine(bool probe_if_missing, bool force) {
  std::error_code ec;
  if (!probe_if_missing && !force && !std::filesystem::exists(machine_cache_path(), ec))
    return {std::nullopt,
            "none cached for this machine and --no-probe given; run `ridgeline probe`"};
  bool from_cache = false;
  if (!std::filesystem::exists(machine_cache_path(), ec) || force)
    fmt::print(stderr, "probing this machine's ceilings (cached afterwards; about 15 s)\n");
  MachineModel m = cached_or_probed_machine(
      force, {}, [](const std::string& line) { fmt::print(stderr, "  {}\n", line); }, from_cache);
  return {
      m, from_cache ? "this machine's cached probe (" + m.date + ")" : "a probe made for this run"};
}

void add_run_options(CLI::App* sub, RunOptions& o, bool with_output) {
  RunOptions* opt = &o;
  sub->add_option("--suite", opt->plan.suite, "Suite: smoke, default, ladder, blas")
      ->capture_default_str();
  sub->add_option("--filter,--benchmark_filter", opt->plan.filter,
                  "Keep cases whose name matches this regex (ECMAScript)");
  auto* backends =
      sub->add_option("--backend", opt->plan.backends,
                      "Backends, e.g. cpu.packed,blas.openblas (comma-separated or repeated)");
  auto* dtypes = sub->add_option("--dtype", opt->plan.dtypes, "Element types: f32, f64");
  auto* patterns = sub->add_option("--pattern", opt->plan.patterns,
                                   "Input patterns: normal, uniform, constant, zeros");
  auto* layouts = sub->add_option("--layout", opt->plan.layouts, "Layouts: NN, NT, TN, TT");
  sub->add_option("--threads", opt->plan.threads, "Thread counts")->delimiter(',');
  sub->add_option("--shape", opt->shapes, "Problem sizes: N or MxNxK (replaces the suite's sizes)")
      ->delimiter(',');
  sub->add_option("--repetitions,--benchmark_repetitions", opt->repetitions,
                  "Timed repetitions per case (default: the suite's)");
  sub->add_option("--min-time,--benchmark_min_time", opt->min_time,
                  "Minimum seconds per repetition (default: the suite's)");
  sub->add_option("--warmup", opt->settings.warmup_s, "Untimed warm-up seconds per case")
      ->capture_default_str();
  sub->add_option("--case-timeout", opt->settings.case_timeout_s,
                  "Seconds before a case is killed and recorded as timed_out")
      ->capture_default_str();
  sub->add_option("--seed", opt->settings.seed, "Seed of the random inputs")->capture_default_str();
  sub->add_option("--blas-lib", opt->blas_libs,
                  "Also profile this CBLAS shared library (any path)");
  if (with_output)
    sub->add_option("-o,--output,--benchmark_out", opt->output, "Run document to write")
        ->capture_default_str();
  sub->add_flag("--no-isolation", opt->no_isolation,
                "Run cases in this process (a crash ends the run)");
  sub->add_option(
         "--collect", opt->settings.collect,
         "Collectors and events, e.g. perf:cycles,perf:page-faults,rapl (default: timer, perf "
         "task-clock/page-faults/context-switches, rapl)")
      ->delimiter(',');
  sub->add_option("--group", opt->group,
                  "Counter group from collectors/groups (FLOPS_DP, MEM, ENERGY, SOFTWARE...): its "
                  "events are collected and its metrics computed per repetition");
  sub->add_flag("--no-probe", opt->no_probe,
                "Do not probe the machine when no model is cached (the Run then has no ceilings)");
  for (auto* opt_ : {backends, dtypes, patterns, layouts}) opt_->delimiter(',');
}

Command add_run_command(CLI::App& app) {
  auto opt = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand("run", "Run a suite of cases and write a Run document");
  add_run_options(sub, *opt, true);
  return {sub, [opt] {
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
