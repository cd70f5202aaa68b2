// One case in this process, in named steps: the kernel asked whether it supports the case;
// prepared, run once and validated against the op's reference (case_validation.hpp), its
// ranks agreeing where it is a collective (collective_ranks.hpp); the timed inputs filled;
// timed by Google Benchmark, whose function is the timed loop with its collectors and cache
// flushing (timed_loop.hpp); its runs converted to the case's results (benchmark_runs.hpp).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "benchmark_runs.hpp"
#include "case_validation.hpp"
#include "collective_ranks.hpp"
#include "fp_env_scope.hpp"
#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/runner/runner.hpp"
#include "timed_loop.hpp"

namespace ridgeline {

namespace {

benchmark::TimeUnit time_unit_of(const std::string& name) {
  if (name == "s") return benchmark::kSecond;
  if (name == "ms") return benchmark::kMillisecond;
  if (name == "us") return benchmark::kMicrosecond;
  return benchmark::kNanosecond;
}

Support case_support(const Kernel& kernel, const CaseSpec& spec) {
  Support support = kernel.supports(spec.problem, spec.threads);
  if (support) support = pattern_support(spec.problem.pattern, spec.problem.dtype);
  if (support) support = fp_env_support(spec.fp_env, kernel.info(), spec.threads);
  return support;
}

const char* const kColdCacheNote =
    "cold: every operand flushed (clflush) before each call, untimed; counters read over "
    "the timed loop include the flushes' write-backs of the outputs";

}  // namespace

std::vector<CaseResult> execute_case(const KernelCatalog& catalog, const CaseSpec& spec,
                                     const RunSettings& settings) {
  // Collectors first: counters opened now also count the threads the kernel starts later.
  std::vector<std::unique_ptr<Collector>> collectors;
  for (auto& c : make_collectors(settings.collect))
    if (c->probe().available) collectors.push_back(std::move(c));
  auto kernel = catalog.create(spec.backend, spec.problem.op);
  if (!kernel)
    return {untimed_result(spec, Disposition::not_supported,
                           fmt::format("no {} kernel named {}", spec.problem.op, spec.backend))};
  if (const Support support = case_support(*kernel, spec); !support)
    return {untimed_result(spec, Disposition::not_supported, support.reason, &kernel->info())};

  const Problem& problem = spec.problem;
  Operands ops = allocate_operands(problem);
  CollectiveRanks ranks(*kernel, spec);
  const ValidatedCase validated = prepare_and_validate(*kernel, spec, ops, settings.seed, ranks);
  if (!validated.passed()) return validated.untimed;
  const WorkModel work = kernel->work(problem);
  if (problem.pattern != "normal") {  // the timed inputs: the case's pattern
    fill_operands(ops, problem.pattern, settings.seed + 200);
    kernel->prepare(problem, ops, spec.threads);
  }

  const std::string name = spec.name();
  TimedLoop loop(*kernel, spec, ops, work, collectors);
  benchmark::ClearRegisteredBenchmarks();
  auto* bench =
      benchmark::RegisterBenchmark(name.c_str(), [&](benchmark::State& state) { loop(state); });
  bench->Repetitions(settings.repetitions)
      ->Unit(time_unit_of(time_unit_for(work, kernel->info().device)));
  // A collective kernel's ranks must make the same calls: a count they agreed on.
  std::optional<std::int64_t> agreed = settings.iterations;
  try {
    if (!agreed) agreed = kernel->fixed_iterations(settings.min_time_s);
  } catch (const std::exception& e) {
    benchmark::ClearRegisteredBenchmarks();
    return ranks.crashed(fmt::format("threw: {}", e.what()));
  }
  if (agreed)  // a fixed count: Google Benchmark allows no warm-up with it
    bench->Iterations(*agreed);
  else
    bench->MinTime(settings.min_time_s)->MinWarmUpTime(settings.warmup_s);
  if (loop.manual_time())
    bench->UseManualTime();
  else
    bench->UseRealTime();
  CollectingReporter reporter;
  {
    // Only the timed runs see FTZ/DAZ: the inputs were converted and filled before.
    const FpEnvScope fp_env(spec.fp_env, spec.threads);
    // An explicit spec: a BENCHMARK_FILTER in the environment must not drop the one case.
    benchmark::RunSpecifiedBenchmarks(&reporter, ".");
  }
  benchmark::ClearRegisteredBenchmarks();
  if (kernel->info().ranks > 0 && !loop.threw().empty()) return ranks.crashed(loop.threw());

  if (reporter.runs().empty())
    return {untimed_result(spec, Disposition::crashed, "Google Benchmark reported no run",
                           &kernel->info())};
  TimedCase timed{spec, *kernel, work, validated.validation, kernel->notes()};
  if (loop.cold()) timed.notes["cache"] = kColdCacheNote;
  return case_results(reporter.runs(), timed, loop.windows(), settings);
}

}  // namespace ridgeline
