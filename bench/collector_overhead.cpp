// What one start + stop + read of each collector costs, next to the library calls it
// wraps: PAPI_start/PAPI_stop on the same event set, and the perf_event ioctls. A
// collector that cannot run here skips with its reason.
#include <benchmark/benchmark.h>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/papi.hpp"
#include "ridgeline/collectors/perf_event.hpp"
#include "ridgeline/collectors/timer_collector.hpp"

#if RIDGELINE_WITH_PAPI
#include <papi.h>
#endif

namespace {

using ridgeline::Collector;

void time_collector(benchmark::State& state, Collector& c) {
  const ridgeline::Availability a = c.probe();
  if (!a.available) {
    state.SkipWithError(a.reason.c_str());
    return;
  }
  for (auto _ : state) {
    c.start();
    c.stop();
    auto metrics = c.read();
    benchmark::DoNotOptimize(metrics.data());
  }
}

void BM_TimerCollector(benchmark::State& state) {
  auto c = ridgeline::make_timer_collector();
  time_collector(state, *c);
}
BENCHMARK(BM_TimerCollector);

void BM_PerfCollector_TaskClock(benchmark::State& state) {
  ridgeline::PerfEventCollector c({"task-clock"});
  time_collector(state, c);
}
BENCHMARK(BM_PerfCollector_TaskClock);

void BM_PerfCollector_Group3(benchmark::State& state) {
  ridgeline::PerfEventCollector c({"task-clock+page-faults+context-switches"});
  time_collector(state, c);
}
BENCHMARK(BM_PerfCollector_Group3);

constexpr const char* kPapiEvent = "perf::TASK-CLOCK";  // counts in a VM too

void BM_PapiCollector_TaskClock(benchmark::State& state) {
  auto c = ridgeline::make_papi_collector({kPapiEvent});
  time_collector(state, *c);
}
BENCHMARK(BM_PapiCollector_TaskClock);

#if RIDGELINE_WITH_PAPI
// The baseline the PAPI collector is held to: the same event set, started and stopped
// with PAPI's own calls and nothing else.
void BM_PapiDirect_TaskClock(benchmark::State& state) {
  if (PAPI_is_initialized() == PAPI_NOT_INITED &&
      PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
    state.SkipWithError("PAPI_library_init failed");
    return;
  }
  int set = PAPI_NULL;
  if (PAPI_create_eventset(&set) != PAPI_OK || PAPI_add_named_event(set, kPapiEvent) != PAPI_OK) {
    state.SkipWithError("PAPI_add_named_event(perf::TASK-CLOCK) failed");
    return;
  }
  long long value = 0;
  for (auto _ : state) {
    PAPI_start(set);
    PAPI_stop(set, &value);
    benchmark::DoNotOptimize(value);
  }
  PAPI_cleanup_eventset(set);
  PAPI_destroy_eventset(&set);
}
BENCHMARK(BM_PapiDirect_TaskClock);
#endif

}  // namespace

BENCHMARK_MAIN();
