// The options of `ridgeline run` and `ridgeline profile`, with the Google Benchmark flags
// that let tools written for benchmark binaries (compare.py) drive `ridgeline run`.
#include <charconv>
#include <cstdint>

#include "number_checks.hpp"
#include "run_support.hpp"

namespace ridgeline::cli {

void add_run_options(CLI::App* sub, RunOptions& o, bool with_output) {
  RunOptions* opt = &o;
  sub->add_option("--suite", opt->request.cases.suite,
                  "Suite: smoke, default, ladder, blas, gpu...")
      ->capture_default_str();
  sub->add_option("--filter,--benchmark_filter", opt->request.cases.filter,
                  "Keep cases whose name matches this regex (ECMAScript); -REGEX keeps those "
                  "that do not");
  auto* backends =
      sub->add_option("--backend", opt->request.cases.backends,
                      "Backends, e.g. cpu.packed,blas.openblas (comma-separated or repeated)");
  auto* dtypes =
      sub->add_option("--dtype", opt->request.cases.dtypes,
                      "Element types: f32, f64, tf32, bf16, f16, i8 (each kernel runs those it "
                      "lists in `ridgeline list`)");
  auto* patterns = sub->add_option(
      "--pattern", opt->request.cases.patterns,
      "Input patterns: normal, uniform, constant, zeros, integer, subnormal, sign_random, "
      "sparseP (P% zeros), mantissaK (K significand bits kept)");
  auto* fp_envs = sub->add_option(
      "--fp-env", opt->request.cases.fp_envs,
      "Floating-point environments of the CPU cases: ieee (the default), ftz_daz (subnormals "
      "flushed to zero)");
  auto* caches = sub->add_option(
      "--cache", opt->request.cases.caches,
      "Where each timed call finds its operands on the CPU: warm (the default: wherever the "
      "last call left them), cold (flushed from every cache level before each call, untimed); "
      "the GPU is always cold");
  auto* layouts =
      sub->add_option("--layout", opt->request.cases.layouts, "Layouts: NN, NT, TN, TT");
  sub->add_option("--threads", opt->request.cases.threads, "Thread counts")
      ->delimiter(',')
      ->check(finite_between(1, 1e9, "threads"));  // the type's bound; the CPUs' is checked later
  sub->add_option("--shape", opt->request.shapes,
                  "Problem sizes: N or MxNxK (replaces the suite's sizes)")
      ->delimiter(',');
  sub->add_option("--params", opt->request.cases.params,
                  "Op parameters, e.g. rows=4096,cols=1024 or m=512,n=512,k=64/layout=NT "
                  "(repeatable; each replaces them in the suite's cases whose op has them)");
  sub->add_option("--repetitions,--benchmark_repetitions", opt->request.repetitions,
                  "Timed repetitions per case (default: the suite's)")
      ->check(finite_between(1, 10000, "repetitions"));
  sub->add_option("--min-time,--benchmark_min_time", opt->request.min_time,
                  "Per repetition: seconds (0.5 or 0.5s) or a fixed iteration count (100x, "
                  "then with no warm-up); default: the suite's");
  sub->add_option("--warmup", opt->request.warmup_s, "Untimed warm-up seconds per case")
      ->capture_default_str()
      ->check(finite_between(0, 3600, "seconds"));
  sub->add_option("--case-timeout", opt->request.case_timeout_s,
                  "Seconds before a case is killed and recorded as timed_out")
      ->capture_default_str()
      ->check(finite_between(0, 1e6, "seconds", true));
  sub->add_option("--seed", opt->request.seed, "Seed of the random inputs (0 to 2^64 - 1)")
      ->capture_default_str()
      ->check(CLI::Validator(  // "-1" would wrap to 2^64 - 1, 2^64 to 0
          [](const std::string& text) {
            std::uint64_t seed = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
            if (text.find('-') != std::string::npos)
              return "'" + text + "' is negative: a seed is a whole number from 0 to 2^64 - 1";
            if (ec == std::errc::result_out_of_range)
              return "'" + text + "' is too large: a seed is a whole number from 0 to 2^64 - 1";
            return std::string();
          },
          "SEED"));
  sub->add_option("--blas-lib", opt->request.blas_libs,
                  "Also profile this CBLAS shared library (any path)");
  if (with_output)
    sub->add_option("-o,--output,--benchmark_out", opt->output,
                    "Run document to write (JSON; the journal goes beside it as .jsonl)")
        ->capture_default_str();
  sub->add_flag("--interleave", opt->request.interleave,
                "Run the repetitions round-robin across the cases (round r times every case "
                "once, each in its own child), so drift and per-process effects spread over all "
                "cases' samples");
  sub->add_flag_callback(
      "--no-isolation", [opt] { opt->request.isolate = false; },
      "Run cases in this process (a crash ends the run)");
  sub->add_option(
         "--collect", opt->request.collect,
         "Collectors and events, e.g. perf:cycles,perf:page-faults,rapl (default: timer, perf "
         "task-clock/page-faults/context-switches/cpu-migrations, rapl)")
      ->delimiter(',');
  sub->add_option("--group", opt->request.group,
                  "Counter group from collectors/groups (FLOPS_DP, MEM, ENERGY, SOFTWARE...): its "
                  "events are collected and its metrics computed per repetition");
  sub->add_flag("--dry-run", opt->dry_run,
                "Print the plan (every case) and the settings it would run with; run and write "
                "nothing");
  sub->add_flag("--strict", opt->request.strict,
                "Refuse to run (exit 2) when an event named in --collect or --group cannot be "
                "counted here; without it, each such event is one warning line");
  sub->add_flag("--no-probe", opt->no_probe,
                "Do not probe the machine when no model is cached (the Run then has no ceilings)");
  for (auto* opt_ : {backends, dtypes, patterns, fp_envs, caches, layouts}) opt_->delimiter(',');

  // Google Benchmark's own flags, as compare.py and other tools pass them.
  auto* gbench = "Google Benchmark compatibility";
  sub->add_option("--benchmark_format", opt->format,
                  "console (progress on stderr), or json (also the Run on stdout)")
      ->check(CLI::IsMember({"console", "json"}))
      ->group(gbench);
  sub->add_option("--benchmark_out_format", opt->out_format,
                  "json only: the Run document is Google Benchmark's JSON")
      ->check(CLI::IsMember({"json"}))
      ->group(gbench);
  sub->add_flag("--benchmark_display_aggregates_only", opt->display_aggregates_only,
                "Accepted: the console shows one line per case, from its aggregates")
      ->group(gbench);
  sub->add_flag("--benchmark_report_aggregates_only", opt->report_aggregates_only,
                "The Run keeps only the aggregate rows (mean, median, stddev, cv) of timed cases")
      ->group(gbench);
  sub->add_flag("--benchmark_list_tests", opt->list_tests,
                "Print the names of the cases that would run, and run nothing")
      ->group(gbench);
}

}  // namespace ridgeline::cli
