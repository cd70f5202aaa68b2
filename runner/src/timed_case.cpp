#include "timed_case.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "benchmark_runs.hpp"
#include "fp_env_scope.hpp"
#include "timed_loop.hpp"

namespace ridgeline {

namespace {

benchmark::TimeUnit time_unit_of(const std::string& name) {
  if (name == "s") return benchmark::kSecond;
  if (name == "ms") return benchmark::kMillisecond;
  if (name == "us") return benchmark::kMicrosecond;
  return benchmark::kNanosecond;
}

const char* const kColdCacheNote =
    "cold: every operand flushed (clflush) before each call, untimed; counters read over "
    "the timed loop include the flushes' write-backs of the outputs";

}  // namespace

std::vector<CaseResult> time_case(const TimedCaseInput& in,
                                  std::vector<std::unique_ptr<Collector>>& collectors,
                                  const RunSettings& settings) {
  Kernel& kernel = in.kernel;
  const CaseSpec& spec = in.spec;
  const auto crashed = [&](const std::string& why) {
    return in.crashed ? in.crashed(why)
                      : std::vector<CaseResult>{
                            untimed_result(spec, Disposition::crashed, why, &kernel.info())};
  };
  const std::string name = spec.name();
  TimedLoop loop(kernel, spec, in.cold_memory, in.work, collectors);
  benchmark::ClearRegisteredBenchmarks();
  auto* bench =
      benchmark::RegisterBenchmark(name.c_str(), [&](benchmark::State& state) { loop(state); });
  bench->Repetitions(settings.repetitions)
      ->Unit(time_unit_of(time_unit_for(in.work, kernel.info().device)));
  // A collective kernel's ranks must make the same calls: a count they agreed on.
  std::optional<std::int64_t> agreed = settings.iterations;
  try {
    if (!agreed) agreed = kernel.fixed_iterations(settings.min_time_s);
  } catch (const std::exception& e) {
    benchmark::ClearRegisteredBenchmarks();
    return crashed(fmt::format("threw: {}", e.what()));
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
  if (kernel.info().ranks > 0 && !loop.threw().empty()) return crashed(loop.threw());

  if (reporter.runs().empty())
    return {untimed_result(spec, Disposition::crashed, "Google Benchmark reported no run",
                           &kernel.info())};
  TimedCase timed{spec, kernel, in.work, in.validation, in.notes};
  if (loop.cold()) timed.notes["cache"] = kColdCacheNote;
  return case_results(reporter.runs(), timed, loop.windows(), settings);
}

}  // namespace ridgeline
